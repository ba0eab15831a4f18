"""``json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False)``, byte for byte, faster.

With ``indent`` set, the standard library leaves its C encoder and runs a generator
per container level (CPython 3.11); a 10,000-item structured report takes seconds
there. :func:`dumps_sorted_indented` writes the same text with one recursive
function and the C string encoder (``json.encoder.encode_basestring``), and falls
back to :func:`json.dumps` for anything it does not know (subclasses of the JSON
types, keys or values json would reject or convert, cycles), so the result is
always exactly what ``json.dumps`` gives. A property test compares the two.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring
from typing import Any

_FLOAT_REPR = float.__repr__
_INT_REPR = int.__repr__


class _Unusual(Exception):
    """A value left to :func:`json.dumps`."""


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value == float("inf"):
        return "Infinity"
    if value == -float("inf"):
        return "-Infinity"
    return _FLOAT_REPR(value)


def _key(key: Any) -> str:
    kind = type(key)
    if kind is str:
        return encode_basestring(key)
    if kind is bool:
        return '"true"' if key else '"false"'
    if key is None:
        return '"null"'
    if kind is int:
        return '"' + _INT_REPR(key) + '"'
    if kind is float:
        return '"' + _float(key) + '"'
    raise _Unusual


def _scalar(value: Any) -> str | None:
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return _INT_REPR(value)
    if kind is float:
        return _float(value)
    if value is None:
        return "null"
    return None


def _encode(value: Any, out: list[str], newline: str) -> None:
    kind = type(value)
    if kind is dict:
        if not value:
            out.append("{}")
            return
        inner = newline + "  "
        lead = "{" + inner
        sep = "," + inner
        append = out.append
        for key in sorted(value):
            item = value[key]
            kind = type(item)
            head = lead + (encode_basestring(key) if type(key) is str else _key(key)) + ": "
            lead = sep
            if kind is str:
                append(head + encode_basestring(item))
            elif kind is dict or kind is list or kind is tuple:
                append(head)
                _encode(item, out, inner)
            else:
                text = _scalar(item)
                if text is None:
                    raise _Unusual
                append(head + text)
        append(newline + "}")
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        inner = newline + "  "
        lead = "[" + inner
        sep = "," + inner
        append = out.append
        for item in value:
            kind = type(item)
            if kind is str:
                append(lead + encode_basestring(item))
            elif kind is dict or kind is list or kind is tuple:
                append(lead)
                _encode(item, out, inner)
            else:
                text = _scalar(item)
                if text is None:
                    raise _Unusual
                append(lead + text)
            lead = sep
        append(newline + "]")
    else:
        text = _scalar(value)
        if text is None:
            raise _Unusual
        out.append(text)


def dumps_sorted_indented(value: Any) -> str:
    """Exactly ``json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False)``."""
    try:
        out: list[str] = []
        _encode(value, out, "\n")
        return "".join(out)
    except (_Unusual, RecursionError, TypeError):
        return json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False)

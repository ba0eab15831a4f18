"""``json.dumps`` text from orjson, kept only where it is provably the same bytes.

orjson writes JSON about ten times faster than CPython's C encoder. For values of the
exact types ``dict``/``list``/``tuple``/``str``/``int``/``float``/``bool``/``None``
its text (``OPT_INDENT_2``, optionally ``OPT_SORT_KEYS``; or compact) equals
``json.dumps``'s with ``ensure_ascii=False`` (and ``indent=2``, or ``separators=(",",
":")``) except for

- non-finite floats: orjson writes ``null`` where ``json.dumps`` writes ``NaN`` or
  ``Infinity``;
- floats below ``1e-4`` in magnitude: ``0.00001`` for ``1e-05``;
- integers beyond 64 bits, lone surrogates, non-string keys, nesting past its limit
  and types json refuses: orjson raises.

So a text is kept only when ``marshal.dumps(value, 4)`` succeeds (exact built-in types
only: no subclass, enum, dataclass or other object orjson would write but ``json.dumps``
would not), its image holds no double with an all-ones exponent (no NaN or infinity: a
search of the image's float records, type byte ``g``, or ``g | 0x80`` when marshal keeps
a reference to it, a later use of the same object being a reference to that record; a
string that merely looks like one only costs speed), orjson does not raise, and its
text holds neither ``0.0000`` nor a digit followed by ``e-`` (the only two forms in
which it writes a float below ``1e-4``; every other finite float is written as
``float.__repr__`` writes it). Otherwise the functions here return ``None`` and the
caller writes the value with the standard library, so the text never differs.
Property tests (``tests/test_orjson_text.py``) compare both with ``json.dumps``. This
is the one such guard: the structured report's records
(:mod:`assay.report.structured.json_stream`) take :func:`indented_member_bytes`.
"""

from __future__ import annotations

import marshal
import re
from typing import Any

_LOADED: list[Any] = []  # [orjson module or None], looked up on first use

# marshal's type code of a binary float ("g"), then 8 bytes little-endian; | 0x80: FLAG_REF
_FLOAT_TYPES = (0x67, 0x67 | 0x80)


def _orjson() -> Any:
    """The orjson module, or ``None`` when it is not installed."""
    if not _LOADED:
        try:
            import orjson
        except ImportError:  # pragma: no cover - a declared dependency
            _LOADED.append(None)
        else:
            _LOADED.append(orjson)
    return _LOADED[0]


def _refuse(obj: Any) -> Any:
    raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")


def _exact(value: Any) -> bool:
    """Whether ``value`` holds exact JSON types only and no non-finite float."""
    try:
        image = marshal.dumps(value, 4)  # ValueError: a type marshal (so exact JSON) lacks
    except ValueError:
        return False
    return not _non_finite(image)


def _non_finite(image: bytes) -> bool:
    """Whether a marshal image (any version) may hold a NaN or an infinity.

    Such a double is ``g`` (or ``g | 0x80``, a record marshal refers back to) and 8
    little-endian bytes with an all-ones exponent: its last byte is 0x7F or 0xFF and
    the one before it at least 0xF0. Every 0x7F and 0xFF byte
    of the image is looked at (a one-byte search is fast, and both are rare in JSON-like
    data), so none is missed; other bytes that merely look like one only cost speed.
    """
    for last in (0x7F, 0xFF):
        at = image.find(last, 8)
        while at != -1:
            if image[at - 1] >= 0xF0 and image[at - 8] in _FLOAT_TYPES:
                return True
            at = image.find(last, at + 1)
    return False


_DIGIT_E = re.compile(rb"e-(?<=[0-9]e-)")  # "e-" found first, then the digit before it


def _small_float(text: bytes) -> bool:
    """Whether orjson's ``text`` may hold a float below ``1e-4``: ``0.0000`` or a digit + ``e-``."""
    return b"0.0000" in text or _DIGIT_E.search(text) is not None


def _text(value: Any, option: int) -> bytes | None:
    """The text orjson writes for ``value`` with ``option``, or ``None`` where it may differ."""
    orjson = _orjson()
    if orjson is None or not _exact(value):
        return None
    option |= orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS
    option |= orjson.OPT_PASSTHROUGH_DATETIME
    try:
        text: bytes = orjson.dumps(value, default=_refuse, option=option)
    except TypeError:  # orjson.JSONEncodeError: big int, surrogate, non-str key, depth
        return None
    return None if _small_float(text) else text


def indented_members(
    values: list[Any] | tuple[Any, ...], depth: int, sort_keys: bool
) -> str | None:
    """The members of a list at ``depth`` as ``json.dumps(..., indent=2)`` writes them.

    That is the text between ``[`` + newline + indent and newline + indent + ``]``:
    each member at ``depth + 1``, joined by ``,`` + newline + indent. ``None`` when
    orjson's text may differ (see the module docstring) or ``values`` is empty.
    """
    text = indented_member_bytes(values, depth, sort_keys)
    return None if text is None else text.decode("utf-8")


def indented_member_bytes(
    values: list[Any] | tuple[Any, ...], depth: int, sort_keys: bool
) -> bytes | None:
    """:func:`indented_members` as the UTF-8 bytes orjson wrote (not decoded)."""
    orjson = _orjson()
    if orjson is None or not values:
        return None
    option = orjson.OPT_INDENT_2 | (orjson.OPT_SORT_KEYS if sort_keys else 0)
    text = _text(values, option)
    if text is None:
        return None
    # "[\n  m1,\n  m2\n]" at depth 0; a JSON text holds raw newlines only between its lines
    return text[4:-2].replace(b"\n", b"\n" + b"  " * depth)


def compact(value: Any) -> str | None:
    """``json.dumps(value, ensure_ascii=False, separators=(",", ":"))``, or ``None``."""
    text = _text(value, 0)
    return None if text is None else text.decode("utf-8")

"""``json.dumps(obj, indent=2)`` at C speed, byte for byte.

CPython's C encoder (``_json.make_encoder``) is used only when ``indent`` is
``None``; with an indent, :func:`json.dumps` falls back to the pure-Python
encoder. :func:`dumps_indented` gives the same text while letting the C encoder
write every *leaf* container (a dict or list whose values are all scalars): at
depth ``d`` such a container is the C encoder's output with item separator
``",<newline>" + "  " * (d + 1)``, with a newline and indent added after the opening and
before the closing bracket. Only the containers above the leaves are walked in
Python. Anything the fast path does not know (tuples are fine; other types are
not) falls back to :func:`json.dumps` itself, so the output never differs.

A long list of containers (:data:`ORJSON_MIN_ITEMS` members or more, such as a result
document's per-item records) is written by orjson, :data:`ORJSON_CHUNK` members at a
time, where its text is provably the same (``ensure_ascii=False`` only; see
:mod:`assay.io.orjson_text`); any other chunk is written as above.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from assay.io.orjson_text import indented_members

_c_make_encoder: Any = getattr(json.encoder, "c_make_encoder", None)  # CPython C accelerator

_SCALARS = frozenset({str, int, float, bool, type(None)})
_DICT = {dict}
_INDENT = "  "
_INFINITY = float("inf")
ORJSON_MIN_ITEMS = 32  # a list of containers this long is tried with orjson
ORJSON_CHUNK = 256  # members per orjson call (a chunk it refuses costs only itself)


class _Fallback(Exception):
    """A value the fast path does not handle: use :func:`json.dumps`."""


def dumps_indented(obj: Any, *, sort_keys: bool = False, ensure_ascii: bool = True) -> str:
    """Return ``json.dumps(obj, indent=2, sort_keys=sort_keys, ensure_ascii=ensure_ascii)``."""
    if _c_make_encoder is None:
        return json.dumps(obj, indent=2, sort_keys=sort_keys, ensure_ascii=ensure_ascii)
    writer = _Writer(sort_keys, ensure_ascii)
    try:
        writer.value(obj, 0)
    except (_Fallback, TypeError, ValueError, RecursionError):
        return json.dumps(obj, indent=2, sort_keys=sort_keys, ensure_ascii=ensure_ascii)
    return "".join(writer.out)


def compact_encoder(*, ensure_ascii: bool = True) -> Callable[[Any], str]:
    """A function giving ``json.dumps(obj, ensure_ascii=ensure_ascii)``, with less set-up per call.

    One C encoder serves every call (``json.dumps`` with a non-default option builds a
    new :class:`json.JSONEncoder`, and its encoder, each time).
    """
    if _c_make_encoder is None:
        return json.JSONEncoder(ensure_ascii=ensure_ascii).encode
    encoder = _c_make_encoder(
        None, _no_default, _string_encoder(ensure_ascii), None, ": ", ", ", False, False, True
    )
    fallback = json.JSONEncoder(ensure_ascii=ensure_ascii).encode

    def encode(obj: Any) -> str:
        try:
            return "".join(encoder(obj, 0))
        except (_Fallback, RecursionError):
            return fallback(obj)  # what json.dumps gives, or raises

    return encode


def _string_encoder(ensure_ascii: bool) -> Callable[[str], str]:
    return (
        json.encoder.encode_basestring_ascii if ensure_ascii else json.encoder.encode_basestring
    )


class _Writer:
    """Collects the chunks of one document."""

    def __init__(self, sort_keys: bool, ensure_ascii: bool) -> None:
        self.sort_keys = sort_keys
        self.ensure_ascii = ensure_ascii
        self.string = _string_encoder(ensure_ascii)
        self.out: list[str] = []
        self._leaf: dict[int, Callable[[Any, int], Any]] = {}

    def _leaf_encoder(self, depth: int) -> Callable[[Any, int], Any]:
        """The C encoder whose item separator is the newline and indent of ``depth + 1``."""
        encoder = self._leaf.get(depth)
        if encoder is None:
            encoder = self._leaf[depth] = _c_make_encoder(
                None, _no_default, self.string, None, ": ", ",\n" + _INDENT * (depth + 1),
                self.sort_keys, False, True,
            )  # fmt: skip
        return encoder

    def scalar(self, obj: Any) -> str:
        """The JSON text of a str, int, float, bool or None (as :mod:`json` writes it)."""
        kind = type(obj)
        if kind is str:
            return self.string(obj)
        if kind is float:
            return _float_text(obj)
        if kind is int:
            return int.__repr__(obj)
        return "null" if obj is None else ("true" if obj else "false")

    def value(self, obj: Any, depth: int) -> None:
        kind = type(obj)
        if kind in _SCALARS:
            self.out.append(self.scalar(obj))
        elif kind is dict:
            self._dict(obj, depth)
        elif kind is list or kind is tuple:
            self._list(obj, depth)
        else:
            raise _Fallback

    def _leaf_text(self, obj: Any, depth: int) -> str:
        text = "".join(self._leaf_encoder(depth)(obj, 0))
        inner = "\n" + _INDENT * (depth + 1)
        return text[0] + inner + text[1:-1] + "\n" + _INDENT * depth + text[-1]

    def _leaf_dicts(self, dicts: list[Any], depth: int) -> list[str]:
        """The texts of non-empty leaf dicts at ``depth``, from one C encoder call.

        The dicts are encoded as one list with the item separator of ``depth``; as no
        JSON string holds a raw newline and a scalar never ends in ``}``, the text
        ``}`` + separator + ``{`` occurs exactly between two dicts.
        """
        separator = ",\n" + _INDENT * (depth + 1)
        text = "".join(self._leaf_encoder(depth)(dicts, 0))
        inner = "\n" + _INDENT * (depth + 1)
        close = "\n" + _INDENT * depth + "}"
        return ["{" + inner + body + close for body in text[2:-2].split("}" + separator + "{")]

    def _dict(self, obj: dict[Any, Any], depth: int) -> None:
        if not obj:
            self.out.append("{}")
            return
        kinds = set(map(type, obj.values()))
        if _SCALARS.issuperset(kinds):
            self.out.append(self._leaf_text(obj, depth))
            return
        items = sorted(obj.items()) if self.sort_keys else list(obj.items())
        inner = "\n" + _INDENT * (depth + 1)
        out = self.out
        if kinds == _DICT and len(items) > 1 and self._all_leaf_dicts([v for _, v in items]):
            texts = self._leaf_dicts([v for _, v in items], depth + 1)
            separator = "{" + inner
            for (key, _), text in zip(items, texts, strict=True):
                out.append(separator + self._key(key) + text)
                separator = "," + inner
            out.append("\n" + _INDENT * depth + "}")
            return
        separator = "{" + inner
        for key, item in items:
            if type(item) in _SCALARS:
                out.append(separator + self._key(key) + self.scalar(item))
            else:
                out.append(separator + self._key(key))
                self.value(item, depth + 1)
            separator = "," + inner
        out.append("\n" + _INDENT * depth + "}")

    def _key(self, key: Any) -> str:
        if type(key) is str:
            return self.string(key) + ": "
        if type(key) not in _SCALARS:
            raise _Fallback
        if type(key) is float:  # json writes a float key with float.__repr__, as a value
            return '"' + _float_text(key) + '": '
        return '"' + self.scalar(key) + '": '

    @staticmethod
    def _all_leaf_dicts(values: list[Any]) -> bool:
        """Whether every value is a non-empty dict of scalars."""
        superset = _SCALARS.issuperset
        return all(type(v) is dict and v and superset(map(type, v.values())) for v in values)

    def _list(self, obj: list[Any] | tuple[Any, ...], depth: int) -> None:
        if not obj:
            self.out.append("[]")
            return
        kinds = set(map(type, obj))
        if _SCALARS.issuperset(kinds):
            self.out.append(self._leaf_text(list(obj), depth))
            return
        if not self.ensure_ascii and len(obj) >= ORJSON_MIN_ITEMS:
            self._chunked(obj, depth)
            return
        inner = "\n" + _INDENT * (depth + 1)
        out = self.out
        if kinds == _DICT and len(obj) > 1 and self._all_leaf_dicts(list(obj)):
            texts = self._leaf_dicts(list(obj), depth + 1)
            out.append("[" + inner + ("," + inner).join(texts) + "\n" + _INDENT * depth + "]")
            return
        separator = "[" + inner
        for item in obj:
            if type(item) in _SCALARS:
                out.append(separator + self.scalar(item))
            else:
                out.append(separator)
                self.value(item, depth + 1)
            separator = "," + inner
        out.append("\n" + _INDENT * depth + "]")

    def _chunked(self, obj: list[Any] | tuple[Any, ...], depth: int) -> None:
        """A long list: each chunk of members by orjson where provably identical, else as above."""
        inner = "\n" + _INDENT * (depth + 1)
        out = self.out
        separator = "[" + inner
        for start in range(0, len(obj), ORJSON_CHUNK):
            chunk = obj[start : start + ORJSON_CHUNK]
            text = indented_members(chunk, depth, self.sort_keys)
            if text is not None:
                out.append(separator + text)
                separator = "," + inner
                continue
            for item in chunk:
                out.append(separator)
                self.value(item, depth + 1)
                separator = "," + inner
        out.append("\n" + _INDENT * depth + "]")


def _float_text(value: float) -> str:
    """A float as :mod:`json` writes it (``allow_nan``: NaN and the infinities by name)."""
    if value != value:
        return "NaN"
    if value == _INFINITY:
        return "Infinity"
    if value == -_INFINITY:
        return "-Infinity"
    return float.__repr__(value)


def _no_default(value: Any) -> Any:
    raise _Fallback

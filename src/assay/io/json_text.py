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
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

_c_make_encoder: Any = getattr(json.encoder, "c_make_encoder", None)  # CPython C accelerator

_SCALARS = frozenset({str, int, float, bool, type(None)})
_INDENT = "  "


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


class _Writer:
    """Collects the chunks of one document."""

    def __init__(self, sort_keys: bool, ensure_ascii: bool) -> None:
        self.sort_keys = sort_keys
        self.string: Callable[[str], str] = (
            json.encoder.encode_basestring_ascii if ensure_ascii else json.encoder.encode_basestring
        )
        self.out: list[str] = []
        self._leaf: dict[int, Callable[[Any, int], Any]] = {}
        self._scalar = self._encoder("\n")

    def _encoder(self, separator: str) -> Callable[[Any, int], Any]:
        return _c_make_encoder(  # type: ignore[no-any-return]
            None, _no_default, self.string, None, ": ", separator, self.sort_keys, False, True
        )

    def _leaf_encoder(self, depth: int) -> Callable[[Any, int], Any]:
        encoder = self._leaf.get(depth)
        if encoder is None:
            encoder = self._leaf[depth] = self._encoder(",\n" + _INDENT * (depth + 1))
        return encoder

    def value(self, obj: Any, depth: int) -> None:
        kind = type(obj)
        if kind in _SCALARS:
            self.out.append("".join(self._scalar(obj, 0)))
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

    def _dict(self, obj: dict[Any, Any], depth: int) -> None:
        if not obj:
            self.out.append("{}")
            return
        if _SCALARS.issuperset(map(type, obj.values())):
            self.out.append(self._leaf_text(obj, depth))
            return
        items = sorted(obj.items()) if self.sort_keys else obj.items()
        inner = "\n" + _INDENT * (depth + 1)
        separator = "{" + inner
        for key, item in items:
            self.out.append(separator)
            self.out.append(self._key(key))
            self.value(item, depth + 1)
            separator = "," + inner
        self.out.append("\n" + _INDENT * depth + "}")

    def _key(self, key: Any) -> str:
        if type(key) is not str:
            if type(key) not in _SCALARS:
                raise _Fallback
            return "".join(self._scalar({key: 0}, 0))[1:-2]
        return self.string(key) + ": "

    def _list(self, obj: list[Any] | tuple[Any, ...], depth: int) -> None:
        if not obj:
            self.out.append("[]")
            return
        if _SCALARS.issuperset(map(type, obj)):
            self.out.append(self._leaf_text(list(obj), depth))
            return
        inner = "\n" + _INDENT * (depth + 1)
        separator = "[" + inner
        for item in obj:
            self.out.append(separator)
            self.value(item, depth + 1)
            separator = "," + inner
        self.out.append("\n" + _INDENT * depth + "]")


def _no_default(value: Any) -> Any:
    raise _Fallback

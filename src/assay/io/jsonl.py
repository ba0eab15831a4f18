"""Streaming JSONL reading with errors that name file, line and field."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from assay.errors import InputFileError
from assay.io.json_errors import huge_number_error, invalid_around_number, invalid_json
from assay.io.oddities import Oddities
from assay.io.sources import display_name, open_source


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook``: a key given twice would silently lose the first value."""
    result = dict(pairs)
    if len(result) != len(pairs):  # rare: find the first repeated key for the message
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKeyError(key)
            seen.add(key)
    return result


class _DuplicateKeyError(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_constant(name: str) -> Any:
    """``parse_constant``: NaN and Infinity are not JSON; refuse them instead of scoring them."""
    raise _ConstantError(name)


class _ConstantError(ValueError):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


class _HugeNumberError(ValueError):
    """Raised by the strict decoder's float hook; located in :mod:`assay.io.json_errors`."""


def _finite_float(literal: str) -> float:
    """``parse_float``: a literal beyond the float range would silently become infinity."""
    value = float(literal)
    if math.isinf(value):
        raise _HugeNumberError(literal)
    return value


# One decoder for every call: ``json.loads`` with hooks would build a new one each time.
_DECODER = json.JSONDecoder(
    object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constant, parse_float=_finite_float
)
# The same reading with each object's pairs kept as a list (the C scanner, no Python
# hook per object): a row none of whose values is an object or an array, and whose keys
# are distinct, is then exactly ``dict(pairs)``; any other row is read by ``_DECODER``.
_FLAT_DECODER = json.JSONDecoder(
    object_pairs_hook=list, parse_constant=_no_constant, parse_float=_finite_float
)
_FLAT_SCAN = _FLAT_DECODER.scan_once  # type: ignore[attr-defined]
_LINE_ENDS = ("", "\n", "\r\n")


def loads_strict(
    text: str, path: str | Path, line: int | None, released: Oddities | None = None
) -> Any:
    """Parse JSON text; reject duplicate keys and NaN/Infinity, naming file and line.

    Args:
        text: the JSON text (one JSONL line or a whole document).
        path: the file, for messages.
        line: the line of a JSONL row, or ``None`` for a whole document (the
            line is then taken from the parser).
        released: read as the released XL-DocBench evaluator (plain ``json.loads``:
            repeated keys keep the last value, NaN/Infinity accepted), noting each in it.

    Raises:
        InputFileError: invalid JSON, a duplicate key, a NaN/Infinity constant, or
            nesting too deep for the parser.
    """
    try:
        if released is None:
            return _DECODER.decode(text)
        value, odd = released.decoder.decode(text)
        for what, objects in odd:
            released.note(path, line, what, 1 if line is not None else objects)
        return value
    except json.JSONDecodeError as exc:
        raise invalid_json(exc, path, line) from None
    except _DuplicateKeyError as exc:
        raise InputFileError(
            path,
            f"key {exc.key!r} appears twice in one JSON object (the first value would be lost); "
            "keep one",
            line=line,
            field=exc.key,
        ) from None
    except RecursionError:
        raise InputFileError(
            path,
            "JSON nested too deeply to read (about 1000 levels or more); flatten the value",
            line=line,
        ) from None
    except _ConstantError as exc:
        raise InputFileError(
            path, f"{exc.name} is not valid JSON; write a number or a string", line=line
        ) from None
    except ValueError:  # int() past the digit limit, or a float literal past the float range
        huge = huge_number_error(text, path, line, floats_too=released is None)
        raise (huge or invalid_around_number(text, path, line)) from None


def iter_jsonl(
    path: str | Path, *, released: Oddities | None = None, digest: Any = None
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line_number, object)`` for each non-blank line of a JSONL file.

    Lines are read one at a time, so memory does not grow with the file. A leading
    UTF-8 byte-order mark is accepted; CRLF line ends are accepted. ``path`` may be
    ``-`` (standard input, named ``<stdin>`` in messages) and may be gzip, bzip2, xz
    or Zstandard compressed (see :mod:`assay.io.sources`).

    With ``released``, lines are read as the released XL-DocBench evaluator reads
    them (universal newlines, so a lone CR ends a line; ``line.strip()``, so a
    trailing NBSP or form feed is dropped; plain ``json.loads``) and each such
    oddity is noted in ``released``; line numbers count universal-newline lines.

    ``digest``: see :func:`iter_jsonl_stream`.

    Raises:
        InputFileError: the file cannot be opened, a line is not valid JSON, or a
            line holds something other than a JSON object.
    """
    handle = open_source(path)  # ``-`` is standard input; compression is sniffed
    try:
        yield from iter_jsonl_stream(handle, display_name(path), released=released, digest=digest)
    finally:
        handle.close()


def iter_jsonl_stream(
    handle: Any,
    path: str | Path,
    *,
    released: Oddities | None = None,
    digest: Any = None,
    first: tuple[int, int] = (1, 1),
) -> Iterator[tuple[int, dict[str, Any]]]:
    """:func:`iter_jsonl` over an open binary stream (``path`` names it in messages).

    ``digest`` (a ``hashlib`` object), when given, is updated with every byte read, so
    an input that can be read only once (a pipe, a FIFO) is hashed as it is parsed.
    ``first``: the number of the stream's first line, counted by LF and by
    universal newlines (a block of a larger file: see :mod:`assay.io.blocks`).
    """
    if digest is not None:
        handle = _Hashing(handle, digest)
    if released is not None:
        yield from _iter_released(handle, path, released, first)
        return
    decode = _DECODER.decode
    flat = True  # rows so far were flat objects: try the list-of-pairs scan first
    for number, raw in enumerate(handle, start=first[0]):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            line = _decode(raw, path, number)  # raises the error naming the byte
        if number == 1 and line.startswith("\ufeff"):
            line = line[1:]
        if not line or line.isspace():  # ``not line.strip()``: blank
            continue
        if flat:
            value = _flat_object(line)
            if value is not None:
                yield number, value
                continue
            flat = False  # nested (a gold file) or odd: every later row goes the general way
        try:
            value = decode(line)
        except Exception:  # read again below, for the exact one-line error
            value = None
        if type(value) is not dict:  # an error, or not an object: the one-line error
            value = parse_json_object(line, path, number)
        yield number, value


def _flat_object(line: str) -> dict[str, Any] | None:
    """``_DECODER.decode(line)`` of a flat one-line object, else ``None``.

    Flat: distinct keys, no object or array value. ``None`` for any other line, or one
    that fails: it is read the general way, which gives the exact error.
    """
    if line[0] != "{":
        return None
    try:
        pairs, end = _FLAT_SCAN(line, 0)
    except Exception:  # the general reading raises the exact error
        return None
    if line[end:] not in _LINE_ENDS:
        return None
    value = dict(pairs)
    if len(value) != len(pairs) or list in map(type, value.values()):
        return None  # a repeated key, or a nested object or array (also read as a list)
    return value


class _Hashing:
    """Iterate the lines of a binary stream, feeding each to a digest."""

    def __init__(self, handle: Any, digest: Any) -> None:
        self._handle, self._digest = handle, digest

    def __iter__(self) -> Iterator[bytes]:
        for raw in self._handle:
            self._digest.update(raw)
            yield raw


_JSON_SPACE = " \t\n\r"
BOM_NOTE = "UTF-8 byte-order mark: the released evaluator fails on it; assay reads past it"
LONE_CR_NOTE = "line ended by a lone CR (universal newlines): read as a line end, as released"
STRIP_NOTE = "non-JSON whitespace (NBSP, form feed, ...) at a line end: stripped, as released"


def _iter_released(
    handle: Any, path: str | Path, released: Oddities, first: tuple[int, int] = (1, 1)
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Lines as Python's text mode (universal newlines) and ``line.strip()`` give them."""
    number = first[1] - 1
    for index, raw in enumerate(handle, start=first[0]):
        text = _decode(raw, path, index)  # drops a byte-order mark on line 1
        if index == 1 and raw.startswith(b"\xef\xbb\xbf"):
            released.note(path, 1, BOM_NOTE)
        crlf = text.replace("\r\n", "\n")
        if "\r" in crlf:
            released.note(path, number + 1, LONE_CR_NOTE, crlf.count("\r"))
        lines = crlf.replace("\r", "\n").split("\n")
        if lines[-1] == "":
            lines.pop()
        for line in lines:
            number += 1
            stripped = line.strip()
            if not stripped:
                continue
            if stripped != line.strip(_JSON_SPACE):
                released.note(path, number, STRIP_NOTE)
            yield number, parse_json_object(stripped, path, number, released)


def _decode(raw: bytes, path: str | Path, number: int) -> str:
    """One line as text: UTF-8, with a byte-order mark on line 1 dropped."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputFileError(
            path,
            f"not UTF-8 text ({exc.reason} at byte {exc.start + 1} of the line); "
            "re-encode the file as UTF-8",
            line=number,
        ) from None
    return text[1:] if number == 1 and text.startswith("\ufeff") else text


def parse_json_object(
    text: str, path: str | Path, line: int, released: Oddities | None = None
) -> dict[str, Any]:
    """Parse one JSONL line that must hold a JSON object (``released``: see loads_strict)."""
    if text.strip() in ("{", "["):
        raise InputFileError(
            path,
            "invalid JSON (the line opens a multi-line JSON document); JSONL needs one "
            "complete {...} object per line",
            line=line,
        )
    value = loads_strict(text, path, line, released)
    if not isinstance(value, dict):
        hint = " (put each element of the array on its own line)" if isinstance(value, list) else ""
        raise InputFileError(
            path,
            f"expected a JSON object, got {json_type(value)}{hint}; "
            "write one {...} object per line",
            line=line,
        )
    return value


def json_type(value: Any) -> str:
    """A readable name of a parsed value's type (``string``, ``number``, ``list``, ...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "list" if isinstance(value, list) else "object"

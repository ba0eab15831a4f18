"""Where JSON text the strict reader refuses goes wrong: line, column and field.

:func:`~assay.io.jsonl.loads_strict` words the simple refusals itself (a key given
twice, NaN or Infinity, nesting too deep). The errors here need the text read again:
a number Python cannot hold (more digits than ``int`` reads, or beyond the float
range) is found with every number kept as its literal, and named with the field path
that holds it (``a.b[2]``); text the parser refuses is named by line and column, and
when a number hook raised before the parser reached the invalid part, also by the
field the invalid part lies in.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

from assay.errors import InputFileError

# Python refuses to convert longer digit strings to ``int`` (CVE-2020-10735); 0 = no limit.
INT_DIGIT_LIMIT = sys.get_int_max_str_digits()


class _HugeNumber:
    """A number literal Python cannot hold: too many digits for ``int``, or a float overflow."""

    __slots__ = ("literal",)

    def __init__(self, literal: str) -> None:
        self.literal = literal


def _marked_int(literal: str) -> Any:
    digits = len(literal.lstrip("-"))
    return _HugeNumber(literal) if INT_DIGIT_LIMIT and digits > INT_DIGIT_LIMIT else int(literal)


def _marked_float(literal: str) -> Any:
    value = float(literal)
    return _HugeNumber(literal) if math.isinf(value) else value


# Only used after a failure, to say which field holds the number Python cannot hold.
_LOCATOR = json.JSONDecoder(parse_int=_marked_int, parse_float=_marked_float, parse_constant=float)


def _locate_huge(text: str, floats_too: bool) -> tuple[str, str] | None:
    """``(field path, literal)`` of the first number Python cannot hold, or ``None``."""
    try:
        value = _LOCATOR.decode(text)
    except (ValueError, RecursionError):
        return None
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, _HugeNumber):
            if floats_too or not _is_float_literal(item.literal):
                return where, item.literal
        elif isinstance(item, dict):
            keys = list(item.items())
            stack.extend((f"{where}.{k}" if where else k, v) for k, v in reversed(keys))
        elif isinstance(item, list):
            stack.extend((f"{where}[{i}]", v) for i, v in reversed(list(enumerate(item))))
    return None


def _is_float_literal(literal: str) -> bool:
    return any(c in literal for c in ".eE")


def huge_number_error(
    text: str, path: str | Path, line: int | None, floats_too: bool
) -> InputFileError | None:
    """The error for a number literal too long for ``int`` or beyond the float range."""
    found = _locate_huge(text, floats_too)
    if found is None:
        return None
    where, literal = found
    if line is None:
        line = text.count("\n", 0, max(text.find(literal), 0)) + 1
    shown = literal if len(literal) <= 24 else f"{literal[:12]}...{literal[-6:]}"
    if _is_float_literal(literal):
        problem = (
            f"the number {shown} is beyond the range of a float (it would be read as "
            "infinity); write it as a string or as a smaller number"
        )
    else:
        digits = len(literal.lstrip("-"))
        problem = (
            f"the integer {shown} has {digits:,} digits, more than Python reads "
            f"({INT_DIGIT_LIMIT:,}); write it as a string or as a shorter number"
        )
    return InputFileError(path, problem, line=line, field=where or None)


def _field_at(text: str, stop: int) -> str | None:
    """The field path (``a.b[2]``) whose value the JSON text ``text[:stop]`` is inside."""
    frames: list[list[Any]] = []  # [key or None] for an object, [index] for an array
    expect_key, i = False, 0
    while i < stop:
        char = text[i]
        if char == '"':
            try:  # a string the error lies in (a control character): stop at it
                word, i = json.decoder.scanstring(text, i + 1, False)  # type: ignore[attr-defined]
            except ValueError:
                break
            if expect_key and frames:
                frames[-1][0], expect_key = word, False
            continue
        if char in "{[":
            frames.append([None if char == "{" else 0, char])
            expect_key = char == "{"
        elif char in "}]" and frames:
            frames.pop()
            expect_key = False
        elif char == "," and frames:
            if frames[-1][1] == "[":
                frames[-1][0] += 1
            expect_key = frames[-1][1] == "{"
        i += 1
    parts = [f"[{k}]" if kind == "[" else f".{k}" for k, kind in frames if k is not None]
    return "".join(parts).lstrip(".") or None


def invalid_json(exc: json.JSONDecodeError, path: str | Path, line: int | None) -> InputFileError:
    """The one-line error for text the JSON parser refuses, naming line and column."""
    hint = "fix or remove the line" if line is not None else "fix the file"
    reason = exc.msg.removesuffix(" at")  # "Invalid control character at": one "at"
    return InputFileError(
        path,
        f"invalid JSON ({reason} at column {exc.colno}); {hint}",
        line=line if line is not None else exc.lineno,
    )


def invalid_around_number(text: str, path: str | Path, line: int | None) -> InputFileError:
    """The error for a number Python cannot hold in text that is not valid JSON either.

    The number hook raised before the parser reached the invalid part (``1e999.0``), so
    the text is read again with every number accepted, for the invalid-JSON error.
    """
    try:
        _LOCATOR.decode(text)
    except json.JSONDecodeError as exc:
        error = invalid_json(exc, path, line)
        return InputFileError(path, error.problem, line=error.line, field=_field_at(text, exc.pos))
    except (ValueError, RecursionError):
        pass
    return InputFileError(  # not reached for any text found so far; kept one line regardless
        path, "a number Python cannot read; write it as a string or as a smaller number", line=line
    )

"""Shared reading helpers for harness logs: JSON as the harnesses write it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from assay.errors import InputFileError
from assay.io.inputs_read import note_read
from assay.io.json_errors import huge_number_error


def parse_json(data: bytes | str, path: str, *, line: int | None = None) -> Any:
    """Parse JSON as Python's ``json.dumps`` writes it (both harnesses use it).

    NaN and Infinity are accepted: the harnesses write them for undefined metric
    values, which rescoring does not read.

    Raises:
        InputFileError: not UTF-8, or not valid JSON (naming the line).
    """
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as exc:
        raise InputFileError(path, f"not UTF-8 text ({exc.reason})", line=line) from None
    try:
        return json.loads(text.removeprefix("\ufeff"))
    except json.JSONDecodeError as exc:
        raise InputFileError(
            path,
            f"invalid JSON ({exc.msg} at column {exc.colno}); the log may be truncated",
            line=line if line is not None else exc.lineno,
        ) from None
    except RecursionError:
        raise InputFileError(path, "JSON nested too deeply to read", line=line) from None
    except ValueError:  # an integer literal longer than Python reads (4,300 digits)
        located = huge_number_error(text, path, line, floats_too=False)
        raise located or InputFileError(
            path, "holds a number Python cannot read; is the log corrupt?", line=line
        ) from None


def read_json_file(path: str | Path) -> Any:
    """One JSON document from a file (see :func:`parse_json`)."""
    try:
        with open(path, "rb") as handle:
            note_read(path, handle)
            data = handle.read()
    except OSError as exc:
        raise InputFileError(path, f"cannot read ({exc.strerror or exc})") from None
    return parse_json(data, str(path))


def field(
    record: dict[str, Any], name: str, kinds: type | tuple[type, ...], path: str, **where: Any
) -> Any:
    """``record[name]``, checked to be of ``kinds``.

    Raises:
        InputFileError: the field is missing or of another type (naming it).
    """
    if name not in record:
        raise InputFileError(path, "missing; is this log complete?", field=name, **where)
    value = record[name]
    if not isinstance(value, kinds) or isinstance(value, bool) and bool not in _tuple(kinds):
        wanted = " or ".join(k.__name__ for k in _tuple(kinds))
        raise InputFileError(
            path, f"expected {wanted}, found {type(value).__name__}", field=name, **where
        )
    return value


def mapping(record: dict[str, Any], name: str) -> dict[str, Any]:
    """``record[name]`` when it is an object, else an empty one (optional facts)."""
    value = record.get(name)
    return value if isinstance(value, dict) else {}


def _tuple(kinds: type | tuple[type, ...]) -> tuple[type, ...]:
    return kinds if isinstance(kinds, tuple) else (kinds,)

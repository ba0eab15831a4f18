"""Streaming JSONL reading with errors that name file, line and field."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assay.errors import InputFileError


def iter_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line_number, object)`` for each non-blank line of a JSONL file.

    Lines are read one at a time, so memory does not grow with the file.

    Raises:
        InputFileError: the file cannot be opened, a line is not valid JSON, or a
            line holds something other than a JSON object.
    """
    try:
        handle = open(path, encoding="utf-8")  # noqa: SIM115 - closed in finally
    except OSError as exc:
        raise InputFileError(path, f"cannot open file ({exc.strerror}); check the path") from None
    try:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            yield number, parse_json_object(line, path, number)
    except UnicodeDecodeError as exc:
        raise InputFileError(path, f"not UTF-8 text ({exc.reason}); re-encode as UTF-8") from None
    finally:
        handle.close()


def parse_json_object(text: str, path: str | Path, line: int) -> dict[str, Any]:
    """Parse one JSONL line that must hold a JSON object."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputFileError(
            path,
            f"invalid JSON ({exc.msg} at column {exc.colno}); fix or remove the line",
            line=line,
        ) from None
    if not isinstance(value, dict):
        raise InputFileError(
            path,
            f"expected a JSON object, got {type(value).__name__}; wrap it in {{...}}",
            line=line,
        )
    return value


@dataclass(frozen=True, slots=True)
class Pair:
    """One ``{id, prediction, targets}`` row of a pairs file."""

    id: str
    prediction: str
    targets: tuple[str, ...]
    path: str
    line: int


def read_pairs(path: str | Path) -> Iterator[Pair]:
    """Stream ``{id, prediction, targets}`` rows; ``targets`` may be a string or a list.

    Raises:
        InputFileError: naming file, line and field for a missing or mistyped field.
    """
    for line, row in iter_jsonl(path):
        prediction = row.get("prediction")
        if not isinstance(prediction, str):
            problem = "missing" if "prediction" not in row else f"not a string ({prediction!r})"
            raise InputFileError(
                path, f"{problem}; give the answer text", line=line, field="prediction"
            )
        targets = row.get("targets")
        if isinstance(targets, str):
            targets = [targets]
        if (
            not isinstance(targets, list)
            or not targets
            or not all(isinstance(t, str) for t in targets)
        ):
            raise InputFileError(
                path,
                f"must be a non-empty list of strings, got {targets!r}",
                line=line,
                field="targets",
            )
        pair_id = str(row.get("id", f"line-{line}"))
        yield Pair(pair_id, prediction, tuple(targets), str(path), line)

"""Whole-file JSON documents (manifests, summaries, non-JSONL prediction files)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from assay.errors import InputFileError
from assay.io.jsonl import loads_strict


def read_json(path: str | Path) -> Any:
    """Parse one JSON document.

    A leading UTF-8 byte-order mark is accepted.

    Raises:
        InputFileError: unreadable, not UTF-8, empty, or invalid JSON (with the line
            number), a key given twice in one object, or NaN/Infinity.
    """
    try:
        with open(path, encoding="utf-8-sig") as handle:
            text = handle.read()
    except OSError as exc:
        raise InputFileError(path, f"cannot open file ({exc.strerror}); check the path") from None
    except UnicodeDecodeError as exc:
        raise InputFileError(path, f"not UTF-8 text ({exc.reason}); re-encode as UTF-8") from None
    if not text.strip():
        raise InputFileError(path, "the file is empty; expected one JSON document")
    return loads_strict(text, path, None)

"""Whole-file JSON documents (manifests, summaries, non-JSONL prediction files)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from assay.errors import InputFileError


def read_json(path: str | Path) -> Any:
    """Parse one JSON document.

    Raises:
        InputFileError: unreadable, not UTF-8, or invalid JSON (with the line number).
    """
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as exc:
        raise InputFileError(path, f"cannot open file ({exc.strerror}); check the path") from None
    except UnicodeDecodeError as exc:
        raise InputFileError(path, f"not UTF-8 text ({exc.reason}); re-encode as UTF-8") from None
    except json.JSONDecodeError as exc:
        raise InputFileError(
            path, f"invalid JSON ({exc.msg} at column {exc.colno}); fix the file", line=exc.lineno
        ) from None

"""Whole-file JSON documents (manifests, summaries, non-JSONL prediction files)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from assay.errors import InputFileError
from assay.io.jsonl import BOM_NOTE, loads_strict
from assay.io.oddities import Oddities
from assay.io.sources import display_name, open_source


def read_json(path: str | Path, *, released: Oddities | None = None) -> Any:
    """Parse one JSON document.

    A leading UTF-8 byte-order mark is accepted. With ``released``, the document is
    parsed as plain ``json.load`` does (repeated keys keep the last value,
    NaN/Infinity accepted) and each such oddity is noted in ``released``.

    Raises:
        InputFileError: unreadable, not UTF-8, empty, or invalid JSON (with the line
            number), a key given twice in one object, or NaN/Infinity.
    """
    with open_source(path) as handle:  # ``-`` is standard input; compression is sniffed
        data = handle.read()
    return parse_document(data, display_name(path), released=released)


def parse_document(data: bytes, path: str | Path, *, released: Oddities | None = None) -> Any:
    """:func:`read_json` of bytes already read (``path`` names them in messages)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputFileError(path, f"not UTF-8 text ({exc.reason}); re-encode as UTF-8") from None
    if released is not None and text.startswith("\ufeff"):
        released.note(path, 1, BOM_NOTE)
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise InputFileError(path, "the file is empty; expected one JSON document")
    return loads_strict(text, path, None, released)

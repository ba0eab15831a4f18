"""Write and read the assay result document (``assay-result.json``).

The document is the single source of truth of a comparison run (see
:mod:`assay.evaluation.compare`). It is written with sorted keys, a 2-space indent,
non-ASCII kept and a final newline, so identical inputs give identical bytes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from assay.errors import InputFileError
from assay.io.jsondoc import read_json

RESULT_KIND = "assay.result"
STRUCTURED_KIND = "assay.structured"
RENDERABLE_KINDS = (RESULT_KIND, STRUCTURED_KIND)


def dumps_result(document: dict[str, Any]) -> str:
    """The canonical text of a result document."""
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_text(path: str | Path, text: str, option: str = "--output") -> Path:
    """Write ``text`` as UTF-8 (line ends kept as given), creating parent folders.

    Raises:
        InputFileError: the file cannot be written.
    """
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
    except OSError as exc:
        raise InputFileError(
            target, f"cannot write ({exc.strerror}); check the directory", field=option
        ) from None
    return target


def load_result(path: str | Path) -> dict[str, Any]:
    """Read a saved assay result (or structured) report for re-rendering.

    Raises:
        InputFileError: unreadable, invalid JSON, or not a document ``assay report`` renders.
    """
    document = read_json(path)
    kind = document.get("kind") if isinstance(document, dict) else None
    if kind not in RENDERABLE_KINDS:
        raise InputFileError(
            path,
            f"not an assay result document (kind {kind!r}; expected one of "
            f"{', '.join(RENDERABLE_KINDS)}); write one with `assay compare --output` "
            "or `assay eval --result-json`",
            field="kind",
        )
    return dict(document)

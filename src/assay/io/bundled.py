"""The bundled sample data (package data), findable after ``pip install``."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from assay.errors import InvalidOptionError


def bundled_data_dir() -> Path:
    """The folder of the bundled data (``xlsample/``, ``structured/``, ``qa_pairs.jsonl``, ...)."""
    return Path(str(resources.files("assay").joinpath("data")))


def data_path(name: str | None = None) -> Path:
    """The bundled data folder, or the file or folder ``name`` inside it.

    Args:
        name: a path relative to the data folder, e.g. ``"qa_pairs.jsonl"``,
            ``"xlsample"`` or ``"structured/responses.jsonl"``; ``None`` for the folder.

    Raises:
        InvalidOptionError: ``name`` is not in the bundled data (the message lists what is).

    Example:
        >>> data_path("qa_pairs.jsonl").name
        'qa_pairs.jsonl'
    """
    base = bundled_data_dir()
    if not name:
        return base
    target = (base / name).resolve()
    inside = base.resolve() in (target, *target.parents)
    if not inside or not target.exists():
        known = ", ".join(sorted(p.name for p in base.iterdir() if not p.name.startswith("_")))
        raise InvalidOptionError(f"no bundled data {name!r}; the bundled data holds: {known}")
    return target

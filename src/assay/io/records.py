"""In-memory records in place of files: lists of dicts and pandas DataFrames.

:func:`evaluate <assay.evaluation.runs.evaluate>` and :class:`SystemInput
<assay.evaluation.runs.SystemInput>` take either file paths or records. Records go
through the same row parsing and checks as file rows; their messages name the row
index instead of a line (``gold records[3]: field 'answer': missing; ...``).

A DataFrame is read row by row (``to_dict("records")``) without importing pandas:
a missing cell (``NaN``, ``None``, ``pd.NA``, ``NaT``) counts as an absent field,
and numpy scalars and arrays become Python values, so a frame loaded from CSV or
Parquet reads as the same file would.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from assay.errors import InvalidTypeError

PathLike = str | Path


def is_frame(value: object) -> bool:
    """True for a pandas-like DataFrame (``columns`` and ``to_dict``)."""
    return hasattr(value, "columns") and callable(getattr(value, "to_dict", None))


def _is_missing(value: object) -> bool:
    if value is None or type(value).__name__ in ("NAType", "NaTType"):
        return True
    return isinstance(value, float) and math.isnan(value)


def _plain(value: Any) -> Any:
    """Turn numpy scalars and arrays into Python values (``item()`` / ``tolist()``)."""
    if isinstance(value, (str, bytes, bool, int, float, list, dict)) or value is None:
        return value
    for name in ("tolist", "item"):
        method = getattr(value, name, None)
        if callable(method):
            return method()
    return value


def frame_records(frame: Any) -> tuple[dict[str, Any], ...]:
    """The rows of a DataFrame as dicts, missing cells left out."""
    rows = frame.to_dict(orient="records")
    return tuple(
        {str(k): _plain(v) for k, v in row.items() if not (_is_scalar(v) and _is_missing(v))}
        for row in rows
    )


def _is_scalar(value: object) -> bool:
    return not isinstance(value, (list, tuple, dict)) and not hasattr(value, "__len__")


def split_source(
    value: object, what: str
) -> tuple[tuple[str, ...], tuple[dict[str, Any], ...] | None]:
    """``(paths, None)`` for one path or a sequence of paths; ``((), records)`` for records.

    Args:
        value: a path, a sequence of paths, an iterable of dicts or a DataFrame.
        what: what the value is, for the message (``gold``, ``predictions of 'x'``).

    Raises:
        InvalidTypeError: anything else, or paths and dicts mixed.
    """
    if isinstance(value, (str, Path)):
        return (str(value),), None
    if is_frame(value):
        return (), frame_records(value)
    if isinstance(value, Mapping) or not isinstance(value, Iterable):
        raise InvalidTypeError(
            f"{what}: expected a file path, a list of paths, a list of dicts or a DataFrame, "
            f"got {type(value).__name__}"
        )
    items = list(value)
    if all(isinstance(item, (str, Path)) for item in items):
        return tuple(str(item) for item in items), None
    if all(isinstance(item, Mapping) for item in items):
        return (), tuple(dict(item) for item in items)
    kinds = sorted({type(item).__name__ for item in items})
    raise InvalidTypeError(
        f"{what}: give file paths or records (dicts), not a mix ({', '.join(kinds)})"
    )

"""pandas DataFrames out: imported only when asked for, with a one-line install hint."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from assay.errors import MissingExtraError


def data_frame(rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> Any:
    """A ``pandas.DataFrame`` of ``rows`` with exactly ``columns``, in that order.

    Raises:
        MissingExtraError: pandas is not installed.
    """
    try:
        pandas = importlib.import_module("pandas")  # untyped here: no pandas-stubs needed
    except ImportError:
        raise MissingExtraError("DataFrame export", "pandas", "pandas") from None
    return pandas.DataFrame.from_records(list(rows), columns=list(columns))

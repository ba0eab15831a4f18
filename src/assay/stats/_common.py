"""Shared checks and helpers for :mod:`assay.stats` (private).

Every public function validates its inputs here, so a bad value raises a typed
error (:class:`~assay.errors.InvalidInputError` for data,
:class:`~assay.errors.InvalidOptionError` for options) that names the argument
and the fix, never an ``assert`` or a NumPy traceback.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import fields
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from assay.errors import InvalidInputError, InvalidOptionError, InvalidTypeError

FloatArray = NDArray[np.float64]

#: The seed used when a caller does not pass one (the same default as sacrebleu).
DEFAULT_SEED = 12345

#: The counting rules of the sampled paired tests, by name. ``"greater_or_equal"`` (the
#: default everywhere): ties count, ``r = #{resampled statistic >= observed}`` up to a
#: relative float tolerance of 1e-9, and ``p = (r + 1) / (T + 1)``, the valid Monte-Carlo
#: p-value (Noreen 1989). ``"greater"``, also named ``"sacrebleu"``: sacrebleu's and
#: multeval's strict ``>``, kept for parity with them; for 0/1 scores it gives
#: ``p = 1 / (T + 1)`` whenever one system wins every discordant item, however few.
COUNT_RULES = {"greater_or_equal": True, "greater": False, "sacrebleu": False}

#: The default counting rule of every paired test (library and CLI alike).
DEFAULT_COUNT_RULE = "greater_or_equal"


def ties_counted(count_rule: str, ties_count: bool | None = None) -> bool:
    """Whether ties count under ``count_rule`` (see :data:`COUNT_RULES`).

    ``ties_count`` is the older spelling of the same choice (``True`` is
    ``"greater_or_equal"``, ``False`` is ``"greater"``); given, it must agree with an
    explicit ``count_rule``.

    Raises:
        InvalidOptionError: an unknown rule name, or ``ties_count`` contradicting it.
    """
    if count_rule not in COUNT_RULES:
        raise InvalidOptionError(
            f"count_rule {count_rule!r} is not a counting rule; use one of "
            f"{', '.join(repr(name) for name in COUNT_RULES)} (ties counted is the default)."
        )
    if ties_count is None:
        return COUNT_RULES[count_rule]
    if count_rule != DEFAULT_COUNT_RULE and COUNT_RULES[count_rule] != bool(ties_count):
        raise InvalidOptionError(
            f"count_rule={count_rule!r} and ties_count={ties_count!r} disagree; "
            "give count_rule alone."
        )
    return bool(ties_count)


#: Status values carried by every estimate record.
OK = "ok"
EMPTY = "empty"
NOT_AVAILABLE = "not_available"


def as_values(values: ArrayLike, name: str = "values") -> FloatArray:
    """Return ``values`` as a 1-D float64 array of finite numbers.

    Raises:
        InvalidTypeError: a value is not a number (strings, ``None``, booleans are fine as 0/1).
        InvalidInputError: the array is not one-dimensional or holds NaN/inf.
    """
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InvalidTypeError(
            f"{name}: expected a sequence of numbers ({exc}); pass per-item scores as floats."
        ) from None
    if array.ndim != 1:
        raise InvalidInputError(
            f"{name}: expected a one-dimensional sequence of per-item numbers, "
            f"got an array of shape {array.shape}."
        )
    check_finite(array, name)
    return array


def as_stats(stats: ArrayLike, name: str = "stats") -> FloatArray:
    """Return per-item sufficient statistics as a 2-D float64 array (items x columns).

    A 1-D input is one statistic per item and becomes a single column.
    """
    try:
        array = np.asarray(stats, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InvalidTypeError(
            f"{name}: expected per-item statistics as numbers ({exc}); "
            "pass a list of equal-length rows of numbers."
        ) from None
    if array.ndim == 1:
        array = array.reshape(-1, 1)
    if array.ndim != 2:
        raise InvalidInputError(
            f"{name}: expected one row of statistics per item (2-D), got shape {array.shape}."
        )
    check_finite(array, name)
    return array


def check_finite(array: FloatArray, name: str) -> None:
    """Raise :class:`InvalidInputError` when ``array`` holds NaN or infinity."""
    if array.size and not np.isfinite(array).all():
        bad = int(np.flatnonzero(~np.isfinite(array.reshape(array.shape[0], -1)).any(axis=1))[0])
        raise InvalidInputError(
            f"{name}: item {bad} is NaN or infinite; an unscorable item belongs in an "
            "accounting bucket, not in the numbers (remove it or give it a score)."
        )


def check_confidence(confidence: float) -> float:
    """Return ``confidence`` if it is a number strictly between 0 and 1."""
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)):
        raise InvalidOptionError(f"confidence must be a number in (0, 1), got {confidence!r}.")
    if not 0.0 < float(confidence) < 1.0:
        raise InvalidOptionError(
            f"confidence must be strictly between 0 and 1 (e.g. 0.95), got {confidence!r}."
        )
    return float(confidence)


def check_probability(value: float, name: str) -> float:
    """Return ``value`` if it is a number strictly between 0 and 1 (alpha, power)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidOptionError(f"{name} must be a number in (0, 1), got {value!r}.")
    if not 0.0 < float(value) < 1.0:
        raise InvalidOptionError(f"{name} must be strictly between 0 and 1, got {value!r}.")
    return float(value)


def check_seed(seed: int) -> int:
    """Return ``seed`` if it is a non-negative integer (``None`` is refused: results repeat)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InvalidOptionError(
            f"seed must be a non-negative integer so that results repeat, got {seed!r}."
        )
    return int(seed)


def check_count(value: int, name: str, minimum: int = 1) -> int:
    """Return ``value`` if it is an integer >= ``minimum`` (resample and trial counts)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise InvalidOptionError(f"{name} must be an integer >= {minimum}, got {value!r}.")
    return int(value)


def check_same_length(a: Sequence[Any] | FloatArray, b: Sequence[Any] | FloatArray) -> None:
    """Raise :class:`InvalidInputError` unless two paired inputs cover the same items."""
    if len(a) != len(b):
        raise InvalidInputError(
            f"paired inputs must score the same items in the same order: got {len(a)} "
            f"items for system a and {len(b)} for system b; align them by item id first."
        )


def finite_or_none(value: float | None) -> float | None:
    """Return ``value`` as a float, or ``None`` when it is missing, NaN or infinite."""
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def record_dict(record: Any) -> dict[str, Any]:
    """Return a dataclass record as a JSON-ready dict with sorted keys and tuples as lists."""
    out: dict[str, Any] = {}
    for item in sorted(fields(record), key=lambda f: f.name):
        out[item.name] = _jsonable(getattr(record, item.name))
    return out


def _jsonable(value: Any) -> Any:
    """Convert nested tuples/records into lists/dicts for JSON."""
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in sorted(value.items())}
    if isinstance(value, np.generic):
        return value.item()
    return value

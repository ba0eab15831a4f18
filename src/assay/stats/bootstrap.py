"""Seeded nonparametric bootstrap over per-item sufficient statistics.

A corpus statistic (corpus BLEU, micro-F1, any ratio of sums) is a function of
the *column sums* of per-item sufficient statistics. The bootstrap therefore never
re-runs a metric: each resample draws n item indices with replacement, sums the
selected rows, and hands the sums to a **reducer**.

A reducer is vectorised: it takes an ``(m, k)`` array of summed statistics (one
row per resample) and returns ``m`` scores. Without a reducer, 1-D per-item values
are averaged (the reducer ``sums / n``). :func:`ratio_reducer` builds the common
``sum(numerator) / sum(denominator)`` case.

Resampling order mirrors sacrebleu's ``_bootstrap_resample``: one
``numpy.random.default_rng(seed)`` Generator, and the index matrix
``rng.choice(n, size=(n_resamples, n), replace=True)`` drawn row-block by
row-block (the same stream as one call, verified by the parity test), so a seed
gives the same resamples here and in sacrebleu.

The interval is the percentile interval of the resampled scores (NumPy's default
linear quantile). The seed and resample count are recorded in the result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from assay.errors import InvalidOptionError
from assay.stats._common import (
    DEFAULT_SEED,
    EMPTY,
    NOT_AVAILABLE,
    OK,
    FloatArray,
    as_stats,
    check_confidence,
    check_count,
    check_seed,
    finite_or_none,
    record_dict,
)

Reducer = Callable[[FloatArray], ArrayLike]

DEFAULT_RESAMPLES = 1000

#: Upper bound on the elements gathered per block of resamples (memory ~ 8 bytes each).
_BLOCK_ELEMENTS = 2_000_000
#: Block heights are multiples of this so block boundaries never split the RNG's buffered bits.
_BLOCK_ALIGN = 64


@dataclass(frozen=True, slots=True)
class BootstrapEstimate:
    """A statistic with its bootstrap standard error and percentile interval.

    Attributes:
        n: number of items.
        estimate: the statistic on all items (reducer of the full sums), or ``None`` if empty.
        mean: mean of the resampled statistics, or ``None``.
        se: standard deviation (ddof = 1) of the resampled statistics, or ``None``.
        lower: lower percentile bound, or ``None``.
        upper: upper percentile bound, or ``None``.
        confidence: nominal coverage (0.95).
        method: ``"percentile"``.
        n_resamples: number of bootstrap resamples drawn.
        seed: seed of the ``numpy.random.default_rng`` Generator.
        n_undefined: resamples whose statistic was undefined (NaN/inf, e.g. a zero
            denominator); they are left out of ``mean``/``se``/bounds and counted here.
        status: ``"ok"``, ``"empty"`` or ``"not_available"``.
        reason: why numbers are missing, else ``None``.
    """

    n: int
    estimate: float | None
    mean: float | None
    se: float | None
    lower: float | None
    upper: float | None
    confidence: float
    method: str
    n_resamples: int
    seed: int
    n_undefined: int
    status: str
    reason: str | None

    def to_dict(self) -> dict[str, Any]:
        """Return the canonical JSON form (sorted keys, seed and n_resamples included)."""
        return record_dict(self)


def ratio_reducer(numerator: int = 0, denominator: int = 1) -> Reducer:
    """Return a reducer computing ``sum(stats[:, numerator]) / sum(stats[:, denominator])``.

    A zero denominator gives NaN (an undefined statistic), never 0.0.
    """
    for name, column in (("numerator", numerator), ("denominator", denominator)):
        if isinstance(column, bool) or not isinstance(column, int) or column < 0:
            raise InvalidOptionError(f"ratio_reducer: {name} must be a column index, got {column}")

    def reduce(sums: FloatArray) -> FloatArray:
        top, bottom = sums[:, numerator], sums[:, denominator]
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(bottom != 0, top / np.where(bottom != 0, bottom, 1.0), np.nan)

    return reduce


def _mean_reducer(n: int) -> Reducer:
    """Return the reducer for the mean of one per-item value: ``sums[:, 0] / n``."""

    def reduce(sums: FloatArray) -> FloatArray:
        return sums[:, 0] / n

    return reduce


def prepare(
    stats: ArrayLike, reducer: Reducer | None, name: str = "stats"
) -> tuple[FloatArray, Reducer]:
    """Return (2-D statistics, reducer), defaulting to the mean of 1-D values."""
    array = as_stats(stats, name)
    if reducer is None:
        if array.shape[1] != 1:
            raise InvalidOptionError(
                f"{name}: {array.shape[1]} statistics per item need a reducer that turns "
                "summed statistics into a score (e.g. ratio_reducer(0, 1))."
            )
        return array, _mean_reducer(array.shape[0])
    if not callable(reducer):
        raise InvalidOptionError(f"reducer must be callable, got {reducer!r}.")
    return array, reducer


def reduce_sums(reducer: Reducer, sums: FloatArray) -> FloatArray:
    """Apply ``reducer`` to ``(m, k)`` sums and check it returned ``m`` scores."""
    scores = np.asarray(reducer(sums), dtype=np.float64)
    if scores.shape != (sums.shape[0],):
        raise InvalidOptionError(
            f"reducer returned shape {scores.shape} for {sums.shape[0]} rows of summed "
            "statistics; it must return one score per row (a 1-D array)."
        )
    return scores


def full_score(stats: FloatArray, reducer: Reducer) -> float:
    """Return the statistic on all items: the reducer applied to the column sums."""
    return float(reduce_sums(reducer, stats.sum(axis=0, keepdims=True))[0])


def block_rows(n_items: int, width: int) -> int:
    """Return the rows (resamples or trials) per block, a multiple of ``_BLOCK_ALIGN``."""
    rows = _BLOCK_ELEMENTS // max(1, n_items * width)
    return max(_BLOCK_ALIGN, rows // _BLOCK_ALIGN * _BLOCK_ALIGN)


def resampled_scores(
    arrays: Sequence[FloatArray], reducer: Reducer, n_resamples: int, seed: int
) -> list[FloatArray]:
    """Return each array's statistic on the same ``n_resamples`` bootstrap resamples.

    All arrays share one index matrix (a paired bootstrap when there are two).
    """
    rng = np.random.default_rng(seed)
    n = arrays[0].shape[0]
    rows = block_rows(n, sum(a.shape[1] for a in arrays))
    out = [np.empty(n_resamples, dtype=np.float64) for _ in arrays]
    for start in range(0, n_resamples, rows):
        stop = min(start + rows, n_resamples)
        idx = rng.choice(n, size=(stop - start, n), replace=True)
        for array, scores in zip(arrays, out, strict=True):
            scores[start:stop] = reduce_sums(reducer, array[idx].sum(axis=1))
    return out


def percentile_bounds(scores: FloatArray, confidence: float) -> tuple[float, float]:
    """Return the two-sided percentile interval of ``scores``."""
    low, high = np.quantile(scores, [(1.0 - confidence) / 2.0, (1.0 + confidence) / 2.0])
    return float(low), float(high)


def bootstrap(
    stats: ArrayLike,
    reducer: Reducer | None = None,
    *,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    confidence: float = 0.95,
) -> BootstrapEstimate:
    """Bootstrap a statistic computed from per-item sufficient statistics.

    Args:
        stats: per-item values (1-D) or per-item sufficient statistics (items x k).
        reducer: vectorised map from ``(m, k)`` summed statistics to ``m`` scores;
            ``None`` means the mean of 1-D values.
        n_resamples: number of resamples (>= 2).
        seed: seed of the NumPy Generator (recorded in the result).
        confidence: nominal coverage of the percentile interval.

    Returns:
        A :class:`BootstrapEstimate`: ``"empty"`` for no items, ``"not_available"``
        for one item or when every resample is undefined.

    Raises:
        InvalidInputError: statistics are not finite numbers.
        InvalidOptionError: bad reducer, count, seed or confidence.
    """
    confidence = check_confidence(confidence)
    n_resamples = check_count(n_resamples, "n_resamples", minimum=2)
    seed = check_seed(seed)
    array, reduce = prepare(stats, reducer)
    n = int(array.shape[0])
    common: dict[str, Any] = {
        "n": n,
        "confidence": confidence,
        "method": "percentile",
        "n_resamples": n_resamples,
        "seed": seed,
    }
    if n == 0:
        return _unavailable(common, None, EMPTY, "no items")
    estimate = finite_or_none(full_score(array, reduce))
    if n < 2:
        return _unavailable(common, estimate, NOT_AVAILABLE, "a bootstrap needs at least 2 items")
    (scores,) = resampled_scores([array], reduce, n_resamples, seed)
    defined = scores[np.isfinite(scores)]
    n_undefined = int(scores.size - defined.size)
    if defined.size < 2:
        reason = "fewer than 2 resamples have a defined statistic"
        return _unavailable(common, estimate, NOT_AVAILABLE, reason, n_undefined)
    lower, upper = percentile_bounds(defined, confidence)
    return BootstrapEstimate(
        estimate=estimate,
        mean=float(defined.mean()),
        se=float(defined.std(ddof=1)),
        lower=lower,
        upper=upper,
        n_undefined=n_undefined,
        status=OK,
        reason=None,
        **common,
    )


def _unavailable(
    common: dict[str, Any],
    estimate: float | None,
    status: str,
    reason: str,
    n_undefined: int = 0,
) -> BootstrapEstimate:
    """Build a :class:`BootstrapEstimate` without resampled numbers."""
    return BootstrapEstimate(
        estimate=estimate,
        mean=None,
        se=None,
        lower=None,
        upper=None,
        n_undefined=n_undefined,
        status=status,
        reason=reason,
        **common,
    )

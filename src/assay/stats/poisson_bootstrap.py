"""A mergeable bootstrap: Poisson(1) weights per item, summed per partition.

The ordinary bootstrap draws n indices with replacement, so it needs every item in
one place. The Poisson bootstrap (Hanley & MacGibbon 2006; Chamandy et al. 2012,
"Estimating uncertainty for massive data streams") gives each item an independent
weight w ~ Poisson(1) in each resample instead. A resample's statistic then comes
from weighted sums, ``sum(w * x)`` and ``sum(w)`` (or ``sum(w * s)`` for per-item
sufficient statistics), and weighted sums of partitions simply add: each partition
(a block of a file, on any worker) reduces its items to ``n_resamples`` sums, and
the client adds the partitions' sums. Nothing per item is gathered.

Two choices make a run's numbers independent of how the items were partitioned,
so a local run and a distributed run of the method give identical numbers:

* **Weights by item key, not by stream position.** Item ``key`` (its line in the
  file, or its 1-based position in a list) gets its own SplitMix64 stream, started
  from a hash of ``(seed, key)``; output ``b`` of the stream, inverted through the
  Poisson(1) CDF, is its weight in resample ``b``. Any worker computes any item's
  weights, whatever partition it lands in.
* **Exact sums.** Weights are integers; statistics are integer counts, summed
  exactly in int64. Per-item values (floats) are summed in fixed point, as two
  30-bit limbs of ``x * 2**60`` (a resolution of 2⁻⁶⁰ ≈ 8.7e-19 per value), in
  Python integers across partitions: integer addition does not depend on order.

The interval is the percentile interval (NumPy's linear quantile) of the resample
statistics, as :func:`assay.stats.bootstrap.bootstrap`; the method is named
``"poisson"`` in the result, with its seed and resample count.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from assay.errors import InvalidInputError
from assay.stats._common import (
    EMPTY,
    NOT_AVAILABLE,
    OK,
    FloatArray,
    check_confidence,
    check_count,
    check_seed,
    finite_or_none,
)
from assay.stats.bootstrap import BootstrapEstimate, percentile_bounds

METHOD = "poisson"
"""The method's name in a :class:`~assay.stats.bootstrap.BootstrapEstimate`."""

_MASK = (1 << 64) - 1
_GOLDEN, _SEED_MIX = 0x9E3779B97F4A7C15, 0xD1B54A32D192ED03  # SplitMix64's γ; a seed multiplier
_LIMB = 30
_SCALE = float(2**_LIMB)
_MAX_VALUE = 2.0**20  # |x| * 2**30 < 2**50: a weight times a limb times 128 items fits int64
_ROWS = 128  # items per int64 product before the sums move to Python integers
_CDF = [math.fsum(math.exp(-1.0) / math.factorial(j) for j in range(k + 1)) for k in range(30)]
_THRESHOLDS = np.array([min(round(c * 2.0**64), _MASK) for c in _CDF], dtype=np.uint64)
"""``P(W <= k) * 2**64`` for W ~ Poisson(1): 64 random bits past k of them give a weight > k."""


def splitmix64(z: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """SplitMix64's finaliser (Steele, Lea & Flood 2014) over a uint64 array."""
    z = z ^ (z >> np.uint64(30))
    z = z * np.uint64(0xBF58476D1CE4E5B9)
    z = z ^ (z >> np.uint64(27))
    z = z * np.uint64(0x94D049BB133111EB)
    out: np.ndarray[Any, Any] = z ^ (z >> np.uint64(31))
    return out


def item_states(keys: Sequence[int] | np.ndarray[Any, Any], seed: int) -> np.ndarray[Any, Any]:
    """Each item's SplitMix64 starting state: the finaliser of ``seed * M + key * γ``."""
    key = np.asarray(keys, dtype=np.int64).astype(np.uint64)
    start = np.uint64((seed * _SEED_MIX) & _MASK)
    with np.errstate(over="ignore"):
        states: np.ndarray[Any, Any] = splitmix64(start + key * np.uint64(_GOLDEN))
    return states


def poisson_weights(keys: Sequence[int] | np.ndarray[Any, Any], seed: int,
                    n_resamples: int) -> np.ndarray[Any, Any]:  # fmt: skip
    """The items × resamples Poisson(1) weights of items ``keys`` (int64).

    Item ``key``'s weights are the first ``n_resamples`` outputs of a SplitMix64
    stream started at :func:`item_states` (output ``b`` is the finaliser of
    ``state + (b + 1) * γ``), each turned into a Poisson(1) draw by inverting the
    CDF on the output's 64 bits: weight ``(i, b)`` depends only on ``(seed, keys[i], b)``.
    """
    states = item_states(keys, seed)[:, None]
    steps = (np.arange(n_resamples, dtype=np.uint64) + np.uint64(1))[None, :]
    with np.errstate(over="ignore"):
        bits = splitmix64(states + steps * np.uint64(_GOLDEN))
    return np.searchsorted(_THRESHOLDS, bits, side="right").astype(np.int64)


def _limbs(values: FloatArray) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """``values * 2**60`` as ``hi * 2**30 + lo`` (int64; ``lo`` rounded, in [0, 2**30])."""
    scaled = values * _SCALE
    high = np.floor(scaled)
    low = np.rint((scaled - high) * _SCALE)
    return high.astype(np.int64), low.astype(np.int64)


def _exact_dot(weights: np.ndarray[Any, Any], column: np.ndarray[Any, Any]) -> list[int]:
    """``weights.T @ column`` per resample, exactly (Python integers)."""
    totals = [0] * weights.shape[1]
    for start in range(0, weights.shape[0], _ROWS):
        part = column[start : start + _ROWS] @ weights[start : start + _ROWS]
        totals = [t + int(p) for t, p in zip(totals, part.tolist(), strict=True)]
    return totals


class PoissonSums:
    """The mergeable state: per resample, the summed weights and weighted sums.

    ``add_values`` (a mean metric: per-item floats) or ``add_statistics`` (a corpus
    metric: per-item integer counts) takes one partition's items; ``merge`` adds
    another partition's state. All sums are Python integers, so the order in which
    partitions are added does not change them.
    """

    def __init__(self, seed: int, n_resamples: int) -> None:
        """Start empty."""
        self.seed = check_seed(seed)
        self.n_resamples = check_count(n_resamples, "n_resamples", minimum=2)
        self.n = 0
        self.weights = [0] * self.n_resamples
        self.sums: list[list[int]] = []  # one list per column, each n_resamples long

    def _add(self, keys: Sequence[int], columns: list[np.ndarray[Any, Any]]) -> None:
        if not len(keys):
            return
        weights = poisson_weights(keys, self.seed, self.n_resamples)
        self.n += len(keys)
        self.weights = [a + int(b) for a, b in zip(self.weights, weights.sum(axis=0), strict=True)]
        sums = [_exact_dot(weights, column) for column in columns]
        if not self.sums:
            self.sums = sums
            return
        self.sums = [[a + b for a, b in zip(old, new, strict=True)]
                     for old, new in zip(self.sums, sums, strict=True)]  # fmt: skip

    def add_values(self, keys: Sequence[int], values: Sequence[float]) -> None:
        """Take a partition's per-item values (summed in fixed point, 2⁻⁶⁰ resolution).

        Raises:
            InvalidInputError: a value that is not finite or not below 2**20 in size.
        """
        array = np.asarray(values, dtype=np.float64)
        if array.size and not (np.isfinite(array).all() and np.abs(array).max() < _MAX_VALUE):
            raise InvalidInputError(
                "the Poisson bootstrap sums per-item values below 2**20 in size exactly; "
                "a value is not finite or too large (use the percentile bootstrap)"
            )
        self._add(keys, list(_limbs(array)))

    def add_statistics(self, keys: Sequence[int], statistics: Any) -> None:
        """Take a partition's per-item sufficient statistics (integer counts, items × k).

        Raises:
            InvalidInputError: a statistic that is not an integer.
        """
        array = np.asarray(statistics, dtype=np.float64).reshape(len(keys), -1)
        if array.size and not (np.isfinite(array).all() and (array == np.rint(array)).all()):
            raise InvalidInputError("the Poisson bootstrap sums integer statistics; one is not")
        counts = array.astype(np.int64)
        self._add(keys, [counts[:, j] for j in range(counts.shape[1])])

    def merge(self, other: PoissonSums) -> None:
        """Add another partition's state (same seed and resample count)."""
        if (other.seed, other.n_resamples) != (self.seed, self.n_resamples):
            raise ValueError("merging Poisson sums of different seeds or resample counts")
        if other.n == 0:
            return
        if self.n == 0:
            self.n, self.weights, self.sums = other.n, list(other.weights), other.sums
            return
        self.n += other.n
        self.weights = [a + b for a, b in zip(self.weights, other.weights, strict=True)]
        self.sums = [[a + b for a, b in zip(old, new, strict=True)]
                     for old, new in zip(self.sums, other.sums, strict=True)]  # fmt: skip

    def mean_scores(self) -> FloatArray:
        """Each resample's weighted mean of the values (NaN for a resample of weight 0)."""
        high, low = self.sums
        scores = []
        for weight, h, lo in zip(self.weights, high, low, strict=True):
            total = h * 2**_LIMB + lo  # the exact weighted sum times 2**60
            scores.append(math.ldexp(float(total), -2 * _LIMB) / weight if weight else math.nan)
        return np.asarray(scores, dtype=np.float64)

    def reduced_scores(self, reducer: Callable[[tuple[int, ...]], float]) -> FloatArray:
        """Each resample's statistic: ``reducer`` of its weighted statistic sums."""
        scores = []
        for b in range(self.n_resamples):
            try:
                scores.append(float(reducer(tuple(column[b] for column in self.sums))))
            except ZeroDivisionError:
                scores.append(math.nan)
        return np.asarray(scores, dtype=np.float64)


def poisson_interval(
    sums: PoissonSums, estimate: float | None, scores: FloatArray, confidence: float = 0.95
) -> BootstrapEstimate:
    """The percentile interval of the resample ``scores`` (from ``sums``) around ``estimate``.

    Raises:
        InvalidOptionError: a confidence outside (0, 1).
    """
    confidence = check_confidence(confidence)
    common: dict[str, Any] = {"n": sums.n, "confidence": confidence, "method": METHOD,
                              "n_resamples": sums.n_resamples, "seed": sums.seed}  # fmt: skip
    empty: dict[str, Any] = {"mean": None, "se": None, "lower": None, "upper": None}
    if sums.n == 0:
        return BootstrapEstimate(estimate=None, n_undefined=0, status=EMPTY, reason="no items",
                                 **empty, **common)  # fmt: skip
    estimate = finite_or_none(estimate) if estimate is not None else None
    defined = scores[np.isfinite(scores)]
    n_undefined = int(scores.size - defined.size)
    if sums.n < 2 or defined.size < 2:
        reason = ("a bootstrap needs at least 2 items" if sums.n < 2
                  else "fewer than 2 resamples have a defined statistic")  # fmt: skip
        return BootstrapEstimate(estimate=estimate, n_undefined=n_undefined,
                                 status=NOT_AVAILABLE, reason=reason, **empty,
                                 **common)  # fmt: skip
    lower, upper = percentile_bounds(defined, confidence)
    return BootstrapEstimate(
        estimate=estimate, mean=float(defined.mean()), se=float(defined.std(ddof=1)),
        lower=lower, upper=upper, n_undefined=n_undefined, status=OK, reason=None, **common,
    )  # fmt: skip

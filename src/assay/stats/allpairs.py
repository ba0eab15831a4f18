"""Paired tests of every pair of systems at once, sharing one resampling stream.

The per-pair functions of :mod:`assay.stats.paired` each start a fresh
``numpy.random.default_rng(seed)`` Generator, so with one seed every pair of a run
draws the *same* swap masks (approximate randomisation) or the *same* index
matrix (paired bootstrap). This module draws that stream once per run and reuses
it for every pair, so the counts and p-values are those of the per-pair loop
(pinned by the tests), at a fraction of the cost:

* *approximate randomisation*: the swap masks of a block of trials form a 0/1
  matrix ``K`` (trials x items); with ``D`` the items x pairs matrix of per-item
  differences ``a - b``, one product ``K @ D`` gives every pair's pseudo-system
  sums for the block (``keep @ (a - b) + sum(b)``, as in the per-pair code);
* *paired bootstrap*: each system's statistic on each resample is computed once
  and shared by all the pairs it belongs to.

Blocks of trials are multiples of 64 rows, so block boundaries never split the
Generator's buffered bits and the stream equals one large draw.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from assay.errors import InvalidInputError
from assay.stats._common import FloatArray
from assay.stats.bootstrap import (
    Reducer,
    full_score,
    percentile_bounds,
    prepare,
    reduce_sums,
    resampled_scores,
)
from assay.stats.exact import EXACT_SIGN_FLIP, exact_sign_flip
from assay.stats.paired import (
    PairedTestResult,
    check_defined,
    count_exceeding,
    count_rule_name,
    paired_approximate_randomization,
    paired_bootstrap,
    paired_result,
)

Pairs = Sequence[tuple[int, int]]

#: Upper bound on the elements of one block's swap matrix (reused buffer, cache-sized).
_SWAP_ELEMENTS = 1_000_000
#: Integers below this magnitude are exact in float32 (2^24).
_FLOAT32_EXACT = 2.0**24
#: NumPy >= 2.0 counts set bits (``np.bitwise_count``); older NumPy uses float32 products.
_HAS_POPCOUNT = hasattr(np, "bitwise_count")


def shuffled_differences_all(
    arrays: Sequence[FloatArray],
    pairs: Pairs,
    reduce: Reducer,
    n_trials: int,
    seed: int,
    *,
    mean: bool = False,
) -> FloatArray:
    """Return ``|A_j - B_j|`` per trial (rows) and pair (columns), one shared swap stream.

    Args:
        arrays: each system's per-item statistics (items x k, the same shape).
        pairs: ``(i, j)`` indices into ``arrays``: system ``i`` is a, ``j`` is b.
        reduce: vectorised map from summed statistics to scores.
        n_trials: randomisation trials.
        seed: seed of the NumPy Generator (the same stream as each per-pair test).
        mean: ``reduce`` is the mean of one per-item value (``sums[:, 0] / n``, the
            reducer ``None`` stands for): every pair's column of a block is then
            computed at once, by the same element-wise operations.
    """
    n, width = arrays[0].shape
    rng = np.random.default_rng(seed)
    rows = _aligned(_SWAP_ELEMENTS // max(1, n))
    totals = [a.sum(axis=0) for a in arrays]
    multiply, per_system = _multiplier(arrays, pairs)
    columns = _MeanColumns(totals, pairs, n) if mean and per_system and width == 1 else None
    out = np.empty((n_trials, len(pairs)), dtype=np.float64)
    for start in range(0, n_trials, rows):
        stop = min(start + rows, n_trials)
        products = multiply(rng.integers(2, size=(stop - start, n), dtype=bool))
        if columns is not None:
            columns.fill(products, out[start:stop])
            continue
        for column, (i, j) in enumerate(pairs):
            if per_system:
                part = products[:, i * width : (i + 1) * width]
                part = part - products[:, j * width : (j + 1) * width]
            else:
                part = products[:, column * width : (column + 1) * width]
            sums_a = part + totals[j]
            pseudo_a = reduce_sums(reduce, sums_a)
            pseudo_b = reduce_sums(reduce, totals[i] + totals[j] - sums_a)
            out[start:stop, column] = np.abs(pseudo_a - pseudo_b)
    return out


class _MeanColumns:
    """Every pair's ``|A_j - B_j|`` of a block at once, for the mean of one per-item value.

    Per pair the loop computes ``sums_a = (P[:, i] - P[:, j]) + T[j]``, then
    ``sums_a / n`` and ``(T[i] + T[j] - sums_a) / n`` (the mean reducer); here the same
    element-wise float64 operations run on all pair columns (in chunks of columns), so
    each value is the same float.
    """

    def __init__(self, totals: Sequence[FloatArray], pairs: Pairs, n: int) -> None:
        total = np.array([t[0] for t in totals], dtype=np.float64)
        self.first = np.array([i for i, _ in pairs], dtype=np.intp)
        self.second = np.array([j for _, j in pairs], dtype=np.intp)
        self.total_b = total[self.second]
        self.pooled = total[self.first] + self.total_b
        self.n = n

    def fill(self, products: FloatArray, out: FloatArray) -> None:
        """Write the block's differences (rows x pairs) into ``out``."""
        step = max(1, _SWAP_ELEMENTS // max(1, products.shape[0]))
        for start in range(0, self.first.size, step):
            part = slice(start, start + step)
            difference = products[:, self.first[part]] - products[:, self.second[part]]
            sums_a = difference + self.total_b[part]
            pseudo_b = (self.pooled[part] - sums_a) / self.n
            out[:, part] = np.abs(sums_a / self.n - pseudo_b)


Multiplier = Callable[[NDArray[np.bool_]], FloatArray]


def _multiplier(arrays: Sequence[FloatArray], pairs: Pairs) -> tuple[Multiplier, bool]:
    """Return ``keep -> keep @ M`` for a block of swap masks, and whether M's columns are systems.

    Exact shortcuts keep the per-pair numbers: 0/1 statistics (accuracy) are
    multiplied as bit sets (``popcount(keep & x)``, integer-exact); small integer
    statistics (n-gram counts) in float32, exact below 2^24; both per *system*
    (``S`` columns, not ``S(S-1)/2``), since a pair's ``keep @ (a - b)`` is then the
    exact difference of two products. Other values are multiplied as the per-pair
    differences ``a - b`` in float64, the very operands of the per-pair test.
    """
    stacked = np.concatenate(arrays, axis=1)
    if _HAS_POPCOUNT and np.isin(stacked, (0.0, 1.0)).all():
        bits = _packed(stacked.T.astype(bool))
        return (lambda keep: _popcount_products(keep, bits)), True
    bound = float(np.abs(stacked).max(initial=0.0)) * 2 * stacked.shape[0]
    if bound < _FLOAT32_EXACT and np.array_equal(stacked, np.round(stacked)):
        small = stacked.astype(np.float32)
        return (lambda keep: (keep.astype(np.float32) @ small).astype(np.float64)), True
    diffs = np.concatenate([arrays[i] - arrays[j] for i, j in pairs], axis=1)
    return (lambda keep: keep.astype(np.float64) @ diffs), False


def _packed(rows: NDArray[np.bool_]) -> NDArray[np.uint64]:
    """Pack each row of booleans into 64-bit words (zero-padded)."""
    packed = np.packbits(rows, axis=1)
    words = -(-rows.shape[1] // 64)
    padded = np.zeros((rows.shape[0], words * 8), dtype=np.uint8)
    padded[:, : packed.shape[1]] = packed
    return padded.view(np.uint64)


def _popcount_products(keep: NDArray[np.bool_], bits: NDArray[np.uint64]) -> FloatArray:
    """Return ``keep @ columns`` for 0/1 columns given as packed bits: popcounts of ANDs."""
    trials = _packed(keep)
    counts = np.bitwise_count(trials[:, None, :] & bits[None, :, :]).sum(axis=2, dtype=np.int64)
    products: FloatArray = counts.astype(np.float64)
    return products


def _aligned(rows: int) -> int:
    """Round a block height down to a multiple of 64 (at least 64)."""
    return max(64, rows // 64 * 64)


def bootstrap_differences_all(
    arrays: Sequence[FloatArray],
    pairs: Sequence[tuple[int, int]],
    reduce: Reducer,
    n_resamples: int,
    seed: int,
) -> list[tuple[FloatArray, FloatArray]]:
    """Return each pair's ``(boot_a, boot_b)`` resampled scores, one shared index stream.

    Every system is resampled once; a pair reads its two systems' scores.
    """
    used = sorted({index for pair in pairs for index in pair})
    resampled = resampled_scores([arrays[i] for i in used], reduce, n_resamples, seed)
    scores = dict(zip(used, resampled, strict=True))
    return [(scores[i], scores[j]) for i, j in pairs]


def all_pair_tests(
    method: str,
    arrays: Sequence[FloatArray],
    pairs: Pairs,
    reducer: Reducer | None,
    n_resamples: int,
    seed: int,
    ties_count: bool,
) -> list[PairedTestResult]:
    """Run the named paired test for every pair, sharing one resampling stream.

    Each result equals the per-pair function's (:func:`paired_approximate_randomization`,
    :func:`paired_bootstrap`, :func:`exact_sign_flip`) with the same seed.
    """
    if method == EXACT_SIGN_FLIP:
        return [_exact(arrays[i], arrays[j], reducer, seed) for i, j in pairs]
    if not pairs or arrays[0].shape[0] < 2:
        return [_one_pair(method, arrays[i], arrays[j], reducer, n_resamples, seed, ties_count)
                for i, j in pairs]  # fmt: skip
    _, reduce = prepare(arrays[0], reducer)
    scores = [full_score(array, reduce) for array in arrays]
    check_defined(np.array(scores), method)
    if method == "paired_bootstrap":
        return _bootstrap_all(arrays, pairs, reduce, scores, n_resamples, seed, ties_count)
    shuffled = shuffled_differences_all(
        arrays, pairs, reduce, n_resamples, seed, mean=reducer is None
    )
    check_defined(shuffled, method)
    common: dict[str, Any] = {"n_resamples": n_resamples, "seed": seed, "confidence": 0.95,
              "count_rule": count_rule_name(ties_count)}  # fmt: skip
    return [
        paired_result(
            method,
            int(arrays[0].shape[0]),
            (scores[i], scores[j]),
            count=count_exceeding(shuffled[:, column], abs(scores[i] - scores[j]), ties_count),
            **common,
        )  # fmt: skip
        for column, (i, j) in enumerate(pairs)
    ]


def _bootstrap_all(
    arrays: Sequence[FloatArray],
    pairs: Pairs,
    reduce: Reducer,
    scores: list[float],
    n_resamples: int,
    seed: int,
    ties_count: bool,
) -> list[PairedTestResult]:
    """Paired bootstrap of every pair from one shared index stream."""
    results = []
    resampled = bootstrap_differences_all(arrays, pairs, reduce, n_resamples, seed)
    for (i, j), (boot_a, boot_b) in zip(pairs, resampled, strict=True):
        check_defined(np.concatenate([boot_a, boot_b]), "paired_bootstrap")
        sample_diffs = np.abs(boot_b - boot_a)
        observed = abs(scores[i] - scores[j])
        results.append(
            paired_result(
                "paired_bootstrap", int(arrays[0].shape[0]), (scores[i], scores[j]),
                count=count_exceeding(sample_diffs - sample_diffs.mean(), observed, ties_count),
                bounds=percentile_bounds(boot_a - boot_b, 0.95), n_resamples=n_resamples,
                seed=seed, confidence=0.95, count_rule=count_rule_name(ties_count),
            )
        )  # fmt: skip
    return results


def _one_pair(
    method: str,
    a: FloatArray,
    b: FloatArray,
    reducer: Reducer | None,
    n_resamples: int,
    seed: int,
    ties_count: bool,
) -> PairedTestResult:
    """Run the per-pair function (fewer than 2 items: empty / not-available results)."""
    if method == "paired_bootstrap":
        return paired_bootstrap(
            a, b, reducer, n_resamples=n_resamples, seed=seed, ties_count=ties_count
        )
    return paired_approximate_randomization(
        a, b, reducer, n_trials=n_resamples, seed=seed, ties_count=ties_count
    )


def _exact(a: FloatArray, b: FloatArray, reducer: Reducer | None, seed: int) -> PairedTestResult:
    """The exact sign-flip test of one pair of 1-D 0/1 per-item means."""
    if reducer is not None or a.shape[1] != 1:
        raise InvalidInputError(
            "exact_sign_flip tests per-item 0/1 scores (their mean); corpus statistics "
            "with a reducer need approximate_randomization or paired_bootstrap."
        )
    return exact_sign_flip(a[:, 0], b[:, 0], seed=seed)

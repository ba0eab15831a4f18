"""Paired tests of two systems scored on the same items.

* :func:`paired_difference` — mean of per-item differences ``d_i = a_i - b_i`` with
  ``SE = sd(d) / sqrt(n)`` (n - 1), a t interval on n - 1 degrees of freedom, the
  Pearson correlation of the two systems' per-item scores, and the minimum
  detectable difference ``(z_{1-alpha/2} + z_{power}) * SE`` (normal approximation
  for a two-sided paired test; alpha = 0.05 and 80 % power give ``2.8016 * SE``).
* :func:`paired_bootstrap` and :func:`paired_approximate_randomization` — the two
  tests of sacrebleu's ``significance`` module, on per-item sufficient statistics
  and a reducer (see :mod:`assay.stats.bootstrap`). Both follow sacrebleu's
  definitions and its resampling order, so the same seed gives the same p-value:

  - observed statistic ``delta = |score_a - score_b|`` on all items;
  - *bootstrap*: the same index matrix ``rng.choice(n, (B, n))`` resamples both
    systems; ``s_j = |a*_j - b*_j|``, centred ``s_j - mean(s)``; the count is
    ``#{j : s_j - mean(s) > delta}``;
  - *approximate randomisation*: a swap mask ``rng.integers(2, (T, n), dtype=bool)``
    (True keeps a's item in pseudo-system A); the count is ``#{j : |A_j - B_j| > delta}``;
  - ``p = (count + 1) / (trials + 1)``, where by default ties count: the count is
    ``>=`` (up to a relative float tolerance of 1e-9), the conservative Monte-Carlo
    definition (Noreen 1989) and the rule of ``assay eval``/``compare``. For discrete
    per-item scores (0/1 accuracy) many resampled statistics *equal* the observed
    one, and sacrebleu's strict ``>`` then gives p = 1/(trials + 1) whenever one
    system wins every discordant item, however few there are (3 discordant items:
    p = 1/(T + 1) where the exact test gives 0.25). That rule stays available by
    name, ``count_rule="greater"`` (or ``"sacrebleu"``), for parity with sacrebleu
    and multeval (see :data:`assay.stats._common.COUNT_RULES`).

:mod:`assay.stats.exact` holds the exact test for 0/1 scores (McNemar);
:mod:`assay.stats.correction` the multiple-comparison correction,
:mod:`assay.stats.ties` the tie groups and :mod:`assay.stats.comparison` the
all-pairs comparison of many systems built from these pieces.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from assay.errors import InvalidInputError
from assay.stats._common import (
    DEFAULT_COUNT_RULE,
    DEFAULT_SEED,
    EMPTY,
    NOT_AVAILABLE,
    OK,
    FloatArray,
    as_values,
    check_confidence,
    check_count,
    check_probability,
    check_same_length,
    check_seed,
    record_dict,
    ties_counted,
)
from assay.stats._dist import normal_quantile
from assay.stats.bootstrap import (
    Reducer,
    block_rows,
    full_score,
    percentile_bounds,
    prepare,
    reduce_sums,
    resampled_scores,
)
from assay.stats.intervals import interval_quantile

DEFAULT_BOOTSTRAP_RESAMPLES = 1000
DEFAULT_AR_TRIALS = 10000


@dataclass(frozen=True, slots=True)
class PairedDifference:
    """Mean paired difference ``a - b`` with its SE, interval, correlation and MDD.

    Attributes:
        n: number of paired items.
        mean_a: mean of system a's scores (``None`` if empty).
        mean_b: mean of system b's scores (``None`` if empty).
        difference: mean of ``a_i - b_i`` (``None`` if empty).
        se: standard error of the mean difference (n - 1), or ``None``.
        lower: lower bound of the t interval, or ``None``.
        upper: upper bound of the t interval, or ``None``.
        confidence: nominal coverage (0.95).
        df: degrees of freedom (n - 1), or ``None``.
        correlation: Pearson correlation of the per-item scores, ``None`` when undefined
            (fewer than 2 items, or a system with constant scores).
        mdd: minimum detectable difference at ``alpha`` and ``power``, or ``None``.
        alpha: two-sided significance level of the MDD.
        power: power of the MDD.
        status: ``"ok"``, ``"empty"`` or ``"not_available"``.
        reason: why numbers are missing, else ``None``.
    """

    n: int
    mean_a: float | None
    mean_b: float | None
    difference: float | None
    se: float | None
    lower: float | None
    upper: float | None
    confidence: float
    df: int | None
    correlation: float | None
    mdd: float | None
    alpha: float
    power: float
    status: str
    reason: str | None

    def to_dict(self) -> dict[str, Any]:
        """Return the canonical JSON form (sorted keys)."""
        return record_dict(self)


@dataclass(frozen=True, slots=True)
class PairedTestResult:
    """A paired significance test of systems a and b on the same items.

    Attributes:
        method: ``"paired_bootstrap"`` or ``"approximate_randomization"``.
        n: number of paired items.
        score_a: system a's statistic on all items (``None`` if empty).
        score_b: system b's statistic on all items (``None`` if empty).
        difference: ``score_a - score_b`` (``None`` if empty).
        p_value: ``(count + 1) / (n_resamples + 1)``, or ``None`` when not available.
        count: resamples/trials whose statistic exceeded the observed one.
        n_resamples: bootstrap resamples or randomisation trials.
        seed: seed of the NumPy Generator.
        lower: bootstrap percentile bound of ``score_a - score_b`` (bootstrap only).
        upper: bootstrap percentile bound of ``score_a - score_b`` (bootstrap only).
        confidence: nominal coverage of the bootstrap interval.
        status: ``"ok"``, ``"empty"`` or ``"not_available"``.
        reason: why numbers are missing, else ``None``.
        count_rule: ``"greater"`` (sacrebleu: count statistics ``>`` the observed one) or
            ``"greater_or_equal"`` (ties count, up to float noise).
    """

    method: str
    n: int
    score_a: float | None
    score_b: float | None
    difference: float | None
    p_value: float | None
    count: int | None
    n_resamples: int
    seed: int
    lower: float | None
    upper: float | None
    confidence: float
    status: str
    reason: str | None
    count_rule: str = DEFAULT_COUNT_RULE

    def to_dict(self) -> dict[str, Any]:
        """Return the canonical JSON form (sorted keys, seed and n_resamples included)."""
        return record_dict(self)


def minimum_detectable_difference(
    se: float | None, *, alpha: float = 0.05, power: float = 0.80
) -> float | None:
    """Return ``(z_{1-alpha/2} + z_{power}) * se``, or ``None`` when ``se`` is ``None``.

    The smallest true paired difference a two-sided test at ``alpha`` detects with
    probability ``power`` given the current standard error (normal approximation).
    """
    alpha = check_probability(alpha, "alpha")
    power = check_probability(power, "power")
    if se is None:
        return None
    return (normal_quantile(1.0 - alpha / 2.0) + normal_quantile(power)) * float(se)


def _correlation(a: FloatArray, b: FloatArray) -> float | None:
    """Return the Pearson correlation, or ``None`` when a series is constant."""
    da, db = a - a.mean(), b - b.mean()
    denominator = math.sqrt(float(np.dot(da, da)) * float(np.dot(db, db)))
    if denominator == 0.0:
        return None
    return max(-1.0, min(1.0, float(np.dot(da, db)) / denominator))


def paired_difference(
    a: ArrayLike,
    b: ArrayLike,
    *,
    confidence: float = 0.95,
    alpha: float = 0.05,
    power: float = 0.80,
) -> PairedDifference:
    """Compare two systems' per-item scores on the same items (``a - b``).

    Args:
        a: system a's per-item scores.
        b: system b's per-item scores, same items in the same order.
        confidence: nominal coverage of the t interval of the mean difference.
        alpha: significance level for the minimum detectable difference.
        power: power for the minimum detectable difference.

    Raises:
        InvalidInputError: lengths differ or scores are not finite numbers.
    """
    confidence = check_confidence(confidence)
    minimum_detectable_difference(None, alpha=alpha, power=power)
    xa, xb = as_values(a, "a"), as_values(b, "b")
    check_same_length(xa, xb)
    n = int(xa.size)
    base: dict[str, Any] = {"n": n, "confidence": confidence, "alpha": alpha, "power": power}
    if n == 0:
        return _difference(base, None, None, None, None, EMPTY, "no items")
    diffs = xa - xb
    means = (float(xa.mean()), float(xb.mean()), float(diffs.mean()))
    if n < 2:
        reason = "a paired standard error needs at least 2 items"
        return _difference(base, *means, None, NOT_AVAILABLE, reason)
    se = float(diffs.std(ddof=1)) / math.sqrt(n)
    half = interval_quantile(confidence, "t", n - 1) * se
    return dataclasses.replace(
        _difference(base, *means, se, OK, None),
        lower=means[2] - half,
        upper=means[2] + half,
        df=n - 1,
        correlation=_correlation(xa, xb),
        mdd=minimum_detectable_difference(se, alpha=alpha, power=power),
    )


def _difference(
    base: dict[str, Any],
    mean_a: float | None,
    mean_b: float | None,
    difference: float | None,
    se: float | None,
    status: str,
    reason: str | None,
) -> PairedDifference:
    """Build a :class:`PairedDifference` without interval, correlation or MDD."""
    return PairedDifference(
        mean_a=mean_a,
        mean_b=mean_b,
        difference=difference,
        se=se,
        lower=None,
        upper=None,
        df=None,
        correlation=None,
        mdd=None,
        status=status,
        reason=reason,
        **base,
    )


def _paired_inputs(
    stats_a: ArrayLike, stats_b: ArrayLike, reducer: Reducer | None
) -> tuple[FloatArray, FloatArray, Reducer]:
    """Validate two systems' per-item statistics and return them with the reducer."""
    array_a, reduce = prepare(stats_a, reducer, "stats_a")
    array_b, _ = prepare(stats_b, reducer, "stats_b")
    check_same_length(array_a, array_b)
    if array_a.shape[1] != array_b.shape[1]:
        raise InvalidInputError(
            f"stats_a has {array_a.shape[1]} statistics per item but stats_b has "
            f"{array_b.shape[1]}; both systems must use the same metric."
        )
    return array_a, array_b, reduce


def check_defined(scores: FloatArray, method: str) -> None:
    """Refuse undefined resampled statistics: they would silently bias the count."""
    if not np.isfinite(scores).all():
        raise InvalidInputError(
            f"{method}: the reducer gave an undefined (NaN/inf) score on some resamples; "
            "use a statistic that is defined on every subset of items (e.g. smoothing)."
        )


def _full_scores(a: FloatArray, b: FloatArray, reduce: Reducer, method: str) -> tuple[float, float]:
    """Return both systems' statistic on all items, refusing undefined ones."""
    scores = (full_score(a, reduce), full_score(b, reduce))
    check_defined(np.array(scores), method)
    return scores


def _p_value(count: int, trials: int) -> float:
    """Return ``(count + 1) / (trials + 1)``."""
    return (count + 1) / (trials + 1)


def paired_result(
    method: str,
    n: int,
    scores: tuple[float | None, float | None],
    *,
    count: int | None,
    n_resamples: int,
    seed: int,
    confidence: float,
    bounds: tuple[float | None, float | None] = (None, None),
    status: str = OK,
    reason: str | None = None,
    count_rule: str = DEFAULT_COUNT_RULE,
) -> PairedTestResult:
    """Build a :class:`PairedTestResult` (p-value from ``count`` when given)."""
    score_a, score_b = scores
    difference = None if score_a is None or score_b is None else score_a - score_b
    return PairedTestResult(
        method=method,
        n=n,
        score_a=score_a,
        score_b=score_b,
        difference=difference,
        p_value=None if count is None else _p_value(count, n_resamples),
        count=count,
        n_resamples=n_resamples,
        seed=seed,
        lower=bounds[0],
        upper=bounds[1],
        confidence=confidence,
        status=status,
        reason=reason,
        count_rule=count_rule,
    )


def count_exceeding(values: FloatArray, observed: float, ties_count: bool) -> int:
    """Count ``values > observed`` (or ``>=`` up to float noise when ties count)."""
    if not ties_count:
        return int(np.sum(values > observed))
    return int(np.sum(values >= observed - 1e-9 * max(1.0, abs(observed))))


def count_rule_name(ties_count: bool) -> str:
    """The counting rule recorded on a result: ``greater_or_equal`` when ties count."""
    return "greater_or_equal" if ties_count else "greater"


def _early_result(
    method: str, a: FloatArray, b: FloatArray, reduce: Reducer, **common: Any
) -> PairedTestResult | None:
    """Return the empty / not-available result for fewer than 2 items, else ``None``."""
    n = int(a.shape[0])
    if n == 0:
        return paired_result(
            method, 0, (None, None), count=None, status=EMPTY, reason="no items", **common
        )
    if n >= 2:
        return None
    scores = (full_score(a, reduce), full_score(b, reduce))
    return paired_result(
        method,
        n,
        scores,
        count=None,
        status=NOT_AVAILABLE,
        reason="a paired test needs at least 2 items",
        **common,
    )


def paired_bootstrap(
    stats_a: ArrayLike,
    stats_b: ArrayLike,
    reducer: Reducer | None = None,
    *,
    n_resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES,
    seed: int = DEFAULT_SEED,
    confidence: float = 0.95,
    count_rule: str = DEFAULT_COUNT_RULE,
    ties_count: bool | None = None,
) -> PairedTestResult:
    """Paired bootstrap test of ``score_a`` vs ``score_b`` (sacrebleu's definition).

    Args:
        stats_a: system a's per-item values (1-D, mean) or sufficient statistics.
        stats_b: system b's, for the same items in the same order.
        reducer: vectorised map from summed statistics to scores (``None``: the mean).
        n_resamples: bootstrap resamples.
        seed: seed of the NumPy Generator (recorded).
        confidence: coverage of the percentile interval of ``score_a - score_b``.
        count_rule: ``"greater_or_equal"`` (default: resamples ``>=`` the observed
            statistic count) or ``"greater"`` / ``"sacrebleu"`` (sacrebleu's strict
            ``>``, for parity); see the module docstring.
        ties_count: the older spelling of ``count_rule`` (``True``: ties count).

    Returns:
        A :class:`PairedTestResult` with ``p = (count + 1) / (n_resamples + 1)``.
    """
    confidence = check_confidence(confidence)
    n_resamples = check_count(n_resamples, "n_resamples", minimum=2)
    seed = check_seed(seed)
    ties_count = ties_counted(count_rule, ties_count)
    a, b, reduce = _paired_inputs(stats_a, stats_b, reducer)
    common: dict[str, Any] = {
        "n_resamples": n_resamples, "seed": seed, "confidence": confidence,
        "count_rule": count_rule_name(ties_count),
    }  # fmt: skip
    early = _early_result("paired_bootstrap", a, b, reduce, **common)
    if early is not None:
        return early
    score_a, score_b = _full_scores(a, b, reduce, "paired_bootstrap")
    boot_a, boot_b = resampled_scores([a, b], reduce, n_resamples, seed)
    check_defined(np.concatenate([boot_a, boot_b]), "paired_bootstrap")
    sample_diffs = np.abs(boot_b - boot_a)
    count = count_exceeding(sample_diffs - sample_diffs.mean(), abs(score_a - score_b), ties_count)
    bounds = percentile_bounds(boot_a - boot_b, confidence)
    return paired_result(
        "paired_bootstrap",
        int(a.shape[0]),
        (score_a, score_b),
        count=count,
        bounds=bounds,
        **common,
    )


def paired_approximate_randomization(
    stats_a: ArrayLike,
    stats_b: ArrayLike,
    reducer: Reducer | None = None,
    *,
    n_trials: int = DEFAULT_AR_TRIALS,
    seed: int = DEFAULT_SEED,
    count_rule: str = DEFAULT_COUNT_RULE,
    ties_count: bool | None = None,
) -> PairedTestResult:
    """Paired approximate randomisation test (sacrebleu's definition and swap order).

    Args:
        stats_a: system a's per-item values (1-D, mean) or sufficient statistics.
        stats_b: system b's, for the same items in the same order.
        reducer: vectorised map from summed statistics to scores (``None``: the mean).
        n_trials: randomisation trials (recorded as ``n_resamples``).
        seed: seed of the NumPy Generator (recorded).
        count_rule: ``"greater_or_equal"`` (default: trials ``>=`` the observed
            statistic count) or ``"greater"`` / ``"sacrebleu"`` (sacrebleu's strict
            ``>``, for parity); see the module docstring.
        ties_count: the older spelling of ``count_rule`` (``True``: ties count).

    Returns:
        A :class:`PairedTestResult` with ``p = (count + 1) / (n_trials + 1)``.
    """
    n_trials = check_count(n_trials, "n_trials", minimum=1)
    seed = check_seed(seed)
    ties_count = ties_counted(count_rule, ties_count)
    a, b, reduce = _paired_inputs(stats_a, stats_b, reducer)
    common: dict[str, Any] = {
        "n_resamples": n_trials, "seed": seed, "confidence": 0.95,
        "count_rule": count_rule_name(ties_count),
    }  # fmt: skip
    early = _early_result("approximate_randomization", a, b, reduce, **common)
    if early is not None:
        return early
    score_a, score_b = _full_scores(a, b, reduce, "approximate_randomization")
    shuffled = _shuffled_differences(a, b, reduce, n_trials, seed)
    count = count_exceeding(shuffled, abs(score_a - score_b), ties_count)
    return paired_result(
        "approximate_randomization", int(a.shape[0]), (score_a, score_b), count=count, **common
    )


def _shuffled_differences(
    a: FloatArray, b: FloatArray, reduce: Reducer, n_trials: int, seed: int
) -> FloatArray:
    """Return ``|A_j - B_j|`` for each trial's randomly swapped pseudo-systems."""
    rng = np.random.default_rng(seed)
    n, width = a.shape
    rows = block_rows(n, width)
    out = np.empty(n_trials, dtype=np.float64)
    total_a, total_b = a.sum(axis=0), b.sum(axis=0)
    for start in range(0, n_trials, rows):
        stop = min(start + rows, n_trials)
        keep = rng.integers(2, size=(stop - start, n), dtype=bool).astype(np.float64)
        # keep @ a + (1 - keep) @ b, with one matrix product instead of four.
        sums_a = keep @ (a - b) + total_b
        pseudo_a = reduce_sums(reduce, sums_a)
        pseudo_b = reduce_sums(reduce, total_a + total_b - sums_a)
        check_defined(np.concatenate([pseudo_a, pseudo_b]), "approximate_randomization")
        out[start:stop] = np.abs(pseudo_a - pseudo_b)
    return out

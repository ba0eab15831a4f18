"""All-pairs comparison of systems scored on the same items, with tie groups.

:func:`compare_systems` ranks the systems by their statistic on all items, runs
the chosen paired test for every pair at once (:mod:`assay.stats.allpairs`: one
resampling stream shared by all pairs, the same numbers as the per-pair functions
of :mod:`assay.stats.paired`), applies the power guard (:mod:`assay.stats.guard`),
adjusts the p-values with Holm (:mod:`assay.stats.correction`) and groups systems
whose adjacent difference is not significant (:mod:`assay.stats.ties`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from assay.errors import InvalidInputError, InvalidOptionError
from assay.stats._common import (
    DEFAULT_COUNT_RULE,
    DEFAULT_SEED,
    FloatArray,
    check_count,
    check_probability,
    check_seed,
    finite_or_none,
    record_dict,
    ties_counted,
)
from assay.stats.allpairs import all_pair_tests
from assay.stats.bootstrap import Reducer, full_score, prepare
from assay.stats.correction import holm
from assay.stats.exact import EXACT_SIGN_FLIP
from assay.stats.guard import SAMPLED_TESTS, could_separate, guarded_trials, minimum_trials
from assay.stats.paired import (
    DEFAULT_AR_TRIALS,
    DEFAULT_BOOTSTRAP_RESAMPLES,
    PairedDifference,
    PairedTestResult,
    paired_difference,
)
from assay.stats.ties import TieGroups, tie_groups

PAIRED_TESTS = ("approximate_randomization", "paired_bootstrap", EXACT_SIGN_FLIP)


@dataclass(frozen=True, slots=True)
class PairComparison:
    """One pair of systems in a :class:`SystemComparison` (``a`` ranked above ``b``).

    Attributes:
        a: the better-ranked system.
        b: the other system.
        test: the paired test of ``a`` vs ``b``.
        p_holm: Holm-adjusted p-value across all pairs (``None`` when not available).
        difference: analytic paired difference of per-item means (1-D per-item
            scores only; ``None`` for corpus statistics with a reducer).
        could_separate: whether this test could have reached ``alpha`` after Holm at
            all (its smallest attainable p times the number of pairs); a tie from a
            test that could not is a lack of evidence, not a measured tie.
    """

    a: str
    b: str
    test: PairedTestResult
    p_holm: float | None
    difference: PairedDifference | None
    could_separate: bool = True

    def to_dict(self) -> dict[str, Any]:
        """Return the canonical JSON form (sorted keys)."""
        return record_dict(self)


@dataclass(frozen=True, slots=True)
class SystemComparison:
    """All-pairs paired comparison of systems on the same items, with tie groups.

    Attributes:
        systems: system names ranked best first (ties in score broken by name).
        scores: each system's statistic on all items (parallel to ``systems``).
        pairs: every pair ``(systems[i], systems[j])`` with ``i < j``, in that order.
        ties: rank groups from the Holm-adjusted p-values of adjacent systems.
        method: the paired test used.
        n_resamples: resamples or trials per pair.
        seed: the seed used for every pair (each pair's p-value does not depend on
            which other systems are compared, unless the power guard raised the
            default count, which depends on the number of pairs).
        alpha: family-wise significance level.
        higher_is_better: ranking direction.
        n_resamples_requested: the count asked for (or its default); 0 for the exact test.
        min_trials: the fewest trials that can reach ``alpha`` after Holm over these
            pairs (:func:`~assay.stats.guard.minimum_trials`; 0 for the exact test).
        power_guard: ``"met"`` (the requested count could reach alpha), ``"raised"``
            (a default count was raised to ``min_trials``) or ``"exact"`` (no trials).
    """

    systems: tuple[str, ...]
    scores: tuple[float | None, ...]
    pairs: tuple[PairComparison, ...]
    ties: TieGroups
    method: str
    n_resamples: int
    seed: int
    alpha: float
    higher_is_better: bool
    n_resamples_requested: int = 0
    min_trials: int = 0
    power_guard: str = "met"

    def to_dict(self) -> dict[str, Any]:
        """Return the canonical JSON form (sorted keys, seed and n_resamples included)."""
        return record_dict(self)


def _rank(scores: Mapping[str, float | None], higher_is_better: bool) -> list[str]:
    """Return names best first; systems without a score go last; ties broken by name."""
    sign = -1.0 if higher_is_better else 1.0

    def key(name: str) -> tuple[bool, float, str]:
        value = scores[name]
        return (value is None, 0.0 if value is None else sign * value, name)

    return sorted(scores, key=key)


def compare_systems(
    stats: Mapping[str, ArrayLike],
    reducer: Reducer | None = None,
    *,
    method: str = "approximate_randomization",
    n_resamples: int | None = None,
    seed: int = DEFAULT_SEED,
    alpha: float = 0.05,
    higher_is_better: bool = True,
    count_rule: str = DEFAULT_COUNT_RULE,
    ties_count: bool | None = None,
) -> SystemComparison:
    """Compare every pair of systems scored on the same items and group ties.

    Args:
        stats: per system, its per-item values (1-D) or sufficient statistics,
            all for the same items in the same order.
        reducer: vectorised map from summed statistics to scores (``None``: the mean).
        method: ``"approximate_randomization"`` (default), ``"paired_bootstrap"`` or
            ``"exact_sign_flip"`` (per-item 0/1 scores only; nothing is sampled).
        n_resamples: trials/resamples per pair (default 10000 for AR, 1000 for
            bootstrap). The power guard (:mod:`assay.stats.guard`) raises a default
            count that cannot reach ``alpha`` after Holm (``power_guard = "raised"``)
            and refuses an explicit one with one line naming the minimum.
        seed: seed used for every pair.
        alpha: family-wise level; Holm-adjusted ``p <= alpha`` separates rank groups.
        higher_is_better: whether larger scores rank first.
        count_rule: ``"greater_or_equal"`` (default, as ``assay eval``/``compare``:
            resampled statistics ``>=`` the observed one count, the valid rule for
            discrete per-item scores) or ``"greater"`` / ``"sacrebleu"`` (sacrebleu's
            strict ``>``, for parity).
        ties_count: the older spelling of ``count_rule`` (``True``: ties count).

    Returns:
        A :class:`SystemComparison`. When p-values are not available (fewer than two
        items), adjacent systems are reported as tied: no evidence separates them.

    Raises:
        InvalidOptionError: unknown method, or an explicit ``n_resamples`` too small
            to reach ``alpha`` after the Holm correction.
        InvalidInputError: inconsistent statistics, or non-0/1 scores for the exact test.
    """
    requested = _check_method(method, n_resamples)
    seed, alpha = check_seed(seed), check_probability(alpha, "alpha")
    ties_count = ties_counted(count_rule, ties_count)
    prepared, scores = _system_scores(stats, reducer)
    ranked = _rank(scores, higher_is_better)
    index = [(i, j) for i in range(len(ranked)) for j in range(i + 1, len(ranked))]
    m = len(index)
    trials, guard = guarded_trials(method, requested, n_resamples is None, m, alpha)
    arrays = [prepared[name] for name in ranked]
    tests = all_pair_tests(method, arrays, index, reducer, trials, seed, ties_count)
    adjusted = _holm_or_none([t.p_value for t in tests], alpha)
    pairs = []
    for (i, j), test, p_holm in zip(index, tests, adjusted, strict=True):
        a, b = arrays[i], arrays[j]
        discordant = int(np.sum(a != b)) if method == EXACT_SIGN_FLIP else 0
        separable = could_separate(method, test.p_value, trials, discordant, m, alpha)
        analytic = _analytic(a, b, reducer)
        pairs.append(PairComparison(ranked[i], ranked[j], test, p_holm, analytic, separable))
    lookup = {(p.a, p.b): 1.0 if p.p_holm is None else p.p_holm for p in pairs}
    able = {(p.a, p.b): p.could_separate for p in pairs}
    return SystemComparison(
        systems=tuple(ranked),
        scores=tuple(scores[name] for name in ranked),
        pairs=tuple(pairs),
        ties=tie_groups(ranked, lookup, alpha=alpha, separable=able),
        method=method,
        n_resamples=trials,
        seed=seed,
        alpha=alpha,
        higher_is_better=bool(higher_is_better),
        n_resamples_requested=requested if method in SAMPLED_TESTS else 0,
        min_trials=minimum_trials(m, alpha) if method in SAMPLED_TESTS and m else 0,
        power_guard=guard,
    )


def _check_method(method: str, n_resamples: int | None) -> int:
    """Validate the test name and return the resample count (its default if ``None``)."""
    if method not in PAIRED_TESTS:
        raise InvalidOptionError(
            f"method must be one of {', '.join(PAIRED_TESTS)}, got {method!r}."
        )
    if method == EXACT_SIGN_FLIP:
        return 0
    if n_resamples is None:
        ar = method == "approximate_randomization"
        return DEFAULT_AR_TRIALS if ar else DEFAULT_BOOTSTRAP_RESAMPLES
    return check_count(n_resamples, "n_resamples", minimum=2)


def _system_scores(
    stats: Mapping[str, ArrayLike], reducer: Reducer | None
) -> tuple[dict[str, FloatArray], dict[str, float | None]]:
    """Validate every system's statistics and compute its score on all items."""
    if not stats:
        raise InvalidInputError("compare_systems: no systems given; pass {name: per-item scores}.")
    prepared: dict[str, FloatArray] = {}
    scores: dict[str, float | None] = {}
    for name, values in stats.items():
        array, reduce = prepare(values, reducer, f"stats[{name!r}]")
        first = next(iter(prepared.values()), array)
        if array.shape != first.shape:
            raise InvalidInputError(
                f"stats[{name!r}] has shape {array.shape} but the first system has "
                f"{first.shape}; every system must be scored on the same items."
            )
        prepared[str(name)] = array
        scores[str(name)] = finite_or_none(full_score(array, reduce)) if array.shape[0] else None
    return prepared, scores


def _holm_or_none(p_values: list[float | None], alpha: float) -> list[float | None]:
    """Holm-adjust the p-values, or return ``None`` for all when any is unavailable."""
    if any(p is None for p in p_values):
        return [None] * len(p_values)
    return list(holm([p for p in p_values if p is not None], alpha=alpha).adjusted)


def _analytic(a: FloatArray, b: FloatArray, reducer: Reducer | None) -> PairedDifference | None:
    """Return the analytic paired difference for 1-D per-item means, else ``None``."""
    if reducer is not None or a.shape[1] != 1:
        return None
    return paired_difference(a[:, 0], b[:, 0])

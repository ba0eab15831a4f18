"""Rank systems on any registered metric, in the direction the registry records.

:func:`compare_on_metric` scores every system's predictions with one metric and
hands the result to :func:`assay.stats.compare_systems` with the metric's
``higher_is_better``: error rates (``wer``, ``cer``, ``ter``, ``mer``, ``wil``)
rank the *lowest* value first, so the leaderboard order, the tie groups and the
paired tests' one-sided p-values all follow "lower is better".

For a metric whose corpus value comes from summed statistics (``corpus_from_stats``:
corpus BLEU, chrF, TER, WER, ...) the paired tests resample the per-item
statistics and reduce the sums with the metric's own corpus formula; every
other metric is compared on the mean of its per-item values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from assay.api import bind
from assay.errors import InvalidInputError
from assay.metrics.base import BoundMetric
from assay.metrics.corpus import score_corpus_bound
from assay.stats import DEFAULT_SEED, Reducer, SystemComparison, compare_systems


def _reducer(bound: BoundMetric) -> Reducer:
    """The metric's corpus formula applied to each row of summed statistics."""
    reduce_fn, settings = bound.spec.reduce_fn, bound.settings
    assert reduce_fn is not None  # only called for corpus_from_stats metrics

    def reduce(sums: Any) -> Any:
        return np.array([reduce_fn(row.tolist(), settings) for row in sums], dtype=float)

    return reduce


def compare_on_metric(
    metric: str,
    predictions: Mapping[str, Sequence[str]],
    targets_list: Sequence[str | Sequence[str]],
    *,
    options: Mapping[str, Any] | None = None,
    method: str = "approximate_randomization",
    n_resamples: int | None = None,
    seed: int = DEFAULT_SEED,
    alpha: float = 0.05,
    count_rule: str = "greater_or_equal",
    ties_count: bool | None = None,
) -> SystemComparison:
    """Compare systems' predictions for the same items on ``metric``.

    Args:
        metric: a registered metric name or alias.
        predictions: per system, one prediction per item (same items, same order).
        targets_list: one entry per item: a target string or a list of them.
        options: the metric's options, as for :func:`assay.score`.
        method: ``"approximate_randomization"`` or ``"paired_bootstrap"``.
        n_resamples: trials/resamples per pair (the test's default if ``None``).
        seed: the seed of every paired test.
        alpha: family-wise level for the tie groups.
        count_rule: ``"greater_or_equal"`` (default, as ``assay compare``: resampled
            statistics ``>=`` the observed one count, the valid rule for discrete
            scores) or ``"greater"`` / ``"sacrebleu"`` (sacrebleu's strict ``>``).
        ties_count: the older spelling of ``count_rule`` (``True``: ties count).

    Returns:
        A :class:`assay.stats.SystemComparison` whose ``higher_is_better`` is the
        metric's registered direction.

    Raises:
        InvalidInputError: fewer than one system.
    """
    bound = bind(metric, **dict(options or {}))
    if not predictions:
        raise InvalidInputError(f"metric {bound.spec.name!r}: give at least one system to rank.")
    results = {
        name: score_corpus_bound(bound, list(preds), targets_list)
        for name, preds in predictions.items()
    }
    spec = bound.spec
    stats: dict[str, Any]
    reducer: Reducer | None = None
    if spec.corpus_from_stats and spec.reduce_fn is not None:
        stats = {name: np.array(r.statistics, dtype=float) for name, r in results.items()}
        reducer = _reducer(bound)
    else:
        stats = {name: np.array(r.values, dtype=float) for name, r in results.items()}
    return compare_systems(
        stats,
        reducer,
        method=method,
        n_resamples=n_resamples,
        seed=seed,
        alpha=alpha,
        higher_is_better=spec.higher_is_better,
        count_rule=count_rule,
        ties_count=ties_count,
    )

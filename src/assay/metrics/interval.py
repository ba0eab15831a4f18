"""A seeded bootstrap interval on a corpus score (``assay score --confidence``).

The corpus value is resampled the way it is computed: metrics whose corpus value
comes from summed statistics (corpus BLEU, chrF, GLEU) resample item statistics and
re-apply the metric's own reducer to each resample's sums; every other metric
resamples the per-item values and takes their mean. The resampling itself is
:func:`assay.stats.bootstrap.bootstrap` (one seeded NumPy Generator, percentile
interval), so the seed and resample count are recorded with the interval.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from assay.metrics.base import BoundMetric
from assay.metrics.corpus import CorpusResult
from assay.stats._common import DEFAULT_SEED
from assay.stats.bootstrap import DEFAULT_RESAMPLES, BootstrapEstimate, bootstrap


def corpus_interval(
    bound: BoundMetric,
    result: CorpusResult,
    *,
    confidence: float = 0.95,
    seed: int = DEFAULT_SEED,
    n_resamples: int = DEFAULT_RESAMPLES,
) -> BootstrapEstimate:
    """The percentile bootstrap interval of ``result.value``.

    Raises:
        InvalidOptionError: a bad confidence, seed or resample count.
    """
    statistics = None if result.statistics is None else np.asarray(result.statistics, dtype=float)
    return interval_of(
        bound, np.asarray(result.values, dtype=float), None if result.is_mean else statistics,
        confidence=confidence, seed=seed, n_resamples=n_resamples,
    )  # fmt: skip


def interval_of(
    bound: BoundMetric,
    values: Any,
    statistics: Any,
    *,
    confidence: float = 0.95,
    seed: int = DEFAULT_SEED,
    n_resamples: int = DEFAULT_RESAMPLES,
) -> BootstrapEstimate:
    """The interval from per-item ``values``, or from per-item ``statistics`` when given.

    ``statistics`` (an items × statistics float array) is given for a metric whose
    corpus value comes from summed statistics; ``None`` resamples the values' mean.

    Raises:
        InvalidOptionError: a bad confidence, seed or resample count.
    """
    reduce_fn = bound.spec.reduce_fn
    if statistics is None or reduce_fn is None:
        return bootstrap(np.asarray(values, dtype=float), n_resamples=n_resamples, seed=seed,
                         confidence=confidence)  # fmt: skip
    settings = bound.settings  # statistics are integer counts: summed resamples stay integral

    def reducer(sums: Any) -> Any:
        return np.array([reduce_fn(tuple(int(v) for v in row), settings) for row in sums])

    return bootstrap(statistics, reducer, n_resamples=n_resamples, seed=seed,
                     confidence=confidence)  # fmt: skip

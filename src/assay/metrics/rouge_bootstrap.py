"""rouge-score's ``BootstrapAggregator``: low / mid / high of the bootstrapped mean.

rouge-score (and HF ``evaluate``'s ``rouge``, whose default ``use_aggregator=True``
returns ``mid.fmeasure``) does not report the mean of the item scores. It draws
``n_samples`` resamples of the items with replacement, takes each resample's mean,
and reports three percentiles of those means::

    delta = (1 - confidence_interval) / 2
    low, mid, high = percentile(means, 100 * [delta, 0.5, 1 - delta])   # linear

``mid`` is the median of the resampled means: close to, but not, the plain mean.

Options: ``bootstrap_seed`` (signed ``seed``; not ``seed``, which ``assay score`` keeps for
its own ``--confidence`` interval), ``n_samples``, ``confidence_interval``.

Draws: rouge-score calls ``np.random.choice(np.arange(n), size=n)`` once per resample
on NumPy's global ``RandomState``. Here a ``numpy.random.RandomState(seed)`` of our
own draws the same indices (``randint(0, n, size=(rows, n))`` row-block by row-block
is the same stream as ``n_samples`` calls of ``choice``), and each resample's mean
is summed in item order as ``np.mean(matrix[idx], axis=0)`` sums it. So after
``np.random.seed(seed)`` a one-score-type ``BootstrapAggregator`` returns exactly
the ``low``/``mid``/``high`` this module returns for ``bootstrap_seed=seed`` (the parity test).
Known difference: one rouge-score aggregator resamples its score types one after
another from one stream, so its second type (``rouge2`` after ``rouge1``) uses
later draws; assay seeds every metric separately.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

DEFAULT_SEED = 12345  # assay.stats' default seed (not imported: it loads NumPy, see below)
AGGREGATES = ("mean", "bootstrap")
DEFAULT_SAMPLES = 1000
DEFAULT_CONFIDENCE = 0.95
BOOTSTRAP_OPTIONS = ("bootstrap_seed", "n_samples", "confidence_interval")
BOOTSTRAP_DEFAULTS = {
    "bootstrap_seed": DEFAULT_SEED,
    "n_samples": DEFAULT_SAMPLES,
    "confidence_interval": DEFAULT_CONFIDENCE,
}

_BLOCK_ELEMENTS = 1_000_000  # indices gathered per block of resamples


def check_aggregate(value: Any) -> str:
    """Validate ``aggregate``: ``mean`` (default) or ``bootstrap``."""
    if value not in AGGREGATES:
        raise ValueError("expected 'mean' or 'bootstrap' (rouge-score's BootstrapAggregator)")
    return str(value)


def check_seed(value: Any) -> int | None:
    """Validate ``seed``: a non-negative integer below 2**32 (``RandomState``'s range)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**32:
        raise ValueError("expected an integer from 0 to 4294967295")
    return value


def check_samples(value: Any) -> int | None:
    """Validate ``n_samples``: a positive integer."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError("expected a positive integer (rouge-score's default is 1000)")
    return value


def check_interval(value: Any) -> float | None:
    """Validate ``confidence_interval``: a number in [0, 1] (rouge-score's range)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise ValueError("expected a number from 0 to 1, e.g. 0.95")
    return float(value)


def bootstrap_interval(
    values: Sequence[float], n_samples: int, confidence_interval: float, seed: int
) -> tuple[float, float, float]:
    """``(low, mid, high)`` of the bootstrapped mean of ``values``, as rouge-score.

    NumPy is imported here, not at module level: ``import assay`` and plain scoring
    stay free of it.
    """
    import numpy as np

    data = np.asarray(values, dtype=np.float64)
    n = data.size
    rng = np.random.RandomState(seed)
    means = np.empty(n_samples)
    block = max(1, _BLOCK_ELEMENTS // n)
    for start in range(0, n_samples, block):
        rows = min(block, n_samples - start)
        # (n, rows) in C order: NumPy adds the items one after another, as rouge-score's
        # np.mean over an (n, 3) matrix does; one column alone would be summed pairwise.
        columns = np.ascontiguousarray(data[rng.randint(0, n, size=(rows, n))].T)
        if rows == 1:
            columns = np.repeat(columns, 2, axis=1)
        means[start : start + rows] = columns.sum(axis=0)[:rows] / n
    delta = (1 - confidence_interval) / 2
    q = 100 * np.array([delta, 0.5, 1 - delta])
    low, mid, high = (float(x) for x in np.percentile(means, q))
    return low, mid, high


def bootstrap_details(values: Sequence[float], params: Any) -> dict[str, float]:
    """The ``low``/``mid``/``high`` figures and the plain ``mean`` of a corpus's item values."""
    low, mid, high = bootstrap_interval(
        values, params["n_samples"], params["confidence_interval"], params["bootstrap_seed"]
    )
    return {"low": low, "mid": mid, "high": high, "mean": sum(values) / len(values)}

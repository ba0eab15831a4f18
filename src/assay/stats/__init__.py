"""Statistics over numbers and per-item sufficient statistics (layer 1).

Pure functions: they see only numbers, never text, and import only the standard
library, NumPy and :mod:`assay.errors`. Random procedures take an explicit seed
(default :data:`DEFAULT_SEED`) and record it with the resample count.

* :mod:`assay.stats.intervals` — mean with SE and t interval, clustered SE, Wilson.
* :mod:`assay.stats.bootstrap` — seeded bootstrap of corpus/ratio statistics.
* :mod:`assay.stats.poisson_bootstrap` — the mergeable Poisson bootstrap (sums per
  partition, identical however the items are partitioned).
* :mod:`assay.stats.paired` — paired tests: paired difference, minimum detectable
  difference, paired bootstrap, approximate randomisation.
* :mod:`assay.stats.exact` — exact paired tests for 0/1 scores (McNemar, the
  exact sign-flip test).
* :mod:`assay.stats.allpairs` — every pair's paired test from one shared
  resampling stream (one swap matrix times the matrix of per-item differences).
* :mod:`assay.stats.guard` — the power guard (trials that can reach alpha after Holm).
* :mod:`assay.stats.correction` — multiple-comparison correction (Holm).
* :mod:`assay.stats.ties` — tie groups of ranked systems.
* :mod:`assay.stats.comparison` — :func:`compare_systems` (all pairs,
  Holm-adjusted, tie groups).

Every result is a frozen dataclass with ``to_dict()``. Missing numbers are
``None`` with a ``status`` of ``"empty"`` (no items) or ``"not_available"``
(too few items), never 0.0.
"""

from assay.stats._common import DEFAULT_SEED
from assay.stats.bootstrap import (
    BootstrapEstimate,
    Reducer,
    bootstrap,
    ratio_reducer,
)
from assay.stats.comparison import PairComparison, SystemComparison, compare_systems
from assay.stats.correction import HolmResult, holm
from assay.stats.exact import McNemarResult, exact_sign_flip, mcnemar_exact
from assay.stats.guard import minimum_trials
from assay.stats.intervals import (
    MeanEstimate,
    RateEstimate,
    clustered_mean_interval,
    mean_interval,
    wilson_interval,
)
from assay.stats.paired import (
    PairedDifference,
    PairedTestResult,
    minimum_detectable_difference,
    paired_approximate_randomization,
    paired_bootstrap,
    paired_difference,
)
from assay.stats.ties import TieGroups, tie_groups

__all__ = [
    "DEFAULT_SEED",
    "BootstrapEstimate",
    "HolmResult",
    "McNemarResult",
    "MeanEstimate",
    "PairComparison",
    "PairedDifference",
    "PairedTestResult",
    "RateEstimate",
    "Reducer",
    "SystemComparison",
    "TieGroups",
    "bootstrap",
    "clustered_mean_interval",
    "compare_systems",
    "exact_sign_flip",
    "holm",
    "mcnemar_exact",
    "mean_interval",
    "minimum_detectable_difference",
    "minimum_trials",
    "paired_approximate_randomization",
    "paired_bootstrap",
    "paired_difference",
    "ratio_reducer",
    "tie_groups",
    "wilson_interval",
]

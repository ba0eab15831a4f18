"""assay.stats.bootstrap: seeded, recorded, recomputes statistics from per-item sums."""

from __future__ import annotations

import json

import numpy as np
import pytest

from assay.errors import InvalidInputError, InvalidOptionError
from assay.stats import DEFAULT_SEED, bootstrap, ratio_reducer

VALUES = [0.0, 1.0, 0.5, 1.0, 0.25, 0.0, 1.0, 0.75, 1.0, 0.5]


def test_mean_bootstrap_matches_an_independent_resampling() -> None:
    # Independent restatement: draw B x n indices from default_rng(seed), average rows.
    x = np.array(VALUES)
    idx = np.random.default_rng(3).integers(0, x.size, size=(400, x.size))
    means = x[idx].mean(axis=1)
    est = bootstrap(VALUES, n_resamples=400, seed=3)
    assert est.estimate == pytest.approx(x.mean(), rel=1e-12)
    assert est.mean == pytest.approx(means.mean(), rel=1e-12)
    assert est.se == pytest.approx(means.std(ddof=1), rel=1e-12)
    assert est.lower == pytest.approx(np.quantile(means, 0.025), rel=1e-12)
    assert est.upper == pytest.approx(np.quantile(means, 0.975), rel=1e-12)
    assert est.method == "percentile" and est.status == "ok" and est.n_undefined == 0


def test_ratio_statistic_is_recomputed_from_sums_not_averaged() -> None:
    # Micro-averaged rate: items with (correct, total) = (1, 1), (0, 3), (2, 2).
    # Ratio of sums = 3 / 6 = 0.5; the mean of per-item ratios would be (1 + 0 + 1) / 3.
    stats = [[1, 1], [0, 3], [2, 2]]
    est = bootstrap(stats, ratio_reducer(0, 1), n_resamples=200, seed=1)
    assert est.estimate == 0.5
    assert 0.0 <= est.lower <= est.upper <= 1.0


def test_undefined_resamples_are_counted_not_hidden() -> None:
    # Only item 0 has a non-zero denominator; resamples that miss it have 0/0.
    stats = [[1, 2], [0, 0], [0, 0], [0, 0]]
    est = bootstrap(stats, ratio_reducer(0, 1), n_resamples=500, seed=0)
    # P(miss item 0) = (3/4)^4 = 0.316; about 158 of 500 resamples.
    assert 100 < est.n_undefined < 220
    assert est.estimate == 0.5 and est.status == "ok"


def test_same_seed_same_output_different_seed_differs() -> None:
    first = json.dumps(bootstrap(VALUES, seed=11).to_dict(), sort_keys=True)
    second = json.dumps(bootstrap(VALUES, seed=11).to_dict(), sort_keys=True)
    other = json.dumps(bootstrap(VALUES, seed=12).to_dict(), sort_keys=True)
    assert first == second
    assert first != other


def test_seed_and_resamples_are_recorded() -> None:
    record = bootstrap(VALUES, n_resamples=50).to_dict()
    assert record["seed"] == DEFAULT_SEED == 12345
    assert record["n_resamples"] == 50
    assert list(record) == sorted(record)


def test_blocking_does_not_change_the_resamples() -> None:
    # Many items force several blocks of resamples; the stream equals one big draw.
    x = np.linspace(0.0, 1.0, 5003)
    idx = np.random.default_rng(5).choice(x.size, size=(600, x.size), replace=True)
    means = x[idx].sum(axis=1) / x.size
    est = bootstrap(x, n_resamples=600, seed=5)
    assert est.se == pytest.approx(means.std(ddof=1), rel=1e-9)


def test_honest_defaults() -> None:
    empty = bootstrap([], seed=1)
    assert empty.status == "empty" and empty.estimate is None and empty.se is None
    one = bootstrap([0.4], seed=1)
    assert one.status == "not_available" and one.estimate == 0.4
    assert one.se is None and one.lower is None
    never = bootstrap([[0, 0], [0, 0]], ratio_reducer(0, 1), seed=1)
    assert never.status == "not_available" and never.estimate is None


def test_bad_options_and_inputs() -> None:
    with pytest.raises(InvalidOptionError, match="seed"):
        bootstrap(VALUES, seed=None)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="seed"):
        bootstrap(VALUES, seed=-1)
    with pytest.raises(InvalidOptionError, match="n_resamples"):
        bootstrap(VALUES, n_resamples=1)
    with pytest.raises(InvalidOptionError, match="need a reducer"):
        bootstrap([[1, 2], [3, 4]])
    with pytest.raises(InvalidOptionError, match="one score per row"):
        bootstrap([[1, 2], [3, 4]], reducer=lambda sums: sums)
    with pytest.raises(InvalidInputError, match="NaN"):
        bootstrap([1.0, float("inf")])
    with pytest.raises(InvalidOptionError, match="column index"):
        ratio_reducer(-1, 0)

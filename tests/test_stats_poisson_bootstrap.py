"""The mergeable Poisson bootstrap: weights, exact merging, the interval and its coverage.

References from outside the code under test: SplitMix64 and the Poisson(1) CDF
written again here in plain Python integers and ``math``; the interval computed
directly with NumPy from the whole weight matrix; the ordinary bootstrap of
:mod:`assay.stats.bootstrap`; and the coverage of known Bernoulli data.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from assay.errors import InvalidInputError
from assay.stats.bootstrap import bootstrap
from assay.stats.poisson_bootstrap import PoissonSums, poisson_interval, poisson_weights

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def mix(z: int) -> int:
    """SplitMix64's finaliser (Steele, Lea & Flood 2014), in Python integers."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def reference_weight(seed: int, key: int, resample: int) -> int:
    """Output ``resample`` of the item's SplitMix64 stream, through the Poisson(1) CDF."""
    state = mix((seed * 0xD1B54A32D192ED03 + key * GAMMA) & MASK)
    bits = mix((state + (resample + 1) * GAMMA) & MASK)
    weight, cdf = 0, math.exp(-1.0)
    while bits >= round(cdf * 2.0**64):
        weight += 1
        cdf += math.exp(-1.0) / math.factorial(weight)
    return weight


def test_weights_are_the_written_definition() -> None:
    """Each weight depends on (seed, key, resample) only, as the reference computes it."""
    keys = [1, 2, 3, 17, 10_000, 2**40 + 5]
    weights = poisson_weights(keys, 42, 30)
    expected = [[reference_weight(42, k, b) for b in range(30)] for k in keys]
    assert weights.tolist() == expected
    assert poisson_weights([17], 42, 30).tolist() == [expected[3]]  # alone or in a batch
    assert poisson_weights([17], 43, 30).tolist() != [expected[3]]


def test_weights_are_poisson_one() -> None:
    """200,000 weights: the Poisson(1) frequencies, mean 1, variance 1, uncorrelated."""
    weights = poisson_weights(np.arange(1, 2_001), 7, 100)
    n = weights.size
    for k in range(5):
        p = math.exp(-1.0) / math.factorial(k)
        observed = float((weights == k).mean())
        assert abs(observed - p) < 5 * math.sqrt(p * (1 - p) / n), k
    assert abs(weights.mean() - 1) < 0.01 and abs(weights.var() - 1) < 0.02
    assert abs(np.corrcoef(weights[:, 0], weights[:, 1])[0, 1]) < 0.1
    assert abs(np.corrcoef(weights[0], weights[1])[0, 1]) < 0.35


def test_merging_partitions_in_any_order_gives_identical_sums() -> None:
    """Partitions of any sizes, merged in any order: the very same sums and scores."""
    rng = random.Random(3)
    values = [rng.random() * rng.choice([1, 100, 1e-9]) for _ in range(700)]
    keys = list(range(1, 701))
    whole = PoissonSums(5, 300)
    whole.add_values(keys, values)
    cuts = sorted(rng.sample(range(1, 700), 9))
    parts = []
    for lo, hi in zip([0, *cuts], [*cuts, 700], strict=True):
        part = PoissonSums(5, 300)
        part.add_values(keys[lo:hi], values[lo:hi])
        parts.append(part)
    rng.shuffle(parts)
    merged = PoissonSums(5, 300)
    for part in parts:
        merged.merge(part)
    assert merged.n == whole.n == 700
    assert merged.sums == whole.sums and merged.weights == whole.weights
    assert merged.mean_scores().tobytes() == whole.mean_scores().tobytes()


def test_interval_matches_a_direct_numpy_bootstrap_with_the_same_weights() -> None:
    """The interval equals NumPy's computation over the whole weight matrix."""
    rng = np.random.default_rng(11)
    values = rng.beta(2, 5, size=900)
    keys = np.arange(1, 901)
    sums = PoissonSums(9, 500)
    for lo in range(0, 900, 250):
        part = PoissonSums(9, 500)
        part.add_values(keys[lo : lo + 250].tolist(), values[lo : lo + 250].tolist())
        sums.merge(part)
    estimate = poisson_interval(sums, float(values.mean()), sums.mean_scores(), 0.9)
    weights = np.array([[reference_weight(9, int(k), b) for b in range(500)] for k in keys[:3]])
    assert (poisson_weights(keys[:3], 9, 500) == weights).all()
    matrix = poisson_weights(keys, 9, 500).astype(float)
    direct = (matrix * values[:, None]).sum(axis=0) / matrix.sum(axis=0)
    low, high = np.quantile(direct, [0.05, 0.95])
    assert estimate.method == "poisson" and estimate.seed == 9 and estimate.n_resamples == 500
    assert estimate.lower == pytest.approx(low, abs=1e-12)
    assert estimate.upper == pytest.approx(high, abs=1e-12)
    assert estimate.se == pytest.approx(direct.std(ddof=1), abs=1e-12)


def test_statistics_sums_are_exact_integers() -> None:
    """Per-item counts: each resample's sums are the weight matrix times the counts."""
    counts = np.random.default_rng(2).integers(0, 50, size=(300, 3))
    sums = PoissonSums(1, 200)
    sums.add_statistics(list(range(1, 301)), counts)
    weights = poisson_weights(np.arange(1, 301), 1, 200)
    expected = weights.T @ counts
    assert [list(column) for column in sums.sums] == expected.T.tolist()
    ratio = sums.reduced_scores(lambda t: t[0] / t[1])
    assert ratio.tolist() == (expected[:, 0] / expected[:, 1]).tolist()
    with pytest.raises(InvalidInputError):
        sums.add_statistics([301], [[0.5, 1, 2]])


def test_close_to_the_ordinary_bootstrap() -> None:
    """On 2,000 Bernoulli(0.3) items both bootstraps give nearly the same interval."""
    values = (np.random.default_rng(5).random(2_000) < 0.3).astype(float)
    sums = PoissonSums(3, 2_000)
    sums.add_values(list(range(1, 2_001)), values.tolist())
    poisson = poisson_interval(sums, float(values.mean()), sums.mean_scores())
    ordinary = bootstrap(values, n_resamples=2_000, seed=3)
    assert ordinary.lower is not None and ordinary.upper is not None
    assert poisson.lower == pytest.approx(ordinary.lower, abs=0.006)
    assert poisson.upper == pytest.approx(ordinary.upper, abs=0.006)


def test_coverage_on_known_data() -> None:
    """95% intervals for Bernoulli(0.3) means, 200 samples of 150: about 95% cover 0.3."""
    rng = np.random.default_rng(8)
    covered = 0
    for trial in range(200):
        values = (rng.random(150) < 0.3).astype(float)
        sums = PoissonSums(trial, 400)
        sums.add_values(list(range(1, 151)), values.tolist())
        estimate = poisson_interval(sums, float(values.mean()), sums.mean_scores())
        assert estimate.lower is not None and estimate.upper is not None
        covered += estimate.lower <= 0.3 <= estimate.upper
    assert 0.89 <= covered / 200 <= 0.99


def test_empty_one_item_and_bad_values() -> None:
    """No items: empty; one item: not available; a NaN value: an error, not a number."""
    empty = PoissonSums(0, 10)
    assert poisson_interval(empty, None, empty.mean_scores() if empty.sums else np.array([]))\
        .status == "empty"  # fmt: skip
    one = PoissonSums(0, 10)
    one.add_values([1], [0.5])
    assert poisson_interval(one, 0.5, one.mean_scores()).status == "not_available"
    with pytest.raises(InvalidInputError):
        one.add_values([2], [math.nan])
    with pytest.raises(ValueError):
        one.merge(PoissonSums(1, 10))

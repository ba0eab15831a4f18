"""The all-pairs statistics engine, the exact sign-flip test and the power guard.

References are independent of the code under test: the per-pair loop the engine
replaces, a one-call re-derivation of approximate randomisation written out here,
binomial sums and brute-force enumeration of every sign pattern (no scipy).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from assay.errors import InvalidInputError, InvalidOptionError
from assay.stats import (
    allpairs,
    compare_systems,
    exact_sign_flip,
    mcnemar_exact,
    minimum_trials,
    paired_approximate_randomization,
    paired_bootstrap,
    ratio_reducer,
)
from assay.stats.bootstrap import prepare


def _binary_systems(n: int, k: int, seed: int = 1) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {f"s{i:02d}": (rng.random(n) < 0.3 + 0.04 * i).astype(float) for i in range(k)}


def _graded_systems(n: int, k: int, seed: int = 2) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {f"g{i}": rng.random(n) * (0.5 + 0.03 * i) for i in range(k)}


def _reference_ar_count(a: np.ndarray, b: np.ndarray, trials: int, seed: int, ge: bool) -> int:
    """Approximate randomisation re-derived: one call for the whole swap mask, and the
    statistic as a sign flip of the per-item differences, |sum_i s_i d_i| / n."""
    keep = np.random.default_rng(seed).integers(2, size=(trials, a.size), dtype=bool)
    signs = np.where(keep, 1.0, -1.0)
    d = a - b
    stats = np.abs(signs @ d) / a.size
    observed = abs(d.sum()) / a.size
    if ge:
        return int(np.sum(stats >= observed - 1e-9 * max(1.0, observed)))
    return int(np.sum(stats > observed))


@pytest.mark.parametrize("ties_count", [True, False])
def test_all_pairs_ar_equals_per_pair_loop_on_binary_scores(ties_count: bool) -> None:
    systems = _binary_systems(400, 6)
    together = compare_systems(systems, n_resamples=3000, seed=9, ties_count=ties_count)
    assert len(together.pairs) == 15
    for pair in together.pairs:
        alone = paired_approximate_randomization(
            systems[pair.a], systems[pair.b], n_trials=3000, seed=9, ties_count=ties_count
        )
        assert pair.test.to_dict() == alone.to_dict()


def test_all_pairs_ar_counts_match_the_one_call_sign_flip_derivation() -> None:
    systems = _binary_systems(300, 4, seed=5)
    together = compare_systems(systems, n_resamples=2000, seed=12345, ties_count=True)
    for pair in together.pairs:
        expected = _reference_ar_count(systems[pair.a], systems[pair.b], 2000, 12345, True)
        assert pair.test.count == expected
        assert pair.test.p_value == (expected + 1) / 2001


def test_all_pairs_ar_graded_and_corpus_statistics_equal_per_pair_loop() -> None:
    graded = _graded_systems(250, 5)
    together = compare_systems(graded, n_resamples=1500, seed=3)
    for pair in together.pairs:
        alone = paired_approximate_randomization(
            graded[pair.a], graded[pair.b], n_trials=1500, seed=3
        )
        assert pair.test.to_dict() == alone.to_dict()
        count = _reference_ar_count(graded[pair.a], graded[pair.b], 1500, 3, False)
        assert pair.test.count == count
    rng = np.random.default_rng(4)
    counts = {f"c{i}": np.c_[rng.integers(0, 5, 200), rng.integers(1, 6, 200)] for i in range(4)}
    reducer = ratio_reducer(0, 1)
    together = compare_systems(counts, reducer, n_resamples=700, seed=8)
    for pair in together.pairs:
        alone = paired_approximate_randomization(
            counts[pair.a], counts[pair.b], reducer, n_trials=700, seed=8
        )
        assert pair.test.to_dict() == alone.to_dict()


def test_all_pairs_bootstrap_equals_per_pair_loop() -> None:
    graded = _graded_systems(150, 5, seed=6)
    together = compare_systems(graded, method="paired_bootstrap", n_resamples=400, seed=2)
    for pair in together.pairs:
        alone = paired_bootstrap(graded[pair.a], graded[pair.b], n_resamples=400, seed=2)
        assert pair.test.to_dict() == alone.to_dict()


def test_trial_blocks_do_not_change_the_stream() -> None:
    # 5000 items: the swap matrix is drawn in several blocks (1,000,000 elements each).
    systems = _binary_systems(5000, 3, seed=7)
    together = compare_systems(systems, n_resamples=700, seed=1, ties_count=True)
    for pair in together.pairs:
        expected = _reference_ar_count(systems[pair.a], systems[pair.b], 700, 1, True)
        assert pair.test.count == expected


def _brute_force_sign_flip(a: list[int], b: list[int]) -> Fraction:
    """P(|sum s_i d_i| >= |sum d_i|) over all 2^n equally likely sign patterns."""
    d = [x - y for x, y in zip(a, b, strict=True)]
    observed = abs(sum(d))
    hits = sum(
        abs(sum(s * x for s, x in zip(signs, d, strict=True))) >= observed
        for signs in itertools.product((1, -1), repeat=len(d))
    )
    return Fraction(hits, 2 ** len(d))


def test_exact_sign_flip_by_hand() -> None:
    # 3 items only a gets right, none only b: D = 3, |2K - 3| >= 3 iff K in {0, 3}: 2/8.
    res = exact_sign_flip([1, 1, 1, 0, 1], [0, 0, 0, 0, 1])
    assert res.p_value == 0.25 and res.method == "exact_sign_flip"
    assert (res.score_a, res.score_b, res.n_resamples, res.count) == (0.8, 0.2, 0, None)
    assert res.count_rule == "greater_or_equal"
    # a_only 5, b_only 1: D = 6, obs 4: K <= 1 or K >= 5: 2 * (1 + 6) / 64 = 0.21875.
    a = [1, 1, 1, 1, 1, 0, 1, 0]
    b = [0, 0, 0, 0, 0, 1, 1, 0]
    assert exact_sign_flip(a, b).p_value == 0.21875
    # Equal discordant counts: the observed difference is 0, every pattern ties: p = 1.
    assert exact_sign_flip([1, 0, 1], [0, 1, 1]).p_value == 1.0
    # No discordant items at all: p = 1.
    assert exact_sign_flip([1, 0], [1, 0]).p_value == 1.0


def test_exact_sign_flip_equals_enumeration_and_mcnemar() -> None:
    rng = np.random.default_rng(11)
    for _ in range(25):
        n = int(rng.integers(1, 12))
        a = rng.integers(0, 2, n).tolist()
        b = rng.integers(0, 2, n).tolist()
        expected = float(_brute_force_sign_flip(a, b))
        assert exact_sign_flip(a, b).p_value == expected
        assert mcnemar_exact(a, b).p_value == expected


def test_exact_sign_flip_closed_form_on_many_discordant_items() -> None:
    # 60 items only a, 40 only b, 900 concordant: p = 2 * sum_{k<=40} C(100, k) / 2^100.
    a = [1] * 60 + [0] * 40 + [1] * 450 + [0] * 450
    b = [0] * 60 + [1] * 40 + [1] * 450 + [0] * 450
    tail = sum(math.comb(100, k) for k in range(41))
    assert exact_sign_flip(a, b).p_value == float(Fraction(2 * tail, 2**100))


def test_exact_sign_flip_is_what_approximate_randomization_estimates() -> None:
    systems = _binary_systems(200, 2, seed=3)
    a, b = systems["s00"], systems["s01"]
    exact = exact_sign_flip(a, b).p_value
    trials = 40_000
    sampled = paired_approximate_randomization(a, b, n_trials=trials, ties_count=True)
    assert exact is not None and sampled.p_value is not None
    assert abs(sampled.p_value - exact) < 4 * math.sqrt(exact * (1 - exact) / trials)


def test_exact_sign_flip_in_compare_systems() -> None:
    systems = _binary_systems(500, 5, seed=12)
    res = compare_systems(systems, method="exact_sign_flip")
    assert (res.method, res.n_resamples, res.power_guard, res.min_trials) == (
        "exact_sign_flip", 0, "exact", 0,
    )  # fmt: skip
    for pair in res.pairs:
        assert pair.test.p_value == mcnemar_exact(systems[pair.a], systems[pair.b]).p_value
    with pytest.raises(InvalidInputError, match="0/1 scores"):
        compare_systems({"a": [0.5, 1.0], "b": [0.0, 1.0]}, method="exact_sign_flip")
    with pytest.raises(InvalidInputError, match="exact_sign_flip"):
        compare_systems(
            {"a": [[1, 2], [0, 1]], "b": [[0, 1], [1, 1]]},
            ratio_reducer(0, 1),
            method="exact_sign_flip",
        )


def test_minimum_trials_by_hand() -> None:
    # m / (T + 1) <= alpha: 78 pairs -> 78 / 1560 = 0.05; 3 pairs -> 3 / 60; 1 pair -> 1 / 20.
    assert minimum_trials(78, 0.05) == 1559
    assert minimum_trials(3, 0.05) == 59
    assert minimum_trials(1, 0.05) == 19
    assert minimum_trials(45, 0.01) == 4499
    for m, alpha in ((78, 0.05), (10, 0.01), (300, 0.05), (7, 0.1)):
        t = minimum_trials(m, alpha)
        assert m * (1 / (t + 1)) <= alpha < m * (1 / t)


def test_power_guard_refuses_explicit_trials_with_one_line() -> None:
    systems = _binary_systems(100, 13)
    with pytest.raises(InvalidOptionError) as caught:
        compare_systems(systems, n_resamples=1000)
    message = str(caught.value)
    assert message == (
        "1000 trials cannot reach alpha 0.05 after the Holm correction over 78 pairs "
        "(smallest adjusted p = 78/1001 = 0.0779); use at least 1559 trials (--trials 1559)."
    )
    assert "\n" not in message


def test_power_guard_raises_default_resamples_and_records_it() -> None:
    # 0.883 vs 0.427 on 5,000 items: with 1,000 resamples and 78 pairs no pair could be
    # significant (78/1001 > 0.05), so the default is raised to 1,559 and recorded.
    rng = np.random.default_rng(0)
    n = 5000
    systems = {f"s{i:02d}": (rng.random(n) < 0.427 + i * 0.038).astype(float) for i in range(13)}
    res = compare_systems(systems, method="paired_bootstrap", ties_count=True)
    assert (res.n_resamples, res.n_resamples_requested, res.min_trials) == (1559, 1000, 1559)
    assert res.power_guard == "raised"
    record = res.to_dict()
    assert (record["power_guard"], record["n_resamples"]) == ("raised", 1559)
    assert res.ties.group_of(res.systems[0]) != res.ties.group_of(res.systems[-1])
    assert all(p.test.n_resamples == 1559 for p in res.pairs)
    assert all(p.could_separate for p in res.pairs)
    # Enough trials as given: nothing changes.
    res = compare_systems(systems, n_resamples=2000)
    assert (res.n_resamples, res.power_guard) == (2000, "met")


def test_could_separate_for_exact_tests_on_few_discordant_items() -> None:
    # 3 systems, 3 pairs: a pair with D discordant items can reach at best
    # 3 * 2^(1 - D); D = 5 gives 3/16 > 0.05 (cannot), D = 8 gives 3/128 (can).
    base = [0] * 40
    near = [1] * 5 + [0] * 35
    far = [1] * 13 + [0] * 27
    res = compare_systems({"base": base, "near": near, "far": far}, method="exact_sign_flip")
    by_pair = {(p.a, p.b): p.could_separate for p in res.pairs}
    assert by_pair[("near", "base")] is False
    assert by_pair[("far", "near")] is True


@pytest.mark.parametrize("values", ["binary", "integer"])
@pytest.mark.parametrize("elements", [640, 1_000_000])
def test_mean_columns_are_the_per_pair_loop_bit_for_bit(
    values: str, elements: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 640 elements: blocks of 64 trials and chunks of 10 pair columns (28 pairs: 3 chunks)
    monkeypatch.setattr(allpairs, "_SWAP_ELEMENTS", elements)
    rng = np.random.default_rng(11)
    if values == "binary":
        arrays = [(rng.random((50, 1)) < 0.2 + 0.08 * k).astype(float) for k in range(8)]
    else:  # small integers: the float32 product path, also per system
        arrays = [rng.integers(0, 4, (50, 1)).astype(float) for _ in range(8)]
    pairs = [(i, j) for i in range(8) for j in range(i + 1, 8)] + [(5, 2), (7, 0)]
    _, reduce = prepare(arrays[0], None)
    loop = allpairs.shuffled_differences_all(arrays, pairs, reduce, 300, 4)
    columns = allpairs.shuffled_differences_all(arrays, pairs, reduce, 300, 4, mean=True)
    assert loop.tobytes() == columns.tobytes()
    # and each column is the per-pair test's statistic: |mean_a - mean_b| of the swaps
    keep = np.random.default_rng(4).integers(2, size=(300, 50), dtype=bool)
    for column, (i, j) in enumerate(pairs):
        a, b = arrays[i][:, 0], arrays[j][:, 0]
        pseudo_a = np.where(keep, a, b).sum(axis=1) / 50
        pseudo_b = np.where(keep, b, a).sum(axis=1) / 50
        assert np.allclose(columns[:, column], np.abs(pseudo_a - pseudo_b), atol=1e-12)

"""assay.stats.paired against hand computations written out here."""

from __future__ import annotations

import json
import math

import pytest

from assay.errors import InvalidInputError, InvalidOptionError
from assay.stats import (
    compare_systems,
    holm,
    mcnemar_exact,
    minimum_detectable_difference,
    paired_approximate_randomization,
    paired_bootstrap,
    paired_difference,
    tie_groups,
)

Z975, Z80 = 1.959963984540054, 0.8416212335729143  # normal quantiles


def test_paired_difference_by_hand() -> None:
    a, b = [1, 0, 1, 1], [0, 0, 1, 0]
    # d = [1, 0, 0, 1]: mean 0.5, s^2 = 4 * 0.25 / 3 = 1/3, SE = sqrt(1/3) / 2.
    # Correlation: da = [.25, -.75, .25, .25], db = [-.25, -.25, .75, -.25];
    # sum da*db = 0.25, sum da^2 = sum db^2 = 0.75, r = 0.25 / 0.75 = 1/3.
    res = paired_difference(a, b)
    se = math.sqrt(1 / 3) / 2
    assert (res.mean_a, res.mean_b, res.difference) == (0.75, 0.25, 0.5)
    assert res.se == pytest.approx(se, rel=1e-12)
    assert res.df == 3
    assert res.lower == pytest.approx(0.5 - 3.182446305 * se, abs=1e-8)
    assert res.correlation == pytest.approx(1 / 3, rel=1e-12)
    assert res.mdd == pytest.approx((Z975 + Z80) * se, rel=1e-12)
    assert res.status == "ok"


def test_paired_difference_honest_defaults() -> None:
    assert paired_difference([], []).status == "empty"
    one = paired_difference([1.0], [0.0])
    assert one.status == "not_available" and one.difference == 1.0
    assert one.se is None and one.mdd is None and one.correlation is None
    constant = paired_difference([1, 1, 1], [0, 1, 0])
    assert constant.correlation is None  # undefined, not 0
    with pytest.raises(InvalidInputError, match="same items"):
        paired_difference([1, 2], [1])


def test_minimum_detectable_difference() -> None:
    # (z_{0.975} + z_{0.80}) * 0.1 = (1.959963985 + 0.841621234) * 0.1 = 0.2801585218
    assert minimum_detectable_difference(0.1) == pytest.approx(0.2801585218, rel=1e-9)
    assert minimum_detectable_difference(None) is None
    with pytest.raises(InvalidOptionError, match="power"):
        minimum_detectable_difference(0.1, power=1.2)


def test_mcnemar_exact_by_binomial_sum() -> None:
    # 3 both right, 2 only a, 7 only b, 4 neither. Discordant m = 9, min = 2.
    # p = 2 * (C(9,0) + C(9,1) + C(9,2)) / 2^9 = 2 * (1 + 9 + 36) / 512 = 92 / 512.
    a = [1] * 3 + [1] * 2 + [0] * 7 + [0] * 4
    b = [1] * 3 + [0] * 2 + [1] * 7 + [0] * 4
    res = mcnemar_exact(a, b)
    assert (res.both, res.a_only, res.b_only, res.neither, res.n) == (3, 2, 7, 4, 16)
    assert res.p_value == 92 / 512
    assert mcnemar_exact(b, a).p_value == 92 / 512


def test_mcnemar_edges() -> None:
    # Equal discordant counts: 2 * sum_{i<=3} C(6, i) / 64 = 2 * 42 / 64 > 1 -> 1.
    assert mcnemar_exact([1, 1, 1, 0, 0, 0], [0, 0, 0, 1, 1, 1]).p_value == 1.0
    assert mcnemar_exact([1, 0], [1, 0]).p_value == 1.0  # no discordant items
    # All 10 discordant one way: 2 / 2^10.
    assert mcnemar_exact([1] * 10, [0] * 10).p_value == 2 / 1024
    assert mcnemar_exact([], []).status == "empty"
    with pytest.raises(InvalidInputError, match="0/1 scores"):
        mcnemar_exact([1, 0.5], [1, 0])


def test_holm_by_hand() -> None:
    # sorted: 0.005 (#3), 0.01 (#0), 0.03 (#2), 0.04 (#1); m = 4.
    # 4 * 0.005 = 0.02; 3 * 0.01 = 0.03; 2 * 0.03 = 0.06; 1 * 0.04 = 0.04 -> running max 0.06.
    res = holm([0.01, 0.04, 0.03, 0.005])
    assert res.adjusted == pytest.approx((0.03, 0.06, 0.06, 0.02), rel=1e-12)
    assert res.reject == (True, False, False, True)
    assert holm([0.5, 0.9]).adjusted == (1.0, 1.0)  # capped at 1
    assert holm([]).adjusted == ()
    with pytest.raises(InvalidInputError, match=r"\[0, 1\]"):
        holm([0.2, 1.5])


def test_tie_groups() -> None:
    p = {("A", "B"): 0.2, ("C", "B"): 0.01, ("C", "D"): 0.5, ("A", "D"): 0.0001}
    res = tie_groups(["A", "B", "C", "D"], p)
    assert res.groups == (1, 1, 2, 2)
    assert res.members == (("A", "B"), ("C", "D"))
    assert res.p_next_better == (None, 0.2, 0.01, 0.5)
    assert res.group_of("C") == 2
    assert tie_groups(["A", "B", "C"], {("A", "B"): 0.001, ("B", "C"): 0.001}).groups == (1, 2, 3)
    assert tie_groups(["solo"], {}).groups == (1,)
    with pytest.raises(InvalidInputError, match="no p-value"):
        tie_groups(["A", "B", "C"], {("A", "B"): 0.5})
    with pytest.raises(InvalidInputError, match="unique"):
        tie_groups(["A", "A"], {("A", "A"): 0.5})


def test_paired_tests_on_identical_systems() -> None:
    scores = [0.1, 0.5, 0.9, 0.3, 0.7]
    ar = paired_approximate_randomization(scores, scores, n_trials=99, seed=1)
    # Every shuffle gives |A - B| = 0, equal to the observed 0: by default ties count, so
    # count = 99 and p = (99 + 1) / (99 + 1) = 1, no evidence of a difference.
    assert ar.count == 99 and ar.p_value == 1.0 and ar.count_rule == "greater_or_equal"
    # sacrebleu's strict > never counts them: count = 0 and p = (0 + 1) / (99 + 1).
    strict = paired_approximate_randomization(scores, scores, n_trials=99, seed=1,
                                              count_rule="sacrebleu")  # fmt: skip
    assert strict.count == 0 and strict.p_value == 1 / 100
    bs = paired_bootstrap(scores, scores, n_resamples=99, seed=1, count_rule="greater")
    assert bs.count == 0 and bs.difference == 0.0


def test_paired_tests_record_seed_and_are_reproducible() -> None:
    a = [0.9, 0.8, 0.7, 1.0, 0.6, 0.95, 0.85, 0.75]
    b = [0.5, 0.6, 0.7, 0.4, 0.65, 0.55, 0.5, 0.6]
    for run in (paired_bootstrap, paired_approximate_randomization):
        first = run(a, b, seed=3)
        again = run(a, b, seed=3)
        assert json.dumps(first.to_dict(), sort_keys=True) == json.dumps(
            again.to_dict(), sort_keys=True
        )
        record = first.to_dict()
        assert record["seed"] == 3 and record["n_resamples"] >= 1000
        assert first.p_value is not None and first.p_value < 0.05
        assert first.difference == pytest.approx(sum(a) / 8 - sum(b) / 8)


def test_paired_tests_honest_defaults_and_errors() -> None:
    assert paired_bootstrap([], []).status == "empty"
    one = paired_approximate_randomization([1.0], [0.0])
    assert one.status == "not_available" and one.p_value is None and one.difference == 1.0
    with pytest.raises(InvalidInputError, match="same items"):
        paired_bootstrap([1, 2, 3], [1, 2])
    with pytest.raises(InvalidInputError, match="same metric"):
        paired_bootstrap([[1, 2], [3, 4]], [[1], [2]], reducer=lambda s: s[:, 0])
    with pytest.raises(InvalidOptionError, match="n_trials"):
        paired_approximate_randomization([1, 2], [2, 1], n_trials=0)


def _three_systems() -> dict[str, list[float]]:
    base = [0.2, 0.4, 0.6, 0.8, 0.3, 0.5, 0.7, 0.9, 0.1, 0.6] * 3
    strong = [min(1.0, x + 0.3) for x in base]
    near = [x + (0.01 if i % 2 else -0.01) for i, x in enumerate(base)]
    return {"base": base, "near": near, "strong": strong}


def test_compare_systems_ranks_tests_all_pairs_and_groups_ties() -> None:
    systems = _three_systems()
    res = compare_systems(systems, n_resamples=500, seed=4)
    assert res.systems == (
        "strong",
        "base",
        "near",
    )  # base and near tie on the mean; name breaks it
    assert res.scores[0] == pytest.approx(sum(systems["strong"]) / 30)
    assert [(p.a, p.b) for p in res.pairs] == [
        ("strong", "base"),
        ("strong", "near"),
        ("base", "near"),
    ]
    # Each pair's p-value is the standalone test's, with the same seed.
    alone = paired_approximate_randomization(
        systems["strong"], systems["near"], n_trials=500, seed=4
    )
    assert res.pairs[1].test.p_value == alone.p_value
    # Holm over the three raw p-values, by hand: sort, multiply by 3, 2, 1, running max.
    raw = [p.test.p_value for p in res.pairs]
    order = sorted(range(3), key=lambda i: raw[i])
    expected, running = [0.0] * 3, 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (3 - rank) * raw[i]))
        expected[i] = running
    assert [p.p_holm for p in res.pairs] == pytest.approx(expected)
    assert res.ties.groups == (1, 2, 2)
    assert res.pairs[0].difference is not None and res.pairs[0].difference.difference > 0
    record = res.to_dict()
    assert record["seed"] == 4 and record["n_resamples"] == 500
    assert json.dumps(record, sort_keys=True) == json.dumps(
        compare_systems(systems, n_resamples=500, seed=4).to_dict(), sort_keys=True
    )


def test_compare_systems_lower_is_better_bootstrap_and_errors() -> None:
    systems = _three_systems()
    res = compare_systems(
        systems, method="paired_bootstrap", n_resamples=200, higher_is_better=False
    )
    assert res.systems[-1] == "strong" and res.method == "paired_bootstrap"
    assert res.pairs[0].test.method == "paired_bootstrap"
    with pytest.raises(InvalidOptionError, match="method"):
        compare_systems(systems, method="t-test")
    with pytest.raises(InvalidInputError, match="same items"):
        compare_systems({"a": [1, 2, 3], "b": [1, 2]})
    with pytest.raises(InvalidInputError, match="no systems"):
        compare_systems({})
    single = compare_systems({"a": [1.0], "b": [0.0]})
    # One item: no test can separate the pair, so it forms no tie group (issue 10).
    assert single.pairs[0].p_holm is None and not single.pairs[0].could_separate
    assert single.ties.groups == (1, 2) and single.ties.unresolved == (("a", "b"),)


def test_significance_boundary_is_inclusive_in_holm_and_tie_groups() -> None:
    assert holm([0.05]).reject == (True,)
    assert tie_groups(["A", "B"], {("A", "B"): 0.05}).groups == (1, 2)


def test_undefined_corpus_statistic_is_refused_in_paired_tests() -> None:
    from assay.stats import ratio_reducer

    zero = [[0, 0], [0, 0], [0, 0]]
    with pytest.raises(InvalidInputError, match="undefined"):
        paired_bootstrap(zero, zero, ratio_reducer(0, 1), n_resamples=10)
    with pytest.raises(InvalidInputError, match="undefined"):
        paired_approximate_randomization(zero, zero, ratio_reducer(0, 1), n_trials=10)


def test_tie_groups_list_unresolved_pairs_apart_from_ties() -> None:
    p = {("A", "B"): 0.2, ("B", "C"): 0.01, ("C", "D"): 0.5, ("D", "E"): 0.9}
    able = {("A", "B"): True, ("B", "C"): False, ("C", "D"): False, ("E", "D"): True}
    res = tie_groups(["A", "B", "C", "D", "E"], p, separable=able)
    # B-C is significant whatever the flag says; C-D is not significant but its test could
    # not have separated them: no tie is formed from it, D starts group 3; D-E is a tie.
    assert res.groups == (1, 1, 2, 3, 3)
    assert res.members == (("A", "B"), ("C",), ("D", "E"))
    assert res.unresolved == (("C", "D"),)
    assert res.to_dict()["unresolved"] == [["C", "D"]]
    assert tie_groups(["A", "B"], {("A", "B"): 0.2}).unresolved == ()
    # Every adjacent pair unable to separate: every system alone, none merged.
    none = tie_groups(["A", "B", "C"], {("A", "B"): 1.0, ("B", "C"): 1.0},
                      separable={("A", "B"): False, ("B", "C"): False})  # fmt: skip
    assert none.groups == (1, 2, 3) and none.unresolved == (("A", "B"), ("B", "C"))

"""One counting rule for every paired test: ties counted, p = (r + 1) / (T + 1).

Expected p-values are worked out by hand from the exact randomisation distribution:
with D discordant 0/1 items all won by one system, a random swap of each item gives
the difference ``|2K - D| / n`` (K of the D items kept), so the probability that the
swapped difference is at least the observed one is ``P(K = 0 or K = D) = 2 / 2**D``
(D = 3: 0.25, the exact test's and McNemar's p; D = 2: 0.5). The Monte-Carlo p of
T trials lies within a few binomial standard errors ``sqrt(p (1 - p) / T)`` of it.
sacrebleu's strict ``>`` never counts a swap equal to the observed difference, and
none exceeds it, so its p is ``1 / (T + 1)``.
"""

from __future__ import annotations

import math

import pytest

from assay import stats
from assay.errors import InvalidOptionError
from assay.evaluation.compare import CompareOptions
from assay.evaluation.metric_compare import compare_on_metric

# 3 discordant items, all won by a; 5 concordant ones.
A3 = [1, 1, 1, 0, 0, 1, 1, 0]
B3 = [0, 0, 0, 0, 0, 1, 1, 0]


def _near(p: float | None, exact: float, trials: int) -> bool:
    assert p is not None
    return abs(p - exact) < 5 * math.sqrt(exact * (1 - exact) / trials) + 1 / trials


def test_exact_and_mcnemar_give_a_quarter_on_three_discordant_items() -> None:
    assert stats.mcnemar_exact(A3, B3).p_value == pytest.approx(0.25)  # 2 * 0.5**3
    assert stats.exact_sign_flip(A3, B3).p_value == pytest.approx(0.25)


def test_approximate_randomization_counts_ties_by_default() -> None:
    result = stats.paired_approximate_randomization(A3, B3)
    assert result.count_rule == "greater_or_equal"
    assert result.count is not None
    assert result.p_value == (result.count + 1) / (result.n_resamples + 1)
    assert _near(result.p_value, 0.25, result.n_resamples)  # was 1/10001 = 9.999e-05


def test_bootstrap_counts_ties_by_default() -> None:
    assert stats.paired_bootstrap(A3, B3).count_rule == "greater_or_equal"


def test_sacrebleus_rule_by_name() -> None:
    for name in ("greater", "sacrebleu"):
        result = stats.paired_approximate_randomization(A3, B3, n_trials=999, count_rule=name)
        assert result.count == 0 and result.p_value == 1 / 1000
        assert result.count_rule == "greater"


def test_compare_systems_counts_ties_by_default() -> None:
    # 2 discordant items: exact p = 2 / 2**2 = 0.5; one pair, so Holm changes nothing.
    a = [1, 1, 0, 1, 0, 1, 1, 0, 1, 0]
    b = [0, 0, 0, 1, 0, 1, 1, 0, 1, 0]
    comparison = stats.compare_systems({"a": a, "b": b})
    (pair,) = comparison.pairs
    assert pair.test.count_rule == "greater_or_equal"
    assert _near(pair.p_holm, 0.5, comparison.n_resamples)
    assert comparison.ties.groups == (1, 1)  # not separated
    strict = stats.compare_systems({"a": a, "b": b}, count_rule="sacrebleu")
    assert strict.pairs[0].p_holm == 1 / (strict.n_resamples + 1)


def test_compare_on_metric_counts_ties_by_default() -> None:
    targets = ["yes", "no", "red", "blue", "cat", "dog"]
    first = ["yes", "no", "red", "blue", "cat", "dog"]
    second = ["no", "yes", "red", "blue", "cat", "dog"]  # 2 discordant items
    comparison = compare_on_metric("exact_match", {"x": first, "y": second}, targets)
    (pair,) = comparison.pairs
    assert pair.test.count_rule == "greater_or_equal"
    assert _near(pair.p_holm, 0.5, comparison.n_resamples)


def test_the_cli_and_the_library_share_the_default() -> None:
    # assay eval/compare build CompareOptions; their default is the library's.
    assert CompareOptions().ties_count is True
    assert stats.paired_approximate_randomization([1, 0], [0, 1]).count_rule == (
        "greater_or_equal"
    )


def test_unknown_or_contradictory_rule_is_refused() -> None:
    with pytest.raises(InvalidOptionError, match="greater_or_equal"):
        stats.paired_bootstrap(A3, B3, count_rule="ge")
    with pytest.raises(InvalidOptionError, match="disagree"):
        stats.paired_bootstrap(A3, B3, count_rule="greater", ties_count=True)

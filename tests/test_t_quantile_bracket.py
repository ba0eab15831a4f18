"""``t_quantile``'s proved bracket: the same float as the bisection that evaluates every step.

The plain bisection is written out here (the t quantile before the bracket) and run on
the same ``t_cdf``; the closed forms of df = 1 and df = 2 check both independently.
"""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.stats import _dist
from assay.stats._dist import _MARGIN, _proved_bracket, t_cdf, t_quantile


def plain_bisection(p: float, df: float) -> float:
    """Every step evaluated: the t quantile as it was computed before the bracket."""
    if p < 0.5:
        return -plain_bisection(1.0 - p, df)
    if p == 0.5:
        return 0.0
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        low, high = high, high * 2.0
    for _ in range(200):
        mid = 0.5 * (low + high)
        if mid in (low, high):
            break
        if t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
    return 0.5 * (low + high)


def fresh(p: float, df: float) -> float:
    t_quantile.cache_clear()
    return t_quantile(p, df)


RNG = random.Random(20261202)
DFS = [*range(1, 31), 0.5, 1.5, 2.5, 7.25, 1e5, 1e7, *(RNG.randint(31, 6000) for _ in range(40))]
PS = [0.975, 0.995, 0.95, 0.9, 0.6, 0.5000001, 0.999999, 0.025]


@pytest.mark.parametrize("df", DFS)
def test_same_float_as_the_plain_bisection(df: float) -> None:
    for p in PS:
        assert fresh(p, df) == plain_bisection(p, df), (p, df)


@settings(max_examples=150, deadline=None)
@given(
    st.floats(min_value=1e-6, max_value=1 - 1e-6),
    st.one_of(st.floats(min_value=0.2, max_value=60), st.integers(min_value=1, max_value=20000)),
)
def test_same_float_as_the_plain_bisection_anywhere(p: float, df: float) -> None:
    assert fresh(p, df) == plain_bisection(p, df)


@pytest.mark.parametrize("df", [1, 3, 30, 1344, 1e5])
def test_the_bracket_is_proved_and_narrow(df: float) -> None:
    bracket = _proved_bracket(0.975, df)
    assert bracket is not None
    low, high = bracket
    assert t_cdf(low, df) < 0.975 - _MARGIN and t_cdf(high, df) > 0.975 + _MARGIN
    assert low < fresh(0.975, df) < high
    if df > 1:  # Cauchy's Newton steps converge slowly: a wider (still proved) bracket
        assert high - low < 1e-6  # most of the bisection's ~54 steps fall outside it


def test_fewer_evaluations_than_the_plain_bisection(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def counted(t: float, df: float) -> float:
        calls.append(t)
        return t_cdf(t, df)

    monkeypatch.setattr(_dist, "t_cdf", counted)
    fresh(0.975, 1344)
    assert len(calls) <= 40  # the plain bisection evaluates 54


def test_closed_forms_still_hold() -> None:
    # df = 1 (Cauchy): tan(pi (p - 1/2)); df = 2: (2p - 1) / sqrt(2 p (1 - p)).
    for p in (0.6, 0.9, 0.975, 0.995):
        assert fresh(p, 1) == pytest.approx(math.tan(math.pi * (p - 0.5)), rel=1e-11)
        assert fresh(p, 2) == pytest.approx((2 * p - 1) / math.sqrt(2 * p * (1 - p)), rel=1e-11)

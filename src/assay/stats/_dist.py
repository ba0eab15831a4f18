"""Quantiles of the normal and Student t distributions (standard library only).

The normal quantile comes from :class:`statistics.NormalDist`. The t quantile
inverts the t distribution function, written through the regularised incomplete
beta function (Abramowitz & Stegun 26.7.1)::

    P(T <= t) = 1 - I_x(df/2, 1/2) / 2,    x = df / (df + t^2),   t >= 0

``I_x(a, b)`` is evaluated with its continued fraction (DLMF 8.17.22) by the
modified Lentz method, and the quantile is found by bisection, which is slow-ish
(~200 evaluations) but monotone and deterministic. Accuracy is ~1e-12, far below
anything a report shows.
"""

from __future__ import annotations

import functools
import math
from statistics import NormalDist

_TINY = 1e-300
_EPS = 1e-15


def normal_quantile(p: float) -> float:
    """Return the ``p`` quantile of the standard normal distribution."""
    return NormalDist().inv_cdf(p)


def _beta_continued_fraction(x: float, a: float, b: float) -> float:
    """Evaluate the continued fraction of I_x(a, b) (DLMF 8.17.22) by modified Lentz."""
    f = c = 1.0
    d = 0.0
    for step in range(1, 10_000):
        m = step // 2
        if step % 2 == 0:
            coef = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
        else:
            coef = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
        d = 1.0 + coef * d
        d = _TINY if abs(d) < _TINY else d
        c = 1.0 + coef / c
        c = _TINY if abs(c) < _TINY else c
        d = 1.0 / d
        f *= c * d
        if abs(c * d - 1.0) < _EPS:
            break
    return f


def regularized_beta(x: float, a: float, b: float) -> float:
    """Return the regularised incomplete beta function I_x(a, b) for 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    if x > (a + 1.0) / (a + b + 2.0):
        return 1.0 - regularized_beta(1.0 - x, b, a)
    log_front = (
        a * math.log(x)
        + b * math.log1p(-x)
        - (math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b))
        - math.log(a)
    )
    return math.exp(log_front) / _beta_continued_fraction(x, a, b)


def t_cdf(t: float, df: float) -> float:
    """Return P(T <= t) for Student's t distribution with ``df`` degrees of freedom."""
    tail = 0.5 * regularized_beta(df / (df + t * t), df / 2.0, 0.5)
    return 1.0 - tail if t >= 0 else tail


@functools.lru_cache(maxsize=4096)
def t_quantile(p: float, df: float) -> float:
    """Return the ``p`` quantile of Student's t distribution (0 < p < 1, df > 0)."""
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
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

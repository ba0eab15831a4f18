"""Quantiles of the normal and Student t distributions (standard library only).

The normal quantile comes from :class:`statistics.NormalDist`. The t quantile
inverts the t distribution function, written through the regularised incomplete
beta function (Abramowitz & Stegun 26.7.1)::

    P(T <= t) = 1 - I_x(df/2, 1/2) / 2,    x = df / (df + t^2),   t >= 0

``I_x(a, b)`` is evaluated with its continued fraction (DLMF 8.17.22) by the
modified Lentz method, and the quantile is found by bisection down to adjacent
floats, which is monotone and deterministic. Accuracy is ~1e-12, far below anything a
report shows.

Most bisection steps are decided with a wide margin: a few Newton steps locate the
quantile, two evaluations bracket it with a margin of ``_MARGIN`` in probability (a
thousand times the distribution function's own error), and a step whose midpoint lies
outside that bracket takes the side the bracket proves, unevaluated. Every evaluated
step is the one the plain bisection evaluates, so the result is the same float; about
half the evaluations are skipped (and if the bracket cannot be proved, none are).
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


_MARGIN = 1e-10


def _t_density(t: float, df: float) -> float:
    """Return the density of Student's t distribution at ``t``."""
    log_scale = math.lgamma((df + 1.0) / 2.0) - math.lgamma(df / 2.0) - 0.5 * math.log(df * math.pi)
    return math.exp(log_scale - (df + 1.0) / 2.0 * math.log1p(t * t / df))


def _proved_bracket(p: float, df: float) -> tuple[float, float] | None:
    """Return ``(a, b)`` with ``t_cdf(a) < p - _MARGIN`` and ``t_cdf(b) > p + _MARGIN``.

    The quantile is located by Newton steps from the Cornish-Fisher start; ``None``
    when the steps or the bracket's check fail (the bisection then evaluates every step).
    """
    z = normal_quantile(p)
    t = z + (z**3 + z) / (4.0 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96.0 * df * df)
    step = math.inf
    for _ in range(4):
        density = _t_density(t, df)
        if not (density > 0.0 and math.isfinite(t)):
            return None
        step = (t_cdf(t, df) - p) / density
        t -= step
        if abs(step) <= 1e-10 * abs(t):
            break
    density = _t_density(t, df)
    if not (density > 0.0 and math.isfinite(t) and t > 0.0):
        return None
    delta = 2.0 * abs(step) + 1e-9 * t + 4.0 * _MARGIN / density
    low, high = t - delta, t + delta
    if t_cdf(low, df) < p - _MARGIN and t_cdf(high, df) > p + _MARGIN:
        return low, high
    return None


def _below(x: float, p: float, df: float, bracket: tuple[float, float] | None) -> bool:
    """Return ``t_cdf(x, df) < p``, unevaluated when ``x`` lies outside a proved bracket."""
    if bracket is not None:
        if x <= bracket[0]:
            return True
        if x >= bracket[1]:
            return False
    return t_cdf(x, df) < p


@functools.lru_cache(maxsize=4096)
def t_quantile(p: float, df: float) -> float:
    """Return the ``p`` quantile of Student's t distribution (0 < p < 1, df > 0)."""
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    if p == 0.5:
        return 0.0
    bracket = _proved_bracket(p, df)
    low, high = 0.0, 1.0
    while _below(high, p, df, bracket):
        low, high = high, high * 2.0
    for _ in range(200):
        mid = 0.5 * (low + high)
        if mid in (low, high):
            break
        if _below(mid, p, df, bracket):
            low = mid
        else:
            high = mid
    return 0.5 * (low + high)

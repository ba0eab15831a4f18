"""A private Wilson score interval, kept here until ``assay.stats`` lands.

``assay.stats.intervals.wilson_interval`` is being written on another branch; this
copy exists only so the structured report does not depend on it. Formula (Wilson
1927; Agresti & Coull 1998, eq. 2) for ``k`` successes in ``n`` trials, ``p = k/n``
and ``z`` the two-sided normal quantile::

    centre = (p + z²/2n) / (1 + z²/n)
    half   = z / (1 + z²/n) · sqrt(p(1 − p)/n + z²/4n²)
"""

from __future__ import annotations

import math
from statistics import NormalDist


def wilson_interval(k: int, n: int, confidence: float = 0.95) -> tuple[float, float] | None:
    """Wilson score interval for ``k`` of ``n``; ``None`` when ``n == 0``.

    Args:
        k: successes, ``0 <= k <= n``.
        n: trials.
        confidence: two-sided confidence level in ``(0, 1)``.

    Returns:
        ``(low, high)`` clipped to ``[0, 1]``, or ``None`` for an empty denominator.
    """
    if n == 0:
        return None
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = k / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)

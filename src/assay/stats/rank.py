"""Spearman's rank correlation with average ranks for ties.

``rho`` is Pearson's correlation of the two samples' ranks, where tied values share
the mean of the ranks they span (the definition ``scipy.stats.spearmanr`` uses).
Fewer than two pairs, or a sample with no spread (every rank equal), has no
correlation: ``rho`` is ``None`` with status ``not_available``, never 0 or NaN.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from assay.errors import InvalidInputError

OK = "ok"
NOT_AVAILABLE = "not_available"


@dataclass(frozen=True, slots=True)
class RankCorrelation:
    """Spearman's ρ over ``n`` pairs (``rho`` is ``None`` when it is not defined)."""

    rho: float | None
    n: int
    status: str
    method: str = "spearman (average ranks for ties)"

    def to_dict(self) -> dict[str, Any]:
        """Canonical JSON form."""
        return {"method": self.method, "n": self.n, "rho": self.rho, "status": self.status}


def average_ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks; tied values get the mean of the ranks they occupy."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for position in range(start, end + 1):
            ranks[order[position]] = (start + end) / 2 + 1
        start = end + 1
    return ranks


def spearman(x: Sequence[float], y: Sequence[float]) -> RankCorrelation:
    """Spearman's ρ of paired samples ``x`` and ``y``.

    Raises:
        InvalidInputError: the samples differ in length or hold a non-finite number.
    """
    if len(x) != len(y):
        raise InvalidInputError(f"spearman: x has {len(x)} values and y {len(y)}; pair them")
    if not all(math.isfinite(v) for v in (*x, *y)):
        raise InvalidInputError("spearman: every value must be a finite number")
    n = len(x)
    if n < 2:
        return RankCorrelation(None, n, NOT_AVAILABLE)
    rx, ry = average_ranks(x), average_ranks(y)
    mx, my = math.fsum(rx) / n, math.fsum(ry) / n
    sxy = math.fsum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sxx = math.fsum((a - mx) ** 2 for a in rx)
    syy = math.fsum((b - my) ** 2 for b in ry)
    if sxx == 0.0 or syy == 0.0:
        return RankCorrelation(None, n, NOT_AVAILABLE)
    return RankCorrelation(max(-1.0, min(1.0, sxy / math.sqrt(sxx * syy))), n, OK)

"""Multiple-comparison correction of a family of p-values (all pairs of systems).

* :func:`holm` — Holm's step-down adjustment: sorted ``p_(1) <= ... <= p_(m)``,
  ``adj_(i) = max_{j <= i} min(1, (m - j + 1) p_(j))``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from assay.errors import InvalidInputError
from assay.stats._common import as_values, check_probability, record_dict


@dataclass(frozen=True, slots=True)
class HolmResult:
    """Holm-adjusted p-values, in the order the raw p-values were given.

    Attributes:
        p_values: the raw p-values.
        adjusted: Holm-adjusted p-values (same order).
        reject: whether each hypothesis is rejected at ``alpha`` (adjusted p <= alpha).
        alpha: family-wise error rate.
    """

    p_values: tuple[float, ...]
    adjusted: tuple[float, ...]
    reject: tuple[bool, ...]
    alpha: float

    def to_dict(self) -> dict[str, Any]:
        """Return the canonical JSON form (sorted keys)."""
        return record_dict(self)


def holm(p_values: Sequence[float], *, alpha: float = 0.05) -> HolmResult:
    """Holm's step-down adjustment of a family of p-values (all pairs of systems).

    Raises:
        InvalidInputError: a p-value is not a number in [0, 1].
    """
    alpha = check_probability(alpha, "alpha")
    raw = as_values(list(p_values), "p_values")
    if raw.size and ((raw < 0).any() or (raw > 1).any()):
        raise InvalidInputError(f"p_values must lie in [0, 1], got {raw.tolist()}.")
    m = int(raw.size)
    order = sorted(range(m), key=lambda i: (raw[i], i))
    adjusted = [0.0] * m
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * float(raw[index])))
        adjusted[index] = running
    reject = tuple(p <= alpha for p in adjusted)  # statsmodels' convention: reject at p <= alpha
    return HolmResult(tuple(float(p) for p in raw), tuple(adjusted), reject, alpha)

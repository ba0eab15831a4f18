"""Exact paired test for 0/1 scores.

* :func:`mcnemar_exact` — exact two-sided McNemar test for 0/1 scores: with ``b``
  items only system a gets right and ``c`` only b, ``p = min(1, 2 * sum_{i <= min(b, c)}
  C(b + c, i) / 2^(b + c))``.
* :func:`mcnemar_pairs` — :func:`mcnemar_exact` of many pairs of named systems, each
  system's scores checked once.
* :func:`exact_sign_flip` — the exact version of paired approximate randomisation
  for 0/1 scores (method name ``exact_sign_flip``): the sign-flip distribution over
  the discordant items is binomial, so the p-value is computed, not sampled. It
  equals McNemar's exact p-value, reported as a paired test result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from assay.errors import InvalidInputError
from assay.stats._common import EMPTY, OK, FloatArray, as_values, check_same_length, record_dict
from assay.stats.paired import PairedTestResult

#: Method name of the exact sign-flip test in results and signatures.
EXACT_SIGN_FLIP = "exact_sign_flip"


@dataclass(frozen=True, slots=True)
class McNemarResult:
    """Exact McNemar test for two systems' 0/1 scores on the same items.

    Attributes:
        n: number of paired items.
        both: items both systems got right.
        a_only: items only system a got right.
        b_only: items only system b got right.
        neither: items neither got right.
        p_value: exact two-sided p-value (1.0 when there are no discordant items;
            ``None`` when there are no items).
        method: ``"exact_binomial"``.
        status: ``"ok"`` or ``"empty"``.
    """

    n: int
    both: int
    a_only: int
    b_only: int
    neither: int
    p_value: float | None
    method: str
    status: str

    def to_dict(self) -> dict[str, Any]:
        """Return the canonical JSON form (sorted keys)."""
        return record_dict(self)


def _binary(values: ArrayLike, name: str) -> FloatArray:
    """Return 0/1 scores as floats, refusing anything else."""
    array = as_values(values, name)
    if array.size and not np.isin(array, (0.0, 1.0)).all():
        bad = int(np.flatnonzero(~np.isin(array, (0.0, 1.0)))[0])
        raise InvalidInputError(
            f"{name}: McNemar's test needs 0/1 scores, item {bad} is {array[bad]!r}; "
            "use paired_approximate_randomization for graded scores."
        )
    return array


def _binomial_two_sided(small: int, total: int) -> float:
    """Return ``min(1, 2 * P(X <= small))`` for ``X ~ Binomial(total, 1/2)``, exactly."""
    term, tail = 1, 0
    for i in range(small + 1):
        tail += term
        term = term * (total - i) // (i + 1)
    return float(min(Fraction(1), Fraction(2 * tail, 2**total)))


def mcnemar_exact(a: ArrayLike, b: ArrayLike) -> McNemarResult:
    """Exact two-sided McNemar test for two systems' 0/1 scores on the same items.

    Raises:
        InvalidInputError: lengths differ or a score is not 0 or 1.
    """
    xa, xb = _binary(a, "a"), _binary(b, "b")
    check_same_length(xa, xb)
    n = int(xa.size)
    a_only = int(np.sum((xa == 1) & (xb == 0)))
    b_only = int(np.sum((xa == 0) & (xb == 1)))
    both = int(np.sum((xa == 1) & (xb == 1)))
    neither = n - a_only - b_only - both
    if n == 0:
        return McNemarResult(0, 0, 0, 0, 0, None, "exact_binomial", EMPTY)
    p_value = _binomial_two_sided(min(a_only, b_only), a_only + b_only)
    return McNemarResult(n, both, a_only, b_only, neither, p_value, "exact_binomial", OK)


def mcnemar_pairs(
    systems: Mapping[str, ArrayLike], pairs: Sequence[tuple[str, str]]
) -> list[McNemarResult]:
    """:func:`mcnemar_exact` of each pair ``(a, b)`` of named systems, in order.

    Each system's scores are read and checked (0/1, same length) once, not once per
    pair it belongs to; a pair's counts are integer counts of its two 0/1 columns
    (``both = |a & b|``, ``a_only = |a| - both``): the same results as the per-pair calls.

    Raises:
        InvalidInputError: lengths differ or a score is not 0 or 1.
    """
    used = dict.fromkeys(name for pair in pairs for name in pair)
    right = {name: _binary(systems[name], f"systems[{name!r}]") == 1.0 for name in used}
    sizes = {name: int(column.sum()) for name, column in right.items()}
    results = []
    for a, b in pairs:
        xa, xb = right[a], right[b]
        check_same_length(xa, xb)
        n = int(xa.size)
        if n == 0:
            results.append(McNemarResult(0, 0, 0, 0, 0, None, "exact_binomial", EMPTY))
            continue
        both = int(np.count_nonzero(xa & xb))
        a_only, b_only = sizes[a] - both, sizes[b] - both
        neither = n - a_only - b_only - both
        p_value = _binomial_two_sided(min(a_only, b_only), a_only + b_only)
        results.append(
            McNemarResult(n, both, a_only, b_only, neither, p_value, "exact_binomial", OK)
        )
    return results


def sign_flip_p_value(a_only: int, b_only: int) -> float:
    """Return the exact two-sided sign-flip p-value of 0/1 paired scores.

    Under the null each of the ``D = a_only + b_only`` discordant items favours
    either system with probability 1/2 (a random swap), so the paired sum
    difference is ``2K - D`` with ``K ~ Binomial(D, 1/2)`` and
    ``p = P(|2K - D| >= |a_only - b_only|) = min(1, 2 * P(K <= min(a_only, b_only)))``;
    concordant items never change the statistic.
    """
    return _binomial_two_sided(min(a_only, b_only), a_only + b_only)


def exact_sign_flip(a: ArrayLike, b: ArrayLike, *, seed: int = 0) -> PairedTestResult:
    """Exact paired sign-flip (randomisation) test of two systems' 0/1 scores.

    The exact distribution that approximate randomisation samples: every one of the
    ``2^n`` swap patterns, counted in closed form (no sampling error, no trials).
    Ties with the observed difference count (``count_rule = "greater_or_equal"``).

    Args:
        a: system a's 0/1 per-item scores.
        b: system b's 0/1 per-item scores, same items in the same order.
        seed: recorded only (the test draws nothing).

    Raises:
        InvalidInputError: lengths differ or a score is not 0 or 1.
    """
    counts = mcnemar_exact(a, b)
    n = counts.n
    score_a = (counts.both + counts.a_only) / n if n else None
    score_b = (counts.both + counts.b_only) / n if n else None
    status, reason = (EMPTY, "no items") if n == 0 else (OK, None)
    p_value = sign_flip_p_value(counts.a_only, counts.b_only) if n else None
    return PairedTestResult(
        method=EXACT_SIGN_FLIP,
        n=n,
        score_a=score_a,
        score_b=score_b,
        difference=None if score_a is None or score_b is None else score_a - score_b,
        p_value=p_value,
        count=None,
        n_resamples=0,
        seed=seed,
        lower=None,
        upper=None,
        confidence=0.95,
        status=status,
        reason=reason,
        count_rule="greater_or_equal",
    )


def smallest_sign_flip_p(discordant: int) -> float:
    """Return the smallest p-value the exact sign-flip test can give on ``discordant`` items."""
    return _binomial_two_sided(0, discordant)

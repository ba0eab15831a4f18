"""The power guard: resample counts that can reach alpha after the Holm correction.

A Monte-Carlo p-value ``(count + 1) / (trials + 1)`` is never below
``1 / (trials + 1)``, and Holm multiplies the smallest of ``m`` p-values by ``m``.
With too few trials no pair can be significant, so every system would land in
one tie group however large the differences. :func:`minimum_trials` gives the
fewest trials that can reach ``alpha``; :func:`guarded_trials` raises a default
count to it (recorded as ``power_guard = "raised"``) and refuses an explicit one
with one line naming the minimum. :func:`could_separate` tells whether a pair's
test could have reached ``alpha`` at all (the exact sign-flip test on few
discordant items cannot), so a tie it reports is known to carry no evidence.
"""

from __future__ import annotations

import math

from assay.errors import InvalidOptionError
from assay.stats._common import check_probability
from assay.stats.exact import EXACT_SIGN_FLIP, smallest_sign_flip_p

#: Tests whose p-values are sampled (resample or trial counts apply).
SAMPLED_TESTS = ("approximate_randomization", "paired_bootstrap")

#: ``power_guard`` outcomes: the count reached alpha as given, was raised, or none applies.
MET, RAISED, EXACT = "met", "raised", "exact"


def minimum_trials(n_pairs: int, alpha: float) -> int:
    """Return the fewest trials/resamples whose p-values can reach ``alpha`` after Holm.

    The count must satisfy ``n_pairs / (trials + 1) <= alpha`` in the floating-point
    arithmetic of :func:`~assay.stats.correction.holm`: about ``ceil(n_pairs / alpha) - 1``
    (1559 for 78 pairs at alpha 0.05).
    """
    alpha = check_probability(alpha, "alpha")
    m = max(1, int(n_pairs))
    trials = max(1, math.floor(m / alpha) - 2)
    while min(1.0, m * (1 / (trials + 1))) > alpha:
        trials += 1
    return trials


def guarded_trials(
    method: str, requested: int, is_default: bool, n_pairs: int, alpha: float
) -> tuple[int, str]:
    """Return ``(trials to use, power_guard outcome)``, or refuse a count that is too small.

    Raises:
        InvalidOptionError: an explicit ``requested`` count cannot reach ``alpha``.
    """
    if method not in SAMPLED_TESTS:
        return 0, EXACT
    if n_pairs == 0:
        return requested, MET
    minimum = minimum_trials(n_pairs, alpha)
    if requested >= minimum:
        return requested, MET
    if is_default:
        return minimum, RAISED
    smallest = n_pairs / (requested + 1)
    raise InvalidOptionError(
        f"{requested} trials cannot reach alpha {alpha:g} after the Holm correction over "
        f"{n_pairs} pairs (smallest adjusted p = {n_pairs}/{requested + 1} = {smallest:.4f}); "
        f"use at least {minimum} trials (--trials {minimum})."
    )


def could_separate(
    method: str, p_value: float | None, n_resamples: int, discordant: int, n_pairs: int,
    alpha: float,
) -> bool:  # fmt: skip
    """Whether a pair's test could reach ``alpha`` after Holm over ``n_pairs`` pairs.

    A sampled test's smallest p is ``1 / (trials + 1)``; the exact sign-flip test's is
    ``2^(1 - D)`` for ``D`` discordant items. Holm multiplies the smallest p of the
    family by ``n_pairs``: the bound used here.
    """
    if p_value is None:
        return False
    if method == EXACT_SIGN_FLIP:
        smallest = smallest_sign_flip_p(discordant)
    else:
        smallest = 1 / (n_resamples + 1)
    return min(1.0, n_pairs * smallest) <= alpha

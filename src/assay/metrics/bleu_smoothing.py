"""nltk's BLEU smoothing methods 4–7 (Chen & Cherry 2014; Gao & He 2013), as nltk computes them.

Inputs are the per-order matches ``m_n`` and totals ``t_n`` of BLEU's statistics
(nltk floors each segment's ``t_n`` at 1: use ``empty_order="floor-one"`` for nltk's
numbers) and the hypothesis length ``c``. ``p_n = m_n / t_n`` before smoothing.

``length-exp`` (nltk ``method4``, K = 5)
    the j-th order with ``m_n = 0`` (counting from 1) gets ``p_n = ln(c) / (2^j · K · t_n)``
    when ``c > 1``; otherwise it stays 0.
``average-3`` (nltk ``method5``)
    ``p_n ← (p'_{n−1} + p_n + p_{n+1}) / 3`` from order 1 up, where ``p'_{n−1}`` is the
    already-smoothed previous order (``p'_0 = p_1 + 1``) and ``p_{n+1}`` the unsmoothed
    next one; after the last order nltk always uses the 5-gram precision (``m_5/t_5``),
    whatever the number of orders.
``prior-interp`` (nltk ``method6``, α = 5)
    from order 3 up, ``p_n ← (m_n + α·π) / (l_n + α)`` with ``π = p'_{n−1}² / p'_{n−2}``
    (0 when ``p'_{n−2}`` = 0) and ``l_n = max(0, c − n + 1)`` hypothesis n-grams.
    nltk refuses (AssertionError) when the trigram precision is 0; assay computes
    the formula anyway (a documented difference).
``length-exp+average-3`` (nltk ``method7``)
    ``length-exp`` then ``average-3``.

BLEU is then ``BP · exp(Σ w_n ln p_n)`` over the orders with ``p_n > 0`` (nltk skips
the others, so an order left at 0 counts as if its precision were 1).

Corpus BLEU from summed statistics: ``c`` is the total hypothesis length (as nltk);
nltk's ``corpus_bleu`` takes the 5-gram precision of ``average-3`` and the n-gram
counts of ``prior-interp`` from the *last* sentence of the corpus only (the loop
variables it leaks); assay uses the corpus sums (a documented difference).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

K = 5.0
ALPHA = 5.0
NLTK_SMOOTHINGS = ("length-exp", "average-3", "prior-interp", "length-exp+average-3")
NEEDS_ORDER_5 = ("average-3", "length-exp+average-3")


def length_exp(p: list[float], m: Sequence[float], t: Sequence[float], c: float) -> list[float]:
    """Apply nltk ``method4``: zero orders get ``ln(c) / (2^j · K · t_n)`` (when ``c > 1``)."""
    out, j = list(p), 1
    for n in range(len(out)):
        if m[n] == 0 and c > 1:
            out[n] = (1 / (2**j * K / math.log(c))) / t[n]
            j += 1
    return out


def average_3(p: list[float], p5: float) -> list[float]:
    """Apply nltk ``method5``: average each order with its smoothed left, raw right neighbour."""
    right = [*p, p5]
    out = list(p)
    previous = p[0] + 1
    for n in range(len(out)):
        out[n] = (previous + out[n] + right[n + 1]) / 3
        previous = out[n]
    return out


def prior_interp(p: list[float], m: Sequence[float], c: float) -> list[float]:
    """Apply nltk ``method6``: orders ≥ 3 interpolated with the prior ``p'_{n−1}² / p'_{n−2}``."""
    out = list(p)
    for n in range(2, len(out)):
        prior = 0.0 if out[n - 2] == 0 else out[n - 1] ** 2 / out[n - 2]
        count = max(0.0, c - n)
        out[n] = (m[n] + ALPHA * prior) / (count + ALPHA)
    return out


def smoothed_precisions(
    smoothing: str, m: Sequence[float], t: Sequence[float], c: float, extra: tuple[float, float]
) -> list[float]:
    """The precisions ``p_1..p_N`` after one of :data:`NLTK_SMOOTHINGS`.

    ``extra`` is ``(m_5, t_5)``, the 5-gram statistics ``average-3`` reads.
    """
    p = [mi / ti for mi, ti in zip(m, t, strict=True)]
    if smoothing in ("length-exp", "length-exp+average-3"):
        p = length_exp(p, m, t, c)
    if smoothing in NEEDS_ORDER_5:
        p = average_3(p, extra[0] / extra[1] if extra[1] else 0.0)
    if smoothing == "prior-interp":
        p = prior_interp(p, m, c)
    return p


def weighted_log_sum(p: Sequence[float], weights: Sequence[float]) -> float:
    """``Σ w_n ln p_n`` over the orders with ``p_n > 0`` (nltk's rule)."""
    return math.fsum(w * math.log(x) for w, x in zip(weights, p, strict=True) if x > 0)

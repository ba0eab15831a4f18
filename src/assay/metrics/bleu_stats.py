"""BLEU's per-segment statistics and the score from (summed) statistics.

The formulas, the smoothings and the short-hypothesis rules are described in
:mod:`assay.metrics.bleu`, which holds the options and the registry entries and takes
everything here; so does :mod:`assay.metrics.bleu_batch`, the vectorised corpus
paths. This module imports neither, so every import runs one way (``bleu`` →
``bleu_batch`` → ``bleu_stats``, and ``bleu`` → ``bleu_stats``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from itertools import chain
from typing import Any

from assay.metrics.base import Settings, Stats
from assay.metrics.bleu_smoothing import (
    NEEDS_ORDER_5,
    NLTK_SMOOTHINGS,
    smoothed_precisions,
    weighted_log_sum,
)
from assay.metrics.ngrams import count, max_counts, shifted


def stat_order(params: Mapping[str, Any]) -> int:
    """Orders kept in the statistics: ``max_order``, at least 5 for ``average-3``."""
    order = int(params["max_order"])
    return max(order, 5) if params["smoothing"] in NEEDS_ORDER_5 else order


def closest_ref_len(hyp_len: int, ref_lens: Sequence[int]) -> int:
    """The reference length closest to ``hyp_len``; ties go to the shorter one."""
    return min(ref_lens, key=lambda n: (abs(n - hyp_len), n))


def bleu_statistics(
    hyp: Sequence[str],
    refs: Sequence[Sequence[str]],
    max_order: int,
    floor_one: bool,
    shortest: bool = False,
) -> Stats:
    """Per-segment statistics ``(hyp_len, ref_len, m_1..m_N, t_1..t_N)`` from tokens.

    ``ref_len`` is the closest reference length, or the shortest with ``shortest``.
    Counting stops at the first order with fewer than two matches: an (n+1)-gram
    match contains two n-gram matches (or one n-gram occurring twice on both
    sides), so no higher order can match.
    """
    hyp_len = len(hyp)
    if len(refs) == 1:
        ref_len = len(refs[0])
    elif shortest:
        ref_len = min(len(r) for r in refs)
    else:
        ref_len = closest_ref_len(hyp_len, [len(r) for r in refs])
    matches = [0] * max_order
    for n in range(1, max_order + 1):
        m = matches[n - 1] = _order_matches(hyp, refs, n)
        if m < 2:
            break
    low = 1 if floor_one else 0
    totals = [hyp_len - k if hyp_len - k > low else low for k in range(max_order)]
    return (hyp_len, ref_len, *matches, *totals)


def _order_matches(hyp: Sequence[str], refs: Sequence[Sequence[str]], n: int) -> int:
    """Clipped ``n``-gram matches (each n-gram clipped at its maximum in one reference).

    When no hypothesis n-gram repeats, every shared n-gram contributes exactly one,
    so the count is the size of a set intersection (no counting needed).
    """
    distinct = set(shifted(hyp, n))
    if len(distinct) == len(hyp) - n + 1:
        if len(refs) == 1:
            return len(distinct.intersection(shifted(refs[0], n)))
        return len(distinct.intersection(chain.from_iterable(shifted(r, n) for r in refs)))
    hyp_counts = count(shifted(hyp, n))
    contains = hyp_counts.__contains__
    if len(refs) == 1:
        ref_counts = count(filter(contains, shifted(refs[0], n)))
    else:
        ref_counts = max_counts([count(filter(contains, shifted(r, n))) for r in refs])
    m = 0
    for gram, r in ref_counts.items():
        h = hyp_counts[gram]
        m += h if h < r else r
    return m


def brevity_penalty(hyp_len: float, ref_len: float) -> float:
    """``1`` if c > r, ``0`` if c = 0, else ``exp(1 − r/c)``."""
    if hyp_len > ref_len:
        return 1.0
    if hyp_len == 0:
        return 0.0
    return math.exp(1 - ref_len / hyp_len)


def bleu_from_statistics(stats: Sequence[float], params: Mapping[str, Any]) -> float:
    """BLEU from (summed) statistics with the smoothing and order rules in ``params``."""
    order, smoothing = params["max_order"], params["smoothing"]
    if smoothing != "add-one-all" and stats[2] == 0:
        return 0.0
    if smoothing in NLTK_SMOOTHINGS:
        return _nltk_bleu(stats, params)
    if smoothing == "exp" and params.get("weights") is None:
        return _exp_bleu(stats, order, params["effective_order"])
    return _smoothed_bleu(stats, params)


def _exp_bleu(stats: Sequence[float], order: int, effective_order: bool) -> float:
    """:func:`_smoothed_bleu` under ``exp`` smoothing and uniform weights, branches resolved.

    The same operations in the same order (``exp`` adds nothing to the counts, and its
    statistics have ``order`` columns per side); the default of ``bleu`` and
    ``corpus_bleu``, evaluated once per distinct statistics row.
    """
    logs: list[float] = []
    halvings = 1
    for n in range(order):
        t = stats[2 + order + n]
        if t == 0:
            if not effective_order:
                return 0.0
            break
        m = stats[2 + n]
        if m:
            logs.append(math.log(m / t))
        else:
            halvings *= 2
            logs.append(math.log(1.0 / (halvings * t)))
    if not logs:
        return 0.0
    return brevity_penalty(stats[0], stats[1]) * math.exp(math.fsum(logs) / len(logs))


def _smoothed_bleu(stats: Sequence[float], params: Mapping[str, Any]) -> float:
    """BLEU under the sacrebleu-style smoothings (after the zero-unigram test)."""
    order, smoothing = params["max_order"], params["smoothing"]
    width = stat_order(params)
    add_all = smoothing == "add-one-all"
    step = 1.0 if add_all else params["k"] if smoothing == "add-k" else 0.0
    logs: list[float] = []
    halvings = 1
    for n in range(order):
        m: float = stats[2 + n]
        t: float = stats[2 + width + n]
        if step and (n or add_all):
            m, t = m + step, t + step
        if t == 0:
            if not params["effective_order"]:
                return 0.0
            break
        if m:
            logs.append(math.log(m / t))
        elif smoothing == "exp":
            halvings *= 2
            logs.append(math.log(1.0 / (halvings * t)))
        elif smoothing == "floor" and params["epsilon"] > 0:
            logs.append(math.log(params["epsilon"] / t))
        else:  # no smoothing, or a floor of ε = 0 (sacrebleu: the score is 0)
            return 0.0
    if not logs:
        return 0.0
    weights = params.get("weights")
    if weights is None:
        mean = math.fsum(logs) / len(logs)
    else:  # orders dropped by effective_order drop their weights too
        mean = math.fsum(w * x for w, x in zip(weights, logs, strict=False))
    return brevity_penalty(stats[0], stats[1]) * math.exp(mean)


def _nltk_bleu(stats: Sequence[float], params: Mapping[str, Any]) -> float:
    """BLEU under nltk's smoothing methods 4–7 (:mod:`assay.metrics.bleu_smoothing`)."""
    order, width = params["max_order"], stat_order(params)
    m, t = stats[2 : 2 + order], stats[2 + width : 2 + width + order]
    extra = (stats[2 + 4], stats[2 + width + 4]) if width >= 5 else (0.0, 0.0)
    p = smoothed_precisions(params["smoothing"], m, t, stats[0], extra)
    weights = params.get("weights") or (1.0 / order,) * order
    return brevity_penalty(stats[0], stats[1]) * math.exp(weighted_log_sum(p, weights))


def tokens(text: str, s: Settings) -> list[str]:
    """A text's tokens: normalizer, then ``lowercase``, then ``rstrip``, then the tokenizer."""
    text = s.normalize(text)
    if s.params.get("lowercase"):
        text = text.lower()
    return s.tokenize(text.rstrip())


BLEU4_PARAMS = {
    "max_order": 4,
    "smoothing": "add-one-all",
    "k": 1.0,
    "epsilon": 0.1,
    "effective_order": False,
}


def bleu_4(prediction: str, target: str, s: Settings) -> float:
    """``bleu_4`` of one target: BLEU-4 with ``add-one-all`` on the tokens (0 for no tokens)."""
    hyp = s.tokenize(s.normalize(prediction))
    ref = s.tokenize(s.normalize(target))
    if not ref:  # nothing to match; add-one-all would otherwise give c > r = 0 a score
        return 0.0
    return bleu_from_statistics(bleu_statistics(hyp, [ref], 4, False), BLEU4_PARAMS)

"""GLEU, the sentence-level BLEU variant of Wu et al. 2016 (Google NMT).

All n-grams with ``min_order ≤ n ≤ max_order`` (default 1..4) are pooled::

    tp   = |Counter(hyp n-grams) ∩ Counter(ref n-grams)|
    GLEU = tp / max(#hyp n-grams, #ref n-grams)      (= min(precision, recall))

Multi-reference: the reference with the best ratio is kept (the first on ties);
references for which both counts are zero are skipped. Per-item statistics are
``(tp, n_all)`` of the kept reference, ``(0, 0)`` when none is usable; corpus GLEU
is micro: ``Σ tp / Σ n_all`` (0 when ``Σ n_all = 0``). Matches nltk
``sentence_gleu`` / ``corpus_gleu`` exactly; an empty prediction against an empty
target scores 0, as there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import chain
from typing import Any

from assay.errors import InvalidOptionError
from assay.metrics.base import MetricSpec, Param, Settings, Stats
from assay.metrics.ngrams import check_positive_int, clipped_matches, count


def all_ngram_counts(tokens: Sequence[str], min_order: int, max_order: int) -> dict[Any, int]:
    """Counts of every n-gram with ``min_order ≤ n ≤ max_order`` (n-grams as tuples)."""
    grams = (
        zip(*(tokens[k:] for k in range(n)), strict=False) for n in range(min_order, max_order + 1)
    )
    return count(chain.from_iterable(grams))


def gleu_statistics(
    hyp: Sequence[str], refs: Sequence[Sequence[str]], min_order: int, max_order: int
) -> Stats:
    """``(tp, n_all)`` for the best-ratio reference (``(0, 0)`` if none is usable)."""
    hyp_counts = all_ngram_counts(hyp, min_order, max_order)
    n_hyp = sum(hyp_counts.values())
    best: tuple[int, int] | None = None
    for ref in refs:
        ref_counts = all_ngram_counts(ref, min_order, max_order)
        n_all = max(n_hyp, sum(ref_counts.values()))
        if n_all == 0:
            continue
        candidate = (clipped_matches(hyp_counts, ref_counts), n_all)
        if best is None or candidate[0] / candidate[1] > best[0] / best[1]:
            best = candidate
    return best if best is not None else (0, 0)


def gleu_from_statistics(stats: Sequence[float]) -> float:
    """``tp / n_all``; 0 when ``n_all`` is 0."""
    return stats[0] / stats[1] if stats[1] else 0.0


def _orders(s: Settings) -> tuple[int, int]:
    low, high = s.params["min_order"], s.params["max_order"]
    if low > high:
        raise InvalidOptionError(
            f"metric 'gleu': min_order={low} is above max_order={high}; swap them."
        )
    return low, high


def _stats(prediction: str, targets: Sequence[str], s: Settings) -> Stats:
    low, high = _orders(s)
    hyp = s.tokenize(s.normalize(prediction))
    refs = [s.tokenize(s.normalize(t)) for t in targets]
    return gleu_statistics(hyp, refs, low, high)


def _batch_stats(
    predictions: Sequence[str], targets_list: Sequence[Sequence[str]], s: Settings
) -> list[Stats]:
    """:func:`_stats` for a whole corpus: every prediction/target pair counted at once.

    Each pair's ``tp`` is the sum over orders of the clipped matches (n-grams of
    different orders never coincide); the best-ratio target is then picked exactly
    as :func:`gleu_statistics` does.
    """
    import numpy as np

    from assay.metrics import _vector

    low, high = _orders(s)
    texts: list[list[str]] = []
    for prediction, targets in zip(predictions, targets_list, strict=True):
        hyp = s.tokenize(s.normalize(prediction))
        for target in targets:
            texts += [hyp, s.tokenize(s.normalize(target))]
    packed = _vector.pack_tokens(texts)
    n_pairs = len(texts) // 2
    group = np.repeat(np.arange(n_pairs), 2)
    slot = np.tile(np.array([0, 1]), n_pairs)
    matches = _vector.clipped_matches(packed, group, slot, n_pairs, high)[low - 1 :].sum(axis=0)
    sizes = [np.maximum(packed.lengths - n + 1, 0) for n in range(low, high + 1)]
    n_grams = np.sum(sizes, axis=0)
    n_all = np.maximum(n_grams[0::2], n_grams[1::2])
    pairs = list(zip(matches.tolist(), n_all.tolist(), strict=True))
    out: list[Stats] = []
    start = 0
    for targets in targets_list:
        best: tuple[int, int] | None = None
        for candidate in pairs[start : start + len(targets)]:
            if candidate[1] and (best is None or candidate[0] / candidate[1] > best[0] / best[1]):
                best = candidate
        out.append(best if best is not None else (0, 0))
        start += len(targets)
    return out


def _reduce(stats: Sequence[float], s: Settings) -> float:
    return gleu_from_statistics(stats)


def _gleu(prediction: str, targets: Sequence[str], s: Settings) -> float:
    return gleu_from_statistics(_stats(prediction, targets, s))


def _names(params: Mapping[str, Any]) -> tuple[str, ...]:
    return ("matches", "n_all")


METRICS = (
    MetricSpec(
        name="gleu",
        fn=_gleu,
        description="Google-BLEU: n-gram matches / max(hyp, ref n-grams); corpus = micro",
        citation="Wu et al. 2016, Google's Neural Machine Translation System (GLEU)",
        family="ngram",
        tokenizer="word",
        normalizer="none",
        multi="native",
        aggregation="corpus",
        params=(
            Param("min_order", 1, "min", check_positive_int, "lowest n-gram order"),
            Param("max_order", 4, "max", check_positive_int, "highest n-gram order"),
        ),
        edge_cases={
            "empty prediction": "0",
            "empty target": "0",
            "both empty": "0 (as nltk)",
            "whitespace-only": "no tokens: same as empty",
            "punctuation-only": "no word tokens: same as empty",
            "no shared tokens": "0",
            "exact match": "1",
            "repeated tokens": "counted with multiplicity, clipped",
        },
        stats_fn=_stats,
        stats_names=_names,
        reduce_fn=_reduce,
        batch_stats_fn=_batch_stats,
        corpus_from_stats=True,
    ),
)

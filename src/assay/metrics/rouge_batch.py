"""ROUGE-N and ROUGE-L statistics of a whole corpus in one loop (``batch_stats_fn``).

The same statistics as the per-item functions of :mod:`assay.metrics.rouge`, with
less work per item:

* each text is tokenised once (the prediction once for all its targets), and the
  identity normaliser (``none``, the default) is not called at all;
* ROUGE-N counts the prediction's n-grams once per item; a side with fewer than
  ``n`` tokens has no n-gram, so no counting happens for it (most items of short
  answers for ROUGE-3 … 9); the clipped hits are summed over the target's
  n-grams counted where the prediction has them (those are the shared ones);
* ROUGE-L is :func:`assay.metrics.rouge_lcs.lcs_length` (rapidfuzz's bit-parallel
  ``LCSseq`` on the pair's tokens as code points) per pair;
* an item with one target takes its row as is; with several, the best F (the
  first on ties) is picked exactly as the per-item path does.

Per-item dicts are kept on purpose: one corpus-wide token table (dense ids for
numpy, or code points for rapidfuzz's ``cpdist``) was measured slower, because
the look-ups into a large table miss the cache where a pair's small dict does not.
``tests/test_rouge_batch.py`` checks these rows against rouge-score and against
the per-item path. The F-measure (:func:`f_beta`, :func:`prf`) that picks an item's
best target is here, and :mod:`assay.metrics.rouge` takes it from here, so the
import runs one way (``rouge`` → ``rouge_batch``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from assay.metrics.base import Settings, Stats
from assay.metrics.ngrams import count, shifted
from assay.metrics.rouge_lcs import lcs_length
from assay.text.normalize import normalize_none


def f_beta(precision: float, recall: float, beta: float) -> float:
    """``(1 + β²) P R / (β² P + R)``; 0 when ``P + R`` is 0."""
    if precision + recall <= 0:
        return 0.0
    b2 = beta * beta
    return (1 + b2) * precision * recall / (b2 * precision + recall)


def prf(hits: float, n_pred: float, n_target: float, beta: float) -> tuple[float, float, float]:
    """Precision, recall and F from a hit count and the two sizes (sizes floored at 1)."""
    p = hits / max(n_pred, 1)
    r = hits / max(n_target, 1)
    return p, r, f_beta(p, r, beta)


def text_tokens(s: Settings) -> Callable[[str], list[str]]:
    """``s.tokenize(s.normalize(text))`` as one callable (the identity normaliser skipped)."""
    tokenize, normalize = s.tokenize, s.normalize
    if normalize is normalize_none:
        return tokenize
    return lambda text: tokenize(normalize(text))


def ngram_stats(
    n: int, predictions: Sequence[str], targets_list: Sequence[Sequence[str]], s: Settings
) -> list[Stats]:
    """ROUGE-N's ``(hits, pred n-grams, target n-grams)`` of each item's best target."""
    tokens = text_tokens(s)
    beta = s.params["beta"]
    out: list[Stats] = []
    for prediction, targets in zip(predictions, targets_list, strict=True):
        pred_tokens = tokens(prediction)
        n_pred = len(pred_tokens) - n + 1
        pred = count(shifted(pred_tokens, n)) if n_pred > 0 else {}
        rows = []
        for target in targets:
            ref_tokens = tokens(target)
            n_ref = len(ref_tokens) - n + 1
            hits = 0
            if pred and n_ref > 0:
                ref = count(filter(pred.__contains__, shifted(ref_tokens, n)))
                hits = sum(map(min, map(pred.__getitem__, ref), ref.values()))
            rows.append((hits, n_pred if n_pred > 0 else 0, n_ref if n_ref > 0 else 0))
        out.append(rows[0] if len(rows) == 1 else best_row(rows, beta))
    return out


def lcs_stats(
    predictions: Sequence[str], targets_list: Sequence[Sequence[str]], s: Settings
) -> list[Stats]:
    """ROUGE-L's ``(LCS, pred tokens, target tokens)`` of each item's best target."""
    tokens = text_tokens(s)
    beta = s.params["beta"]
    out: list[Stats] = []
    for prediction, targets in zip(predictions, targets_list, strict=True):
        pred = tokens(prediction)
        rows = []
        for target in targets:
            ref = tokens(target)
            rows.append((lcs_length(pred, ref), len(pred), len(ref)))
        out.append(rows[0] if len(rows) == 1 else best_row(rows, beta))
    return out


def best_row(rows: Sequence[Stats], beta: float) -> Stats:
    """The row with the best F (the first on ties), as the per-item ``_best_target``."""
    best: Stats = ()
    best_f = -1.0
    for row in rows:
        f = prf(row[0], row[1], row[2], beta)[2]
        if f > best_f:
            best, best_f = row, f
    return best

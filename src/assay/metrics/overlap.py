"""Token-overlap F1: multiset (SQuAD-style) and set (XL-DocBench) variants.

``f1`` — multiset token F1 (Rajpurkar et al. 2016, the SQuAD script's ``f1_score``
arithmetic; tokenizer ``word`` by default, normalizer ``none``)::

    common    = |Counter(pred) ∩ Counter(target)|    (multiset intersection)
    precision = common / |pred|,  recall = common / |target|
    f1        = 2·P·R / (P + R),  max over targets

Edge cases: both token lists empty → 1.0 (SQuAD v2.0's convention: an empty answer
for an empty gold is right); exactly one empty → 0.0; no shared token → 0.0.
Punctuation-only and whitespace-only texts have no ``word`` tokens and count as
empty. Repeated tokens count with multiplicity (``the the`` vs ``the`` → 2/3).

``token_f1.set`` — set-based token F1 as used by XL-DocBench: the same formula over
token *sets* of the whitespace-split ``xldocbench``-normalised texts. Both empty →
1.0, empty gold with non-empty prediction → 0.0, empty prediction → 0.0. Repeated
tokens count once (``the the`` behaves like ``the``). Named apart from ``f1`` so the
two are never confused.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from assay.metrics.base import MetricSpec, Settings


def harmonic_f1(common: int, n_pred: int, n_target: int) -> float:
    """F1 from an overlap count and the two sizes (0 when there is no overlap)."""
    if common == 0:
        return 0.0
    precision = common / n_pred
    recall = common / n_target
    return 2 * precision * recall / (precision + recall)


def multiset_f1(pred_tokens: Sequence[str], target_tokens: Sequence[str]) -> float:
    """Multiset token F1; both empty → 1.0, one empty → 0.0."""
    if not pred_tokens or not target_tokens:
        return 1.0 if not pred_tokens and not target_tokens else 0.0
    common = sum((Counter(pred_tokens) & Counter(target_tokens)).values())
    return harmonic_f1(common, len(pred_tokens), len(target_tokens))


def set_f1(pred_tokens: Sequence[str], target_tokens: Sequence[str]) -> float:
    """Set token F1; both empty → 1.0, one empty → 0.0."""
    pred, target = set(pred_tokens), set(target_tokens)
    if not target:
        return 1.0 if not pred else 0.0
    if not pred:
        return 0.0
    return harmonic_f1(len(pred & target), len(pred), len(target))


def _f1(prediction: str, target: str, s: Settings) -> float:
    return multiset_f1(s.tokenize(s.normalize(prediction)), s.tokenize(s.normalize(target)))


def _set_f1(prediction: str, target: str, s: Settings) -> float:
    return set_f1(s.tokenize(s.normalize(prediction)), s.tokenize(s.normalize(target)))


METRICS = (
    MetricSpec(
        name="f1",
        fn=_f1,
        description="multiset token F1, max over targets",
        citation="Rajpurkar et al. 2016 (SQuAD), token-level F1",
        family="qa",
        tokenizer="word",
        normalizer="none",
        edge_cases={
            "empty prediction": "0 (1 if the target has no tokens either)",
            "empty target": "0 (1 if the prediction has no tokens either)",
            "both empty": "1",
            "whitespace-only": "no tokens: same as empty",
            "punctuation-only": "no word tokens: same as empty",
            "no shared tokens": "0",
            "exact match": "1",
            "repeated tokens": "counted with multiplicity",
        },
    ),
    MetricSpec(
        name="token_f1.set",
        fn=_set_f1,
        description="set-based token F1 over xldocbench-normalised whitespace tokens",
        citation="XL-DocBench released evaluator, token F1 over token sets",
        family="qa",
        tokenizer="whitespace",
        normalizer="xldocbench",
        edge_cases={
            "empty prediction": "0 (1 if the target is empty too)",
            "empty target": "1 if the prediction is empty too, else 0",
            "both empty": "1",
            "whitespace-only": "same as empty",
            "punctuation-only": "normalises to empty (except . - %)",
            "no shared tokens": "0",
            "exact match": "1",
            "repeated tokens": "counted once (sets)",
        },
    ),
)

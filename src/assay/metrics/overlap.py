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

from collections.abc import Callable, Sequence

from assay.metrics.base import MetricSpec, Settings
from assay.metrics.ngrams import clipped_matches, count
from assay.text.normalize import normalize_xldocbench, xldocbench_token_set
from assay.text.tokenize import tokenize_whitespace


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
    return harmonic_f1(multiset_overlap(pred_tokens, target_tokens), len(pred_tokens),
                       len(target_tokens))  # fmt: skip


def multiset_overlap(pred_tokens: Sequence[str], target_tokens: Sequence[str]) -> int:
    """``|Counter(pred) ∩ Counter(target)|``: the sum of the per-token minimum counts.

    When no prediction token repeats, each shared token contributes exactly one, so the
    overlap is the size of a set intersection (no counting needed).
    """
    distinct = set(pred_tokens)
    if len(distinct) == len(pred_tokens):
        return len(distinct.intersection(target_tokens))
    return clipped_matches(count(pred_tokens), count(target_tokens))


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


def _f1_batch(
    predictions: Sequence[str], targets_list: Sequence[Sequence[str]], s: Settings
) -> list[float]:
    """:func:`_f1` for a corpus, the max over targets, each prediction tokenised once."""
    tokenize, normalize = s.tokenize, s.normalize
    out: list[float] = []
    for prediction, targets in zip(predictions, targets_list, strict=True):
        pred = tokenize(normalize(prediction))
        if len(targets) == 1:
            out.append(float(multiset_f1(pred, tokenize(normalize(targets[0])))))
        else:
            out.append(float(max(multiset_f1(pred, tokenize(normalize(t))) for t in targets)))
    return out


def _set_f1(prediction: str, target: str, s: Settings) -> float:
    return set_f1(s.tokenize(s.normalize(prediction)), s.tokenize(s.normalize(target)))


def _sets_f1(pred: set[str], target: set[str]) -> float:
    """:func:`set_f1` of two token sets."""
    if not target:
        return 1.0 if not pred else 0.0
    if not pred:
        return 0.0
    return harmonic_f1(len(pred & target), len(pred), len(target))


def _set_f1_batch(
    predictions: Sequence[str], targets_list: Sequence[Sequence[str]], s: Settings
) -> list[float]:
    """:func:`_set_f1` for a corpus, the max over targets, each prediction's set made once.

    With the default text steps the sets come from ``xldocbench_token_set`` (the set of
    the normalised text's whitespace tokens, built from its distinct tokens only).
    """
    if s.normalize is normalize_xldocbench and s.tokenize is tokenize_whitespace:
        token_set: Callable[[str], set[str]] = xldocbench_token_set
    else:
        tokenize, normalize = s.tokenize, s.normalize

        def token_set(text: str) -> set[str]:
            return set(tokenize(normalize(text)))

    out: list[float] = []
    for prediction, targets in zip(predictions, targets_list, strict=True):
        pred = token_set(prediction)
        if len(targets) == 1:
            out.append(_sets_f1(pred, token_set(targets[0])))
        else:
            out.append(max(_sets_f1(pred, token_set(t)) for t in targets))
    return out


METRICS = (
    MetricSpec(
        name="f1",
        fn=_f1,
        description="multiset token F1, max over targets",
        citation="Rajpurkar et al. 2016 (SQuAD), token-level F1",
        family="qa",
        tokenizer="word",
        normalizer="none",
        batch_fn=_f1_batch,
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
        batch_fn=_set_f1_batch,
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

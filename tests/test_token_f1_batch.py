"""Token F1's counting shortcut and corpus path give exactly the per-item numbers.

``multiset_overlap`` is checked against ``collections.Counter``'s multiset
intersection (the SQuAD script's arithmetic); the corpus path (``batch_fn``, each
prediction tokenised once) against :meth:`BoundMetric.score` item by item.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

import assay
from _ngram_cases import make_pairs
from assay.metrics.overlap import multiset_overlap
from assay.metrics.registry import get_metric
from assay.metrics.squad import squad_v1_f1, squad_v2_f1_single
from assay.text.normalize import normalize_squad

TOKENS = st.lists(st.sampled_from(["the", "cat", "a", "mat", "The", "é", ""]), max_size=12)
WORDS = st.sampled_from(["the", "cat", "sat", "a", "A", "mat", "?!", "", "don't", "an", "The."])
TEXTS = st.lists(WORDS, max_size=10).map(" ".join)
ITEMS = st.lists(st.tuples(TEXTS, st.lists(TEXTS, min_size=1, max_size=3)), min_size=1)


@given(TOKENS, TOKENS)
def test_multiset_overlap_equals_counter_intersection(pred: list[str], gold: list[str]) -> None:
    assert multiset_overlap(pred, gold) == sum((Counter(pred) & Counter(gold)).values())


def per_item(preds: list[str], targets: list[list[str]], **options: object) -> list[float]:
    bound = assay.bind("f1", **options)
    return [bound.score(p, t) for p, t in zip(preds, targets, strict=True)]


@given(ITEMS)
def test_f1_corpus_path_equals_per_item(items: list[tuple[str, list[str]]]) -> None:
    preds, targets = [p for p, _ in items], [t for _, t in items]
    spec = get_metric("f1")
    assert spec.batch_fn is not None
    assert spec.batch_fn(preds, targets, spec.bind().settings) == per_item(preds, targets)


def test_f1_score_corpus_on_the_shared_cases() -> None:
    pairs = make_pairs(1500, seed=11)
    preds, targets = [p for p, _ in pairs], [list(t) for _, t in pairs]
    for options in ({}, {"tokenizer": "whitespace", "normalizer": "squad"}):
        result = assay.score_corpus("f1", preds, targets, **options)
        assert list(result.values) == per_item(preds, targets, **options)


def official_v1_f1(prediction: str, ground_truth: str) -> float:
    """The SQuAD v1.1 script's ``f1_score`` (with assay's ``normalize_answer``)."""
    pred, gold = normalize_squad(prediction).split(), normalize_squad(ground_truth).split()
    num_same = sum((Counter(pred) & Counter(gold)).values())
    if num_same == 0:
        return 0
    precision, recall = 1.0 * num_same / len(pred), 1.0 * num_same / len(gold)
    return (2 * precision * recall) / (precision + recall)


def official_v2_f1(a_gold: str, a_pred: str) -> float:
    """The SQuAD v2.0 script's ``compute_f1``."""
    gold, pred = normalize_squad(a_gold).split(), normalize_squad(a_pred).split()
    if len(gold) == 0 or len(pred) == 0:
        return int(gold == pred)
    num_same = sum((Counter(gold) & Counter(pred)).values())
    if num_same == 0:
        return 0
    precision, recall = 1.0 * num_same / len(pred), 1.0 * num_same / len(gold)
    return (2 * precision * recall) / (precision + recall)


@given(TEXTS, TEXTS)
def test_squad_f1_equals_the_official_arithmetic(prediction: str, gold: str) -> None:
    assert squad_v1_f1(prediction, gold) == official_v1_f1(prediction, gold)
    assert squad_v2_f1_single(prediction, gold) == official_v2_f1(gold, prediction)

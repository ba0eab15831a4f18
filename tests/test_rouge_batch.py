"""ROUGE-N and ROUGE-L corpus loops (``assay.metrics.rouge_batch``) against rouge-score.

rouge-score (``RougeScorer.score`` / ``score_multi``, its own tokenizer and counting)
is the oracle for the values; the per-item statistics of :mod:`assay.metrics.rouge`
(checked on their own by ``test_rouge_n_counts.py`` and the parity tests) must
equal the corpus rows tuple for tuple. A small vocabulary with repeats, case,
punctuation and empty texts makes clipping and ties between targets common.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

import assay
from assay.metrics.corpus import VECTOR_MIN_CHARS
from assay.metrics.registry import get_metric
from assay.metrics.rouge_lcs import code_point_string

WORDS = st.sampled_from(["the", "cat", "The", "a", "mat", "sat", "x1", "?", "cat,", "\n"])
TEXT = st.lists(WORDS, max_size=14).map(" ".join)
ITEMS = st.lists(st.tuples(TEXT, st.lists(TEXT, min_size=1, max_size=3)), min_size=1, max_size=8)
NAMES = [f"rouge_{n}" for n in range(1, 10)] + ["rouge_l"]
ROUGE_TYPES = {name: name.replace("_", "") for name in NAMES} | {"rouge_l": "rougeL"}
SCORER = rouge_scorer.RougeScorer(list(ROUGE_TYPES.values()))


def per_item(name: str, items: Sequence[tuple[str, list[str]]], **options: object) -> list[tuple]:
    spec = get_metric(name)
    s = spec.bind(**options).settings
    assert spec.stats_fn is not None
    return [spec.stats_fn(p, t, s) for p, t in items]


def batch(name: str, items: Sequence[tuple[str, list[str]]], **options: object) -> list[tuple]:
    spec = get_metric(name)
    s = spec.bind(**options).settings
    assert spec.batch_stats_fn is not None
    return spec.batch_stats_fn([p for p, _ in items], [t for _, t in items], s)


@settings(max_examples=200, deadline=None)
@given(ITEMS, st.sampled_from(NAMES), st.sampled_from(["word", "rouge-score", "whitespace"]))
def test_corpus_rows_equal_the_per_item_rows(
    items: list[tuple[str, list[str]]], name: str, tokenizer: str
) -> None:
    got = batch(name, items, tokenizer=tokenizer)
    assert got == per_item(name, items, tokenizer=tokenizer)
    assert all(type(v) is int for row in got for v in row)


@settings(max_examples=200, deadline=None)
@given(ITEMS, st.sampled_from(NAMES), st.sampled_from(["lower", "squad"]))
def test_a_normaliser_is_applied_before_tokenising(
    items: list[tuple[str, list[str]]], name: str, normalizer: str
) -> None:
    assert batch(name, items, normalizer=normalizer) == per_item(name, items, normalizer=normalizer)


def _oracle(name: str, prediction: str, targets: list[str], measure: str) -> float:
    scores = (
        SCORER.score(targets[0], prediction)
        if len(targets) == 1
        else SCORER.score_multi(targets, prediction)
    )
    score = scores[ROUGE_TYPES[name]]
    return {"f": score.fmeasure, "p": score.precision, "r": score.recall}[measure]


@settings(max_examples=150, deadline=None)
@given(ITEMS, st.sampled_from(NAMES), st.sampled_from(["f", "p", "r"]))
def test_score_corpus_equals_rouge_score_item_by_item(
    items: list[tuple[str, list[str]]], name: str, measure: str
) -> None:
    """Repeated until the corpus is large enough for ``score_corpus`` to take the loop."""
    size = sum(len(p) + sum(map(len, t)) for p, t in items)
    corpus = items * (VECTOR_MIN_CHARS // max(size, 1) + 1)
    preds, targets = [p for p, _ in corpus], [t for _, t in corpus]
    result = assay.score_corpus(name, preds, targets, tokenizer="rouge-score", measure=measure)
    assert list(result.values) == [_oracle(name, p, t, measure) for p, t in corpus]
    bound = assay.bind(name, tokenizer="rouge-score", measure=measure)
    assert list(result.values) == [bound.score(p, t) for p, t in corpus]


def test_ties_between_targets_keep_the_first() -> None:
    """Equal F from different rows: (2 hits, 4, 4) and (3 hits, 4, 8) both give F = 0.5 exactly."""
    first, second = "a b x y", "a b c x y z w v"
    items = [("a b c d", [first, second]), ("a b c d", [second, first])]
    assert batch("rouge_1", items) == [(2, 4, 4), (3, 4, 8)]
    assert batch("rouge_1", items) == per_item("rouge_1", items)
    expected = [_oracle("rouge_1", p, t, "r") for p, t in items]
    assert expected == [0.5, 0.375]  # rouge-score's argmax keeps the first target as well
    assert [assay.score("rouge_1", p, t, measure="r") for p, t in items] == expected


def test_short_sides_have_no_ngrams() -> None:
    """Fewer than n tokens on a side: no n-gram there, and the counts are 0, not negative."""
    items = [("a b", ["a b c"]), ("a b c", ["a b"]), ("", ["a"]), ("a", [""])]
    assert batch("rouge_3", items) == [(0, 0, 1), (0, 1, 0), (0, 0, 0), (0, 0, 0)]
    assert batch("rouge_l", items) == [(2, 2, 3), (2, 3, 2), (0, 0, 1), (0, 1, 0)]


def test_a_pair_past_the_prebuilt_code_points_still_gets_its_lcs() -> None:
    long = " ".join(f"w{i}" for i in range(len(code_point_string()) // 2 + 10))
    rows = batch("rouge_l", [(long, [long + " extra"])])
    n = len(long.split())
    assert rows == [(n, n, n + 1)]

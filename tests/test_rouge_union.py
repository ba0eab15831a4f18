"""ROUGE-Lsum's vectorised union-LCS (``assay.metrics.rouge_union``) against rouge-score.

rouge-score's ``_summary_level_lcs`` (its ``rougeLsum``) is the oracle: its own
table, backtracking and per-token clipping. The general path
(:func:`assay.metrics.rouge_lcs.summary_lcs_hits`) is checked too, so the fallback for
long predicted sentences stays right. Small vocabularies make LCS ties common, which
is where a wrong backtracking rule would show.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

import assay
from assay.metrics import rouge_union
from assay.metrics.corpus import VECTOR_MIN_CHARS
from assay.metrics.rouge_lcs import summary_lcs_hits
from assay.metrics.rouge_union import MAX_WIDTH, union_hits

SENTENCE = st.lists(st.sampled_from("a b c d e".split()), max_size=9)
SENTENCES = st.lists(SENTENCE, min_size=1, max_size=9)
SCORER = rouge_scorer.RougeScorer(["rougeLsum"])


def rouge_score_hits(refs: Sequence[Sequence[str]], cans: Sequence[Sequence[str]]) -> int:
    """rouge-score's union-LCS hits: recall × target tokens (rounded: recall is hits / n)."""
    score = SCORER.score("\n".join(map(" ".join, refs)), "\n".join(map(" ".join, cans)))
    return round(score["rougeLsum"].recall * sum(map(len, refs)))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(SENTENCES, SENTENCES), min_size=1, max_size=6))
def test_union_hits_equal_rouge_score(items: list[tuple[list[list[str]], list[list[str]]]]) -> None:
    got = union_hits(items)
    assert got == [rouge_score_hits(refs, cans) for refs, cans in items]
    nonempty = [([r for r in refs if r], [c for c in cans if c]) for refs, cans in items]
    assert got == [summary_lcs_hits(r, c) if r and c else 0 for r, c in nonempty]


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from("a b c".split()), min_size=1, max_size=9), min_size=1),
    st.integers(MAX_WIDTH + 1, MAX_WIDTH + 20),
)
def test_a_predicted_sentence_past_the_width_is_left_to_the_general_path(
    refs: list[list[str]], width: int
) -> None:
    cans = [["a", "b"] * (width // 2 + 1)]
    got = union_hits([(refs, cans), (refs, [["a"]])])
    assert got[0] is None
    assert got[1] == rouge_score_hits(refs, [["a"]])


def test_chunks_cover_every_target_sentence_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks of a few pairs give the same hits as one block (chunk edges are exact)."""
    items = [([list("abcab"), list("bca"), list("cc")], [list("acb"), list("ba"), list("abc")])] * 9
    whole = union_hits(items)
    monkeypatch.setattr(rouge_union, "CHUNK_PAIRS", 4)
    assert union_hits(items) == whole == [rouge_score_hits(*item) for item in items]


LINES = st.lists(
    st.lists(st.sampled_from("The cat a mat sat on x1 ?".split()), max_size=12).map(" ".join),
    min_size=1,
    max_size=12,
).map("\n".join)


@settings(max_examples=120, deadline=None)
@given(st.lists(st.tuples(LINES, st.lists(LINES, min_size=1, max_size=3)), min_size=1, max_size=8))
def test_score_corpus_equals_rouge_score_per_item(items: list[tuple[str, list[str]]]) -> None:
    """The corpus path (vectorised when large enough) gives rouge-score's F item by item."""
    preds = [p for p, _ in items] * 3  # past VECTOR_MIN_CHARS more often
    targets = [t for _, t in items] * 3
    result = assay.score_corpus("rouge_lsum", preds, targets, tokenizer="rouge-score")
    pairs = list(zip(preds, targets, strict=True))
    expected = [SCORER.score_multi(t, p)["rougeLsum"].fmeasure for p, t in pairs]
    assert list(result.values) == pytest.approx(expected, abs=1e-12)
    bound = assay.bind("rouge_lsum", tokenizer="rouge-score")
    assert list(result.values) == [bound.score(p, t) for p, t in pairs]


TWO_LINES = st.lists(
    st.lists(st.sampled_from("The cat a mat sat on x1".split()), min_size=1, max_size=20).map(
        " ".join
    ),
    min_size=1,
    max_size=2,
).map("\n".join)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(TWO_LINES, TWO_LINES), min_size=20, max_size=60))
def test_small_items_of_a_corpus_share_one_union_call(items: list[tuple[str, str]]) -> None:
    """Items of at most 2 x 2 sentence pairs (fewer than 64 each) are pooled into one call.

    The corpus is repeated past ``VECTOR_MIN_CHARS``, where ``score_corpus`` scores
    it as a whole (smaller corpora go item by item, each far below 64 pairs).
    """
    size = sum(len(p) + len(t) for p, t in items)
    items = items * (VECTOR_MIN_CHARS // size + 1)
    calls: list[int] = []
    real = rouge_union.union_hits

    def counted(union: Sequence[tuple[Sequence[Sequence[str]], Sequence[Sequence[str]]]]) -> list:
        calls.append(len(union))
        return real(union)

    preds, targets = [p for p, _ in items], [[t] for _, t in items]
    rouge_union.union_hits = counted  # type: ignore[assignment]
    try:
        result = assay.score_corpus("rouge_lsum", preds, targets, tokenizer="rouge-score")
    finally:
        rouge_union.union_hits = real
    expected = [SCORER.score(t, p)["rougeLsum"].fmeasure for p, t in items]
    assert list(result.values) == pytest.approx(expected, abs=1e-12)
    bound = assay.bind("rouge_lsum", tokenizer="rouge-score")
    assert list(result.values) == [bound.score(p, t) for p, t in zip(preds, targets, strict=True)]
    lines = [(p.count("\n") + 1, t.count("\n") + 1) for p, t in items]
    pooled = [a * b for a, b in lines if a * b > 1]
    assert calls == ([len(pooled)] if sum(pooled) >= 64 else [])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(SENTENCES, st.lists(SENTENCE, min_size=1, max_size=30)), min_size=1,
                max_size=4))  # fmt: skip
def test_pruned_rounds_equal_tracing_every_pair(
    items: list[tuple[list[list[str]], list[list[str]]]],
) -> None:
    """The rounds that skip pairs give the hits of tracing every pair (no pruning).

    Tests' items leave fewer than ``LAST_ROUND_PAIRS`` pairs after the first round,
    so the greedy rounds are run on purpose too (``LAST_ROUND_PAIRS = 0``).
    """
    pruned = union_hits(items)
    last_round_pairs = rouge_union.LAST_ROUND_PAIRS
    rouge_union.LAST_ROUND_PAIRS = 0  # the greedy rounds until the usual end
    try:
        greedy = union_hits(items)
    finally:
        rouge_union.LAST_ROUND_PAIRS = last_round_pairs
    rouge_union.MAX_CANS = 0  # every item: all pairs in one round
    try:
        every = union_hits(items)
    finally:
        rouge_union.MAX_CANS = 64
    assert every == pruned == greedy == [rouge_score_hits(*item) for item in items]


def test_an_item_past_max_cans_traces_every_pair() -> None:
    refs = [list("abcab"), list("bca"), list("cc"), list("d")]
    cans = [list("acb"), list("ba"), list("abc"), list("cd")] * 20  # 80 > MAX_CANS
    items = [(refs, cans), (refs, cans[:3])]
    assert union_hits(items) == [rouge_score_hits(*item) for item in items]

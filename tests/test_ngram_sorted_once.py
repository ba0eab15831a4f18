"""The one-sort clipping of ``_vector`` equals the per-order sorts, and the peers' statistics.

:func:`assay.metrics._vector._single_sorted_once` counts every order of a chunk whose
groups have one reference each from one sort of whole-n-gram keys. It is checked
against the per-order path (:func:`_per_order_matches`, one sort per order) on random
packed texts, including vocabularies that need the chunk-local renumbering and every
pruning setting, and through the metrics against sacrebleu's own per-segment
statistics (chrF, chrF++, BLEU) and nltk's GLEU.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.gleu_score import sentence_gleu
from sacrebleu.metrics import BLEU, CHRF

from assay.metrics import _vector
from assay.metrics.registry import get_metric


@st.composite
def chunks(draw: st.DrawFn) -> tuple[_vector.Packed, Any, Any, int]:
    """Random one-reference groups: hypothesis/reference id sequences of one vocabulary."""
    n_groups = draw(st.integers(1, 25))
    vocab = draw(st.sampled_from([1, 2, 3, 5, 40, 1 << 10, 1 << 20]))
    alphabet = draw(st.integers(1, min(vocab, 6)))  # few distinct ids: long shared n-grams
    offsets = draw(st.lists(st.integers(0, vocab - 1), min_size=alphabet, max_size=alphabet))
    lengths = draw(st.lists(st.integers(0, 30), min_size=2 * n_groups, max_size=2 * n_groups))
    picks = st.lists(st.integers(0, alphabet - 1), min_size=sum(lengths), max_size=sum(lengths))
    ids = [offsets[i] for i in draw(picks)]
    packed = _vector.Packed(np.array(ids, dtype=np.int64), np.array(lengths, dtype=np.int64), vocab)
    group = np.repeat(np.arange(n_groups), 2)
    slot = np.tile(np.array([0, 1]), n_groups)
    return packed, group, slot, draw(st.integers(1, 8))


@settings(max_examples=400, deadline=None)
@given(chunks(), st.sampled_from([0.0, 0.5, 0.75, 2.0]), st.sampled_from([0.0, 0.25, 100.0]))
def test_one_sort_equals_one_sort_per_order(
    chunk: tuple[_vector.Packed, Any, Any, int], prune: float, end_keys: float
) -> None:
    packed, group, slot, order = chunk
    if not len(packed.ids):
        return
    n_groups = int(group[-1]) + 1
    saved = _vector._PRUNE_BELOW, _vector._END_KEYS_BELOW
    _vector._PRUNE_BELOW = prune  # 0: never drop positions; 2: drop at every order
    _vector._END_KEYS_BELOW = end_keys  # 0: keys built with the ends (order > 1); 100: fixed apart
    try:
        once = _vector._single_sorted_once(packed, group, slot, order, n_groups)
    finally:
        _vector._PRUNE_BELOW, _vector._END_KEYS_BELOW = saved
    expected = _vector._per_order_matches(packed, group, slot, order, n_groups)
    if packed.vocab < 1 << 10 or order <= 2:  # these always fit (locally renumbered or not)
        assert once is not None
    if once is not None:
        assert once.tolist() == expected.tolist()


def test_wide_keys_fall_back_to_the_per_order_sorts() -> None:
    # 8 orders of 300 distinct ids (9 bits each, even renumbered) cannot fit one integer:
    # None, and the caller sorts per order
    ids = np.arange(300, dtype=np.int64) * 1000
    packed = _vector.Packed(np.concatenate([ids, ids]), np.array([300, 300]), 1 << 20)
    group, slot = np.array([0, 0]), np.array([0, 1])
    assert _vector._single_sorted_once(packed, group, slot, 8, 1) is None
    assert _vector._chunk_matches(packed, group, slot, 8).tolist() == [[300 - n] for n in range(8)]
    assert _vector._single_sorted_once(packed, group, slot, 6, 1) is not None  # 54 bits fit


PIECES = st.sampled_from(
    ["a", "b", "ab", "ba", "the", "cat", ",", ".", "!", "(x)", "e.g.", "x-", "-y", "1.5", "é",
     "日本", "😀", "a,b", '"q"', "--"]
)  # fmt: skip
TEXT = st.lists(PIECES, max_size=14).map(" ".join)
CORPUS = st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=30)


def _batch(name: str, pairs: list[tuple[str, str]], **options: Any) -> list[tuple[int, ...]]:
    spec = get_metric(name)
    assert spec.batch_stats_fn is not None
    preds, targets = [p for p, _ in pairs], [[t] for _, t in pairs]
    return list(spec.batch_stats_fn(preds, targets, spec.bind(**options).settings))


@settings(max_examples=150, deadline=None)
@given(CORPUS, st.sampled_from([0, 1, 2]), st.booleans())
def test_chrf_batch_statistics_equal_sacrebleu(
    pairs: list[tuple[str, str]], word_order: int, whitespace: bool
) -> None:
    ours = _batch("chrf", pairs, word_order=word_order, whitespace=whitespace)
    ref = CHRF(word_order=word_order, whitespace=whitespace)
    theirs = ref._extract_corpus_statistics([p for p, _ in pairs], [[t for _, t in pairs]])
    assert [list(row) for row in ours] == theirs


@settings(max_examples=150, deadline=None)
@given(CORPUS, st.integers(1, 6))
def test_bleu_batch_statistics_equal_sacrebleu(pairs: list[tuple[str, str]], order: int) -> None:
    ours = _batch("bleu", pairs, tokenizer="none", max_order=order)
    ref = BLEU(tokenize="none", max_ngram_order=order)
    theirs = ref._extract_corpus_statistics([p for p, _ in pairs], [[t for _, t in pairs]])
    assert [list(row) for row in ours] == theirs
    ours = _batch("corpus_bleu", pairs)
    theirs = BLEU()._extract_corpus_statistics([p for p, _ in pairs], [[t for _, t in pairs]])
    assert [list(row) for row in ours] == theirs


@settings(max_examples=100, deadline=None)
@given(CORPUS)
def test_gleu_batch_equals_nltk(pairs: list[tuple[str, str]]) -> None:
    stats = _batch("gleu", pairs, tokenizer="whitespace")
    ours = [tp / n if n else 0.0 for tp, n in stats]
    theirs = [sentence_gleu([t.split()], p.split()) for p, t in pairs]
    assert ours == pytest.approx(theirs, abs=0, rel=0)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab,.()'\"-!~ \t\n\u3000\u00a0é😀", max_size=30))
def test_split_punctuation_equals_sacrebleu(text: str) -> None:
    # chrF++'s words: one trailing (else leading) ASCII punctuation mark split off
    from assay.metrics.chrf import split_punctuation

    assert split_punctuation(text) == CHRF(word_order=2)._remove_punctuation(text)


@given(st.lists(st.lists(st.sampled_from(["a", "b", "c", "ab", "", "é", "😀"]), max_size=8)))
def test_pack_tokens_numbers_tokens_in_order_of_first_appearance(texts: list[list[str]]) -> None:
    numbering: dict[str, int] = {}
    for token in (t for text in texts for t in text):
        if token not in numbering:
            numbering[token] = len(numbering)
    packed = _vector.pack_tokens(texts)
    assert packed.ids.tolist() == [numbering[t] for text in texts for t in text]
    assert packed.lengths.tolist() == [len(text) for text in texts]
    assert packed.vocab == max(len(numbering), 1)

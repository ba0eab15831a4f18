"""The word/character error rates' shortcuts give jiwer's numbers.

The shortcuts: ``tokenize_jiwer`` splits a printable text with ``str.split()``, and
``edit_counts`` of equal sequences is all hits without an alignment. The oracle is
jiwer itself: its ``wer_default`` transform for the tokens and ``process_words`` /
``process_characters`` for the hits, substitutions, deletions and insertions of each
item (on items with several targets, which jiwer does not take, the counts of the
first best target).
"""

from __future__ import annotations

import random
import sys

import jiwer
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
from assay.metrics.registry import get_metric
from assay.text.tokenize import tokenize_jiwer

SPACES = " \t\n\r\x0b\x0c\x1c\x1f\x85\u00a0\u2028\u3000"
TEXTS = st.text(alphabet="ab" + SPACES + "é.", max_size=14)
WORDS = st.lists(st.sampled_from(["a", "b", "c", "a.", "é", "a\tb", " ", "\n", "\u00a0"]),
                 max_size=7).map(" ".join)  # fmt: skip
RATES = ("wer", "mer", "wil", "wip", "cer")


def test_only_the_space_is_printable_whitespace() -> None:
    # tokenize_jiwer's shortcut: a printable text's only whitespace is " ".
    spaces = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
    assert [c for c in spaces if c.isprintable()] == [" "]


@settings(max_examples=500)
@given(st.one_of(TEXTS, WORDS))
def test_jiwer_tokens_equal_jiwers_wer_default(text: str) -> None:
    expected = jiwer.wer_default(text)
    assert [tokenize_jiwer(text)] == (expected if expected != [[""]] else [[]])


def jiwer_counts(name: str, ref: str, hyp: str) -> tuple[int, int, int, int]:
    process = jiwer.process_characters if name == "cer" else jiwer.process_words
    out = process(ref, hyp)
    return (out.hits, out.substitutions, out.deletions, out.insertions)


def batch_stats(name: str, preds: list[str], targets: list[list[str]]) -> list[tuple]:
    """The per-item statistics ``score_corpus`` gives."""
    statistics = assay.score_corpus(name, preds, targets).statistics
    assert statistics is not None
    return list(statistics)


ONE = st.lists(st.tuples(WORDS, WORDS), min_size=1, max_size=8)


@settings(max_examples=300)
@given(ONE)
def test_corpus_statistics_equal_jiwers_per_item(items: list[tuple[str, str]]) -> None:
    preds, refs = [p for p, _ in items], [[r] for _, r in items]
    for name in RATES:
        got = batch_stats(name, preds, refs)
        expected = [
            jiwer_counts(name, r[0], p)
            if r[0].strip()
            else get_metric(name).stats_fn(p, r, _s(name))
            for p, r in zip(preds, refs, strict=True)
        ]  # jiwer refuses an empty reference: the per-item path decides those
        assert got == expected, name


def first_best(name: str, prediction: str, refs: list[str]) -> tuple[int, int, int, int]:
    """jiwer's counts of the target with the best value, the first on ties."""
    spec = get_metric(name)
    rows = [jiwer_counts(name, r, prediction) for r in refs]
    values = [spec.reduce_fn(row, _s(name)) for row in rows]
    best = max(values) if spec.higher_is_better else min(values)
    return rows[values.index(best)]


NONEMPTY = st.lists(st.sampled_from(["a", "b", "c", "a.", "é"]), min_size=1, max_size=5).map(
    " ".join
)


@settings(max_examples=200)
@given(
    st.lists(st.tuples(WORDS, st.lists(NONEMPTY, min_size=2, max_size=4)), min_size=1, max_size=5)
)
def test_several_targets_give_the_first_best_targets_jiwer_counts(
    items: list[tuple[str, list[str]]],
) -> None:
    preds, targets = [p for p, _ in items], [t for _, t in items]
    for name in RATES:
        expected = [first_best(name, p, t) for p, t in items]
        assert batch_stats(name, preds, targets) == expected, name


def _s(name: str):  # type: ignore[no-untyped-def]
    return get_metric(name).bind().settings


MANY = st.lists(st.tuples(WORDS, st.lists(WORDS, min_size=1, max_size=3)), min_size=1, max_size=6)


@settings(max_examples=300)
@given(MANY)
def test_score_corpus_statistics_equal_the_per_item_ones(
    items: list[tuple[str, list[str]]],
) -> None:
    preds, targets = [p for p, _ in items], [t for _, t in items]
    for name in RATES:
        spec, s = get_metric(name), _s(name)
        assert spec.stats_fn is not None
        per_item = [spec.stats_fn(p, t, s) for p, t in items]
        assert batch_stats(name, preds, targets) == per_item, name
        bound = assay.bind(name)
        assert [bound.score(p, t) for p, t in items] == [spec.reduce_fn(r, s) for r in per_item]


def test_score_corpus_matches_jiwer_on_a_list() -> None:
    rng = random.Random(5)
    vocab = ["the", "cat", "sat", "on", "mat", "a", "dog", "é", "東"]
    refs = [" ".join(rng.choices(vocab, k=rng.randint(1, 20))) for _ in range(400)]
    preds = [" ".join(w if rng.random() < 0.7 else rng.choice(vocab) for w in r.split())
             for r in refs]  # fmt: skip
    out = jiwer.process_words(refs, preds)
    chars = jiwer.process_characters(refs, preds)
    for name in RATES:
        result = assay.score_corpus(name, preds, [[r] for r in refs])
        if name == "cer":
            assert result.value == pytest.approx(chars.cer, abs=1e-12)
            continue
        summed = [sum(column) for column in zip(*result.statistics, strict=True)]
        assert summed == [out.hits, out.substitutions, out.deletions, out.insertions]
        assert result.value == pytest.approx(float(getattr(out, name)), abs=1e-12)

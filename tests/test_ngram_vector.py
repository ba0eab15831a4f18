"""The vectorised corpus statistics equal the per-item statistics, tuple for tuple.

``score_corpus`` computes BLEU, chrF and GLEU statistics for a whole corpus at once
(``metrics/_vector.py``); the per-item functions are the reference here, and they
are themselves checked against sacrebleu and nltk in ``test_ngram_parity.py``.
The key-size limit and chunk size are lowered in some tests to drive the dense
renumbering, the overflow fallback and chunk boundaries with small inputs.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import assay
from _ngram_cases import make_pairs
from assay.metrics import _vector
from assay.metrics.registry import get_metric

PAIRS = make_pairs(1200, seed=7)
PREDS = [p for p, _ in PAIRS]
TARGETS = [list(t) for _, t in PAIRS]

OPTIONS: list[tuple[str, dict[str, Any]]] = [
    ("bleu", {}),
    ("bleu", {"tokenizer": "whitespace", "empty_order": "nltk"}),
    ("bleu", {"max_order": 1}),
    ("bleu", {"max_order": 6, "lowercase": True}),
    ("corpus_bleu", {}),
    ("chrf", {}),
    ("chrf++", {}),
    ("chrf", {"char_order": 4, "word_order": 1, "whitespace": True, "lowercase": True}),
    ("gleu", {}),
    ("gleu", {"min_order": 2, "max_order": 3}),
    ("gleu", {"tokenizer": "whitespace", "max_order": 6}),
]


def per_item(name: str, options: dict[str, Any]) -> list[tuple[int, ...]]:
    spec = get_metric(name)
    settings = spec.bind(**options).settings
    assert spec.stats_fn is not None
    return [spec.stats_fn(p, t, settings) for p, t in zip(PREDS, TARGETS, strict=True)]


def batch(name: str, options: dict[str, Any]) -> list[tuple[int, ...]]:
    spec = get_metric(name)
    assert spec.batch_stats_fn is not None
    return spec.batch_stats_fn(PREDS, TARGETS, spec.bind(**options).settings)


@pytest.mark.parametrize(("name", "options"), OPTIONS)
def test_batch_statistics_equal_per_item(name: str, options: dict[str, Any]) -> None:
    assert batch(name, options) == per_item(name, options)


@pytest.mark.parametrize(
    ("name", "options"),
    [("bleu", {}), ("corpus_bleu", {}), ("bleu", {"normalizer": "squad", "lowercase": True})],
)
def test_single_reference_batch_equals_per_item(name: str, options: dict[str, Any]) -> None:
    # Every item with one target: BLEU's one-reference layout (and its text shortcut).
    spec = get_metric(name)
    settings = spec.bind(**options).settings
    assert spec.stats_fn is not None and spec.batch_stats_fn is not None
    single = [t[:1] for t in TARGETS]
    expected = [spec.stats_fn(p, t, settings) for p, t in zip(PREDS, single, strict=True)]
    assert spec.batch_stats_fn(PREDS, single, settings) == expected


@pytest.mark.parametrize("one_sort", [True, False])
@pytest.mark.parametrize("name", ["bleu", "chrf++", "gleu"])
def test_small_chunks_and_dense_keys(
    name: str, one_sort: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_vector, "CHUNK", 50)  # many chunks, groups never split
    monkeypatch.setattr(_vector, "_LIMIT", 1 << 40)  # forces dense renumbering
    if not one_sort:  # one-reference chunks too take the sorts per order
        monkeypatch.setattr(_vector, "_single_sorted_once", lambda *args: None)
    assert batch(name, {}) == per_item(name, {})


def test_overflow_falls_back_to_per_item(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_vector, "_LIMIT", 1 << 12)
    with pytest.raises(OverflowError):
        batch("bleu", {})
    result = assay.score_corpus("bleu", PREDS, TARGETS)
    assert list(result.statistics or ()) == per_item("bleu", {})


def test_corpus_values_equal_per_item_scores() -> None:
    for name in ("bleu", "chrf"):
        preds, targets = PREDS[:300], TARGETS[:300]
        bound = assay.bind(name)
        expected = [bound.score(p, t) for p, t in zip(preds, targets, strict=True)]
        assert list(assay.score_corpus(name, preds, targets).values) == expected


def test_empty_texts_only() -> None:
    preds, targets = [""] * 40, [[""]] * 40
    for name in ("bleu", "chrf++"):
        spec = get_metric(name)
        settings = spec.bind().settings
        assert spec.batch_stats_fn is not None and spec.stats_fn is not None
        expected = [spec.stats_fn(p, t, settings) for p, t in zip(preds, targets, strict=True)]
        assert spec.batch_stats_fn(preds, targets, settings) == expected


def test_import_assay_does_not_import_numpy() -> None:
    code = "import sys, assay; assay.score('bleu', 'a b', 'a b'); print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_lone_surrogates_and_astral_characters() -> None:
    preds = ["a\ud800b c 😀 x " * 20] * 40
    targets = [["a\ud800b d 😀 x " * 20, "c\udfff 😀"]] * 40
    for name in ("chrf", "chrf++", "bleu"):
        spec = get_metric(name)
        settings = spec.bind().settings
        assert spec.batch_stats_fn is not None and spec.stats_fn is not None
        expected = [spec.stats_fn(p, t, settings) for p, t in zip(preds, targets, strict=True)]
        assert spec.batch_stats_fn(preds, targets, settings) == expected


WORDS = st.sampled_from(["the", "cat", "sat", "on", "a", "mat", "The", "x", "", "?!"])
TEXTS = st.lists(WORDS, max_size=12).map(" ".join)
ITEMS = st.lists(st.tuples(TEXTS, st.lists(TEXTS, min_size=1, max_size=3)), min_size=1)


def bleu_4_per_item(preds: list[str], targets: list[list[str]]) -> list[float]:
    bound = assay.bind("bleu_4")
    return [bound.score(p, t) for p, t in zip(preds, targets, strict=True)]


def bleu_4_batch(preds: list[str], targets: list[list[str]]) -> list[float]:
    spec = get_metric("bleu_4")
    assert spec.batch_fn is not None
    return spec.batch_fn(preds, targets, spec.bind().settings)


@given(ITEMS, st.integers(1, 120))
def test_bleu_4_batch_equals_per_item(items: list[tuple[str, list[str]]], copies: int) -> None:
    # ``copies`` repeats the corpus past the size where the vectorised path starts
    preds = [p for p, _ in items] * copies
    targets = [t for _, t in items] * copies
    assert bleu_4_batch(preds, targets) == bleu_4_per_item(preds, targets)


def test_bleu_4_batch_on_the_shared_cases_and_at_overflow(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    expected = bleu_4_per_item(PREDS, TARGETS)
    assert bleu_4_batch(PREDS, TARGETS) == expected
    assert list(assay.score_corpus("bleu_4", PREDS, TARGETS).values) == expected
    monkeypatch.setattr(_vector, "_LIMIT", 1 << 12)  # the vectorised keys overflow
    assert bleu_4_batch(PREDS, TARGETS) == expected


@st.composite
def bleu_rows(draw: st.DrawFn) -> tuple[int, tuple[int, ...]]:
    order = draw(st.integers(1, 6))
    hyp_len, ref_len = draw(st.integers(0, 40)), draw(st.integers(0, 40))
    totals = [max(hyp_len - k, 0) for k in range(order)]
    matches = [draw(st.integers(0, t)) for t in totals]
    return order, (hyp_len, ref_len, *matches, *totals)


@given(bleu_rows(), st.booleans())
def test_exp_bleu_shortcut_equals_the_general_smoothing_loop(
    row: tuple[int, tuple[int, ...]], effective_order: bool
) -> None:
    from assay.metrics.bleu_stats import _smoothed_bleu, bleu_from_statistics

    order, stats = row
    params = get_metric("bleu").bind(max_order=order, effective_order=effective_order).params
    expected = 0.0 if stats[2] == 0 else _smoothed_bleu(stats, params)
    assert bleu_from_statistics(stats, params) == expected

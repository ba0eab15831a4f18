"""``token_f1.set``'s corpus path gives the XL-DocBench released rules' numbers.

The oracle is ``tests/xl_reference.py`` (the released evaluator restated; it imports
nothing from assay): ``token_f1`` of each prediction against each target, the max over
targets. The corpus path with other text options is held to ``bind().score``.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import assay
import xl_reference as ref
from assay.metrics.registry import get_metric
from assay.text.normalize import normalize_xldocbench
from assay.text.tokenize import tokenize_whitespace

WORDS = st.sampled_from(
    ["the", "The", "a", "an", "A.", "the.", "cat", "Cat,", "cat.", "3.5", "-", "50%", "an-",
     "answer:", "The answer is", "é", "x_y", "", " ", "\t", "don't", "(the)"]
)  # fmt: skip
TEXTS = st.one_of(st.lists(WORDS, max_size=8).map(" ".join), st.text(max_size=8))
ITEMS = st.lists(st.tuples(TEXTS, st.lists(TEXTS, min_size=1, max_size=3)), min_size=1, max_size=6)


def batch(items: list[tuple[str, list[str]]], **options: object) -> list[float]:
    spec = get_metric("token_f1.set")
    assert spec.batch_fn is not None
    preds, targets = [p for p, _ in items], [t for _, t in items]
    return spec.batch_fn(preds, targets, spec.bind(**options).settings)


def test_the_default_settings_take_the_token_set_shortcut() -> None:
    settings_ = get_metric("token_f1.set").bind().settings
    assert settings_.normalize is normalize_xldocbench
    assert settings_.tokenize is tokenize_whitespace


@settings(max_examples=400)
@given(ITEMS)
def test_corpus_path_equals_the_released_rules(items: list[tuple[str, list[str]]]) -> None:
    expected = [max(ref.token_f1(p, t) for t in targets) for p, targets in items]
    got = batch(items)
    assert got == expected
    bound = assay.bind("token_f1.set")
    assert got == [bound.score(p, t) for p, t in items]
    preds, targets = [p for p, _ in items], [t for _, t in items]
    assert list(assay.score_corpus("token_f1.set", preds, targets).values) == got


@settings(max_examples=200)
@given(ITEMS)
def test_corpus_path_with_other_text_steps_equals_the_per_item_path(
    items: list[tuple[str, list[str]]],
) -> None:
    for options in ({"normalizer": "squad"}, {"tokenizer": "word", "normalizer": "none"}):
        bound = assay.bind("token_f1.set", **options)
        assert batch(items, **options) == [bound.score(p, t) for p, t in items]

"""ROUGE-N's statistics equal the Counter arithmetic rouge-score uses, exactly.

``(hits, pred n-grams, target n-grams)`` with ``hits = Σ min(count_pred, count_target)``
over shared n-grams (rouge-score's ``_score_ngrams``), written out here with
``collections.Counter`` over full n-gram counts of both sides.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from assay.metrics.registry import get_metric

WORDS = st.sampled_from(["the", "cat", "a", "mat", "The", "sat", "x1", "?"])
TEXTS = st.lists(WORDS, max_size=14).map(" ".join)


def counter_stats(pred: list[str], ref: list[str], n: int) -> tuple[int, int, int]:
    p = Counter(zip(*(pred[k:] for k in range(n)), strict=False))
    r = Counter(zip(*(ref[k:] for k in range(n)), strict=False))
    return sum((p & r).values()), sum(p.values()), sum(r.values())


@given(TEXTS, TEXTS, st.integers(1, 9))
def test_rouge_n_statistics_equal_counter_arithmetic(pred: str, ref: str, n: int) -> None:
    spec = get_metric(f"rouge_{n}")
    settings = spec.bind().settings
    assert spec.stats_fn is not None
    expected = counter_stats(settings.tokenize(pred), settings.tokenize(ref), n)
    assert spec.stats_fn(pred, [ref], settings) == expected

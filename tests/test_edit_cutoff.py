"""ANLS's early-cut distance gives exactly the numbers of the full distance.

The thresholded metrics (``anls``, ``anls.docvqa``, ``anls_star``) ask rapidfuzz for
the Levenshtein distance only up to the largest distance whose similarity is kept.
The reference here is the full ``Levenshtein.distance`` with the metric's formula
written out as before, and a hand-checked ``kept_distance`` for every small length.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

import assay
from assay.metrics.edit import kept_distance, thresholded_similarity
from assay.text.normalize import normalize_lower_space

THRESHOLDS = [0.5, 0.1, 0.25, 1 / 3, 0.7, 0.9, 0.99, 1.0, 1e-9, 0.5000000000000001]
TEXT = st.text(alphabet=st.sampled_from(list("abcab  AßİΣ\t")), max_size=40)


def test_kept_distance_is_the_last_distance_kept() -> None:
    for threshold in THRESHOLDS:
        for length in range(1, 400):
            d = kept_distance(length, threshold)
            assert 1.0 - d / length >= threshold
            assert not 1.0 - (d + 1) / length >= threshold
            # and it agrees with exact arithmetic away from rounding ties
            exact = int((1 - Fraction(threshold)) * length)
            assert abs(d - exact) <= 1


def full_similarity(a: str, b: str, threshold: float) -> float:
    longest = max(len(a), len(b))
    value = 1.0 - (Levenshtein.distance(a, b) / longest if longest else 0.0)
    return value if value >= threshold else 0.0


@given(TEXT, TEXT, st.sampled_from(THRESHOLDS))
def test_thresholded_similarity_equals_the_full_distance(a: str, b: str, t: float) -> None:
    assert thresholded_similarity(a, b, t) == full_similarity(a, b, t)


def docvqa_full(prediction: str, target: str, threshold: float) -> float:
    length = max(len(target.upper()), len(prediction.upper()))
    if length == 0:
        return 1.0
    distance = Levenshtein.distance(
        normalize_lower_space(target), normalize_lower_space(prediction)
    )
    value = max(0.0, 1.0 - distance / length)
    return value if value >= threshold else 0.0


@given(TEXT, st.lists(TEXT, min_size=1, max_size=3), st.sampled_from([*THRESHOLDS, 0.0]))
def test_anls_metrics_equal_the_full_distance(p: str, targets: list[str], t: float) -> None:
    expected = max(full_similarity(normalize_lower_space(p), normalize_lower_space(x), t)
                   for x in targets)  # fmt: skip
    assert assay.score("anls", p, targets, threshold=t) == expected
    expected = max(docvqa_full(p, x, t) for x in targets)
    assert assay.score("anls.docvqa", p, targets, threshold=t) == expected


def full_edit_similarity(a: str, b: str) -> float:
    longest = max(len(a), len(b))
    return 1.0 - Levenshtein.distance(a, b) / longest if longest else 1.0


CORPUS = st.lists(st.tuples(TEXT, st.lists(TEXT, min_size=1, max_size=3)), min_size=1,
                  max_size=12)  # fmt: skip


@given(CORPUS, st.sampled_from([*THRESHOLDS, 0.0]))
def test_anls_corpus_batch_equals_the_full_distance(items: list, t: float) -> None:
    preds, targets = [p for p, _ in items], [x for _, x in items]
    n = normalize_lower_space
    expected = [max(full_similarity(n(p), n(x), t) for x in xs) for p, xs in items]
    result = assay.score_corpus("anls", preds, targets, threshold=t)
    assert list(result.values) == expected
    assert result.value == sum(expected) / len(expected)


@given(CORPUS, st.sampled_from(["lower-space", "none", "squad"]))
def test_edit_similarity_corpus_batch_equals_the_full_distance(items: list, norm: str) -> None:
    preds, targets = [p for p, _ in items], [x for _, x in items]
    bound = assay.bind("edit_similarity", normalizer=norm)
    f = bound.settings.normalize
    expected = [max(full_edit_similarity(f(p), f(x)) for x in xs) for p, xs in items]
    values = assay.score_corpus("edit_similarity", preds, targets, normalizer=norm).values
    assert list(values) == expected
    assert expected == [bound.score(p, xs) for p, xs in items]

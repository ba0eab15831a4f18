"""SQuAD's normaliser fast path and corpus path give the official scripts' numbers.

The oracle is the official v1.1 / v2.0 scripts' ``normalize_answer``, ``f1_score`` /
``compute_f1``, ``exact_match_score`` / ``compute_exact`` and their max over gold
answers (v2.0 dropping golds that normalise to empty), restated below from the
scripts. The alphabet mixes ASCII letters of both cases, digits, every ASCII
punctuation mark, the articles, ASCII control characters (which are neither word
characters nor whitespace: the regex splits words at them) and non-ASCII text.
"""

from __future__ import annotations

import re
import string
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import assay
from assay.metrics.registry import get_metric
from assay.text.normalize import normalize_squad, squad_tokens


def official_normalize_answer(s: str) -> str:
    """The scripts' ``normalize_answer``: lower, remove_punc, remove_articles, white_space_fix."""
    exclude = set(string.punctuation)
    text = "".join(ch for ch in s.lower() if ch not in exclude)
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())


def official_f1(prediction: str, ground_truth: str, v2: bool) -> float:
    pred = official_normalize_answer(prediction).split()
    gold = official_normalize_answer(ground_truth).split()
    if v2 and (len(gold) == 0 or len(pred) == 0):
        return int(gold == pred)
    num_same = sum((Counter(pred) & Counter(gold)).values())
    if num_same == 0:
        return 0
    precision, recall = 1.0 * num_same / len(pred), 1.0 * num_same / len(gold)
    return (2 * precision * recall) / (precision + recall)


def official_em(prediction: str, ground_truth: str) -> float:
    return float(official_normalize_answer(prediction) == official_normalize_answer(ground_truth))


def official_score(metric: str, prediction: str, golds: list[str]) -> float:
    """``metric_max_over_ground_truths`` (v1.1) or the v2.0 filtered max."""
    v2 = metric.startswith("squad_v2")
    if v2:
        golds = [g for g in golds if official_normalize_answer(g)] or [""]
    if metric.endswith(".em"):
        return max(official_em(prediction, g) for g in golds)
    return max(official_f1(prediction, g, v2) for g in golds)


CONTROLS = "".join(chr(c) for c in (*range(32), 127))
ALPHABET = (
    string.ascii_letters[::3] + "AZaz09_ " + string.punctuation + CONTROLS + "éÉİK\u00a0\u2028\x85ß"
)
PIECES = st.one_of(
    st.sampled_from(
        ["a", "an", "the", "A", "An", "THE", "The.", "(the)", "an-", "a\x01", "\x1fthe"]
    ),
    st.text(alphabet=ALPHABET, max_size=6),
)
TEXTS = st.lists(PIECES, max_size=8).map(" ".join)
ASCII_WORDS = ["a", "The", "CAT", "sat,", "on", "an", "Mat.", "x_y", "\t"]
ASCII_TEXTS = st.lists(st.sampled_from(ASCII_WORDS), max_size=8).map(" ".join)
METRICS = ("squad_v1.em", "squad_v1.f1", "squad_v2.em", "squad_v2.f1")


@settings(max_examples=600)
@given(st.one_of(TEXTS, ASCII_TEXTS))
def test_squad_tokens_equal_the_official_normalisation(text: str) -> None:
    expected = official_normalize_answer(text)
    assert squad_tokens(text) == expected.split()
    assert normalize_squad(text) == expected


def test_squad_tokens_by_hand() -> None:
    assert squad_tokens("The Cat, an   APPLE!") == ["cat", "apple"]
    assert squad_tokens("a\x01b the\tend") == ["\x01b", "end"]  # a control splits words
    assert squad_tokens("théme the_end An") == ["théme", "theend"]
    assert squad_tokens("  ...  ") == []


ITEMS = st.lists(
    st.tuples(st.one_of(TEXTS, ASCII_TEXTS), st.lists(st.one_of(TEXTS, ASCII_TEXTS), min_size=1,
                                                      max_size=3)),
    min_size=1, max_size=6,
)  # fmt: skip


@settings(max_examples=300)
@given(ITEMS)
def test_squad_corpus_path_equals_the_official_scripts(items: list[tuple[str, list[str]]]) -> None:
    preds, targets = [p for p, _ in items], [t for _, t in items]
    for metric in METRICS:
        spec = get_metric(metric)
        assert spec.batch_fn is not None
        got = spec.batch_fn(preds, targets, spec.bind().settings)
        bound = assay.bind(metric)
        assert got == [official_score(metric, p, t) for p, t in items], metric
        assert got == [bound.score(p, t) for p, t in items], metric
        assert list(assay.score_corpus(metric, preds, targets).values) == got


def test_squad_corpus_path_on_many_answers_against_the_official_scripts() -> None:
    import random

    rng = random.Random(7)
    words = ["the", "The", "a", "an", "cat", "Cat,", "sat", "mat.", "x", "don't", "é", "\x02"]
    preds, targets = [], []
    for _ in range(2000):
        preds.append(" ".join(rng.choices(words, k=rng.randint(0, 6))))
        targets.append([" ".join(rng.choices(words, k=rng.randint(0, 6)))
                        for _ in range(rng.randint(1, 3))])  # fmt: skip
    for metric in METRICS:
        values = assay.score_corpus(metric, preds, targets).values
        expected = [official_score(metric, p, t) for p, t in zip(preds, targets, strict=True)]
        assert list(values) == expected

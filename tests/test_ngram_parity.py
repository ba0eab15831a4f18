"""Parity of the n-gram metrics with sacrebleu, nltk and rouge-score.

Every expected value comes from the reference implementation installed in the
venv; ``_ngram_cases.make_pairs`` generates the varied, seeded inputs. Tolerance
1e-9 after scale conversion (sacrebleu reports ×100). The maximum differences
observed are listed in ``docs/parity.md``.
"""

from __future__ import annotations

import logging
import math
import random
import warnings
from collections.abc import Sequence

import pytest
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu
from nltk.translate.gleu_score import corpus_gleu, sentence_gleu
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU, CHRF
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

import assay
from _ngram_cases import make_pairs
from assay.text.tokenize import tokenize_13a

logging.getLogger("sacrebleu").setLevel(logging.ERROR)

TOL = 1e-9
PAIRS = make_pairs(2400, seed=20261129)
PREDS = [p for p, _ in PAIRS]
TARGETS = [t for _, t in PAIRS]
SAMPLE = PAIRS[:600]


def max_diff(ours: Sequence[float], theirs: Sequence[float]) -> float:
    assert len(ours) == len(theirs)
    return max(abs(a - b) for a, b in zip(ours, theirs, strict=True))


def sacre_refs(targets: Sequence[Sequence[str]]) -> list[list[str | None]]:
    """sacrebleu's layout: one stream per reference slot, None where an item has fewer."""
    width = max(len(t) for t in targets)
    return [[t[k] if k < len(t) else None for t in targets] for k in range(width)]


def test_generated_pairs_are_varied() -> None:
    assert len(PAIRS) >= 2000
    assert sum(1 for p in PREDS if p == "") > 50
    assert sum(1 for t in TARGETS if "" in t) > 50
    assert sum(1 for t in TARGETS if len(t) > 1) > 500
    assert sum(1 for p in PREDS if len(p.split()) == 1) > 100
    assert sum(1 for p in PREDS if len(p.split()) > 40) > 50
    assert sum(1 for p in PREDS if "\n" in p) > 100
    assert sum(1 for p in PREDS if any(ord(c) > 127 for c in p)) > 300
    assert sum(1 for p in PREDS if len(set(p.split())) < len(p.split()) / 2) > 100


# --- sacrebleu BLEU ---------------------------------------------------------------

SACRE_SMOOTHINGS = ("none", "floor", "add-k", "exp")


@pytest.mark.parametrize("effective_order", [True, False])
@pytest.mark.parametrize("smoothing", SACRE_SMOOTHINGS)
def test_sentence_bleu_matches_sacrebleu_on_pretokenised(
    smoothing: str, effective_order: bool
) -> None:
    ref = BLEU(tokenize="none", smooth_method=smoothing, effective_order=effective_order)
    bound = assay.bind(
        "bleu", tokenizer="whitespace", smoothing=smoothing, effective_order=effective_order
    )
    ours = [bound.score(p, t) for p, t in PAIRS]
    theirs = [ref.sentence_score(p, t).score / 100 for p, t in PAIRS]
    assert max_diff(ours, theirs) < TOL


@pytest.mark.parametrize("smoothing", SACRE_SMOOTHINGS)
def test_corpus_bleu_matches_sacrebleu_on_pretokenised(smoothing: str) -> None:
    ref = BLEU(tokenize="none", smooth_method=smoothing)
    result = assay.score_corpus(
        "corpus_bleu", PREDS, TARGETS, tokenizer="whitespace", smoothing=smoothing
    )
    expected = ref.corpus_score(PREDS, sacre_refs(TARGETS)).score / 100
    assert result.is_mean is False
    assert abs(result.value - expected) < TOL


def test_bleu_matches_sacrebleu_13a_on_raw_text() -> None:
    ref = BLEU(tokenize="13a", effective_order=True)
    bound = assay.bind("bleu", tokenizer="13a")
    ours = [bound.score(p, t) for p, t in PAIRS]
    theirs = [ref.sentence_score(p, t).score / 100 for p, t in PAIRS]
    assert max_diff(ours, theirs) < TOL


def test_corpus_bleu_defaults_match_sacrebleu_corpus_bleu() -> None:
    ref = BLEU()  # sacrebleu's defaults: 13a, exp, no effective order
    result = assay.score_corpus("corpus_bleu", PREDS, TARGETS)
    assert abs(result.value - ref.corpus_score(PREDS, sacre_refs(TARGETS)).score / 100) < TOL
    stats = ref._extract_corpus_statistics(PREDS, sacre_refs(TARGETS))
    assert [list(row) for row in result.statistics or ()] == stats


def test_lowercase_bleu_matches_sacrebleu() -> None:
    ref = BLEU(tokenize="13a", lowercase=True, smooth_method="floor", effective_order=True)
    bound = assay.bind("bleu", tokenizer="13a", lowercase=True, smoothing="floor")
    ours = [bound.score(p, t) for p, t in SAMPLE]
    theirs = [ref.sentence_score(p, t).score / 100 for p, t in SAMPLE]
    assert max_diff(ours, theirs) < TOL


# --- nltk BLEU --------------------------------------------------------------------

NLTK_METHODS = {"floor": "method1", "add-k": "method2", "exp": "method3"}


def _split(targets: Sequence[str]) -> list[list[str]]:
    return [t.split() for t in targets]


@pytest.mark.parametrize("smoothing", sorted(NLTK_METHODS))
def test_sentence_and_corpus_bleu_match_nltk(smoothing: str) -> None:
    method = getattr(SmoothingFunction(), NLTK_METHODS[smoothing])
    options = {"tokenizer": "whitespace", "smoothing": smoothing, "empty_order": "floor-one"}
    bound = assay.bind("bleu", effective_order=False, **options)
    ours = [bound.score(p, t) for p, t in PAIRS]
    theirs = [sentence_bleu(_split(t), p.split(), smoothing_function=method) for p, t in PAIRS]
    assert max_diff(ours, theirs) < TOL
    corpus = assay.score_corpus("corpus_bleu", PREDS, TARGETS, **options).value
    expected = corpus_bleu(
        [_split(t) for t in TARGETS], [p.split() for p in PREDS], smoothing_function=method
    )
    assert abs(corpus - expected) < TOL


def test_unsmoothed_bleu_is_zero_where_nltk_returns_a_tiny_number() -> None:
    """Documented difference: nltk's method0 puts sys.float_info.min in a zero order."""
    bound = assay.bind(
        "bleu", tokenizer="whitespace", smoothing="none", effective_order=False, empty_order="nltk"
    )
    tiny = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for p, t in SAMPLE:
            ours, theirs = bound.score(p, t), sentence_bleu(_split(t), p.split())
            if ours == 0.0 and theirs != 0.0:
                assert theirs < 1e-70
                tiny += 1
            else:
                assert abs(ours - theirs) < TOL
    assert tiny > 10


# --- GLEU -------------------------------------------------------------------------


def test_gleu_matches_nltk_sentence_and_corpus() -> None:
    bound = assay.bind("gleu", tokenizer="whitespace")
    ours = [bound.score(p, t) for p, t in PAIRS]
    theirs = [sentence_gleu(_split(t), p.split()) for p, t in PAIRS]
    assert max_diff(ours, theirs) < TOL
    corpus = assay.score_corpus("gleu", PREDS, TARGETS, tokenizer="whitespace")
    expected = corpus_gleu([_split(t) for t in TARGETS], [p.split() for p in PREDS])
    assert corpus.is_mean is False
    assert abs(corpus.value - expected) < TOL


def test_gleu_orders_match_nltk() -> None:
    bound = assay.bind("gleu", tokenizer="whitespace", min_order=2, max_order=3)
    ours = [bound.score(p, t) for p, t in SAMPLE]
    theirs = [sentence_gleu(_split(t), p.split(), min_len=2, max_len=3) for p, t in SAMPLE]
    assert max_diff(ours, theirs) < TOL


# --- ROUGE ------------------------------------------------------------------------

ROUGE_NAMES = {
    "rouge_1": "rouge1",
    "rouge_2": "rouge2",
    "rouge_l": "rougeL",
    "rouge_lsum": "rougeLsum",
}
MEASURES = {"f": "fmeasure", "p": "precision", "r": "recall"}


def _rouge_check(pairs: Sequence[tuple[str, list[str]]], stem: bool) -> float:
    scorer = rouge_scorer.RougeScorer(list(ROUGE_NAMES.values()), use_stemmer=stem)
    tokenizer = "rouge-score-stem" if stem else "rouge-score"
    bound = {
        (name, m): assay.bind(name, tokenizer=tokenizer, measure=m)
        for name in ROUGE_NAMES
        for m in MEASURES
    }
    worst = 0.0
    for p, t in pairs:
        expected = scorer.score(t[0], p) if len(t) == 1 else scorer.score_multi(t, p)
        for (name, m), metric in bound.items():
            theirs = getattr(expected[ROUGE_NAMES[name]], MEASURES[m])
            worst = max(worst, abs(metric.score(p, t) - theirs))
    return worst


def test_rouge_matches_rouge_score_with_its_tokenizer() -> None:
    assert _rouge_check(PAIRS, stem=False) < TOL


def test_rouge_matches_rouge_score_with_porter_stemmer() -> None:
    assert _rouge_check(SAMPLE, stem=True) < TOL


# --- chrF -------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "word_order"), [("chrf", 0), ("chrf++", 2)])
def test_chrf_matches_sacrebleu(name: str, word_order: int) -> None:
    ref = CHRF(word_order=word_order)
    bound = assay.bind(name)
    ours = [bound.score(p, t) for p, t in PAIRS]
    theirs = [ref.sentence_score(p, t).score / 100 for p, t in PAIRS]
    assert max_diff(ours, theirs) < TOL
    corpus = assay.score_corpus(name, PREDS, TARGETS)
    assert abs(corpus.value - ref.corpus_score(PREDS, sacre_refs(TARGETS)).score / 100) < TOL


def test_chrf_options_match_sacrebleu() -> None:
    ref = CHRF(char_order=4, word_order=1, beta=1, lowercase=True, whitespace=True)
    bound = assay.bind("chrf", char_order=4, word_order=1, beta=1, lowercase=True, whitespace=True)
    ours = [bound.score(p, t) for p, t in SAMPLE]
    theirs = [ref.sentence_score(p, t).score / 100 for p, t in SAMPLE]
    assert max_diff(ours, theirs) < TOL


# --- the 13a tokenizer ------------------------------------------------------------

_13A_PIECES = (
    "Hello, world.",
    "3.14",
    "1,000,000",
    "5-6",
    "a-b",
    "x -y",
    "&amp; &quot;q&quot; &lt;b&gt;",
    "<skipped>",
    "end-\nline",
    "line\nbreak",
    "tab\there",
    "(paren)",
    "[b]",
    "{c}",
    "~^`|",
    "e.g.",
    "U.S.",
    "$5.00",
    "50%",
    "it's",
    "don't!",
    "café.",
    "東京、日本。",
    "ü,ä",
    "...",
    "9.",
    ".9",
    ",5",
    "5,",
    "a.b",
    "@#!",
    "  spaced  ",
    "\u00a0nbsp",
    "-\n",
    "\n",
)


def test_13a_tokenizer_matches_sacrebleu() -> None:
    rng = random.Random(13)
    sacre = Tokenizer13a()
    texts = list(_13A_PIECES) + [p for p, _ in PAIRS[:500]]
    for _ in range(1500):
        texts.append(
            "".join(rng.choice(_13A_PIECES + (" ", "x", "7")) for _ in range(rng.randint(1, 8)))
        )
    for text in texts:
        assert tokenize_13a(text) == sacre(text).split(), text


def test_corpus_result_values_equal_item_scores() -> None:
    for name in ("bleu", "rouge_l", "chrf", "gleu", "f1"):
        bound = assay.bind(name)
        result = assay.score_corpus(name, PREDS[:200], TARGETS[:200])
        assert list(result.values) == [bound.score(p, t) for p, t in PAIRS[:200]]
        if result.is_mean:
            assert math.isclose(result.value, math.fsum(result.values) / 200, abs_tol=1e-12)


@pytest.mark.parametrize("max_order", [1, 2, 6])
def test_bleu_max_order_matches_sacrebleu_and_nltk(max_order: int) -> None:
    ref = BLEU(tokenize="none", max_ngram_order=max_order, effective_order=True)
    bound = assay.bind("bleu", tokenizer="whitespace", max_order=max_order)
    ours = [bound.score(p, t) for p, t in SAMPLE]
    theirs = [ref.sentence_score(p, t).score / 100 for p, t in SAMPLE]
    assert max_diff(ours, theirs) < TOL
    nltk_bound = assay.bind(
        "bleu",
        tokenizer="whitespace",
        max_order=max_order,
        smoothing="floor",
        empty_order="nltk",
        effective_order=False,
    )
    method1 = SmoothingFunction().method1
    weights = (1 / max_order,) * max_order
    ours = [nltk_bound.score(p, t) for p, t in SAMPLE]
    theirs = [
        sentence_bleu(_split(t), p.split(), weights=weights, smoothing_function=method1)
        for p, t in SAMPLE
    ]
    assert max_diff(ours, theirs) < TOL


def test_rouge_lsum_matches_rouge_score_on_many_lines_with_few_words() -> None:
    """Many lines over a five-word vocabulary: LCS ties everywhere, unions that fill up
    early (the summary-level code skips predicted lines that cannot add a position)."""
    rng = random.Random(11)
    scorer = rouge_scorer.RougeScorer(["rougeLsum"])
    bound = assay.bind("rouge_lsum", tokenizer="rouge-score")
    worst = 0.0
    for _ in range(300):
        lines = [
            [
                " ".join(rng.choice("a b c d e".split()) for _ in range(rng.randint(1, 9)))
                for _ in range(rng.randint(1, 8))
            ]
            for _ in range(2)
        ]
        pred, target = "\n".join(lines[0]), "\n".join(lines[1])
        worst = max(
            worst, abs(bound.score(pred, target) - scorer.score(target, pred)["rougeLsum"].fmeasure)
        )
    assert worst < TOL

"""The peers' named variants: ROUGE-N for N = 3 … 9 (rouge-score), nltk BLEU smoothing
methods 4–7 and weights, sacrebleu's floor with ε = 0, tf-nmt's shortest-reference
brevity penalty, HF evaluate's exact_match options, chrF eps_smoothing.

Expected values come from the peer packages installed in the test extra, the peers'
published examples, or (tf-nmt, which is not installable here) its published formula.
"""

from __future__ import annotations

import collections
import json
import math
import warnings
from pathlib import Path

import pytest
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU, CHRF

import assay
from _ngram_cases import make_pairs

TOL = 1e-9
PAIRS = make_pairs(400, seed=31)


@pytest.mark.parametrize("n", range(3, 10))
def test_rouge_n_matches_rouge_score(n: int) -> None:
    scorer = rouge_scorer.RougeScorer([f"rouge{n}"])
    bound = {m: assay.bind(f"rouge_{n}", tokenizer="rouge-score", measure=m) for m in "fpr"}
    worst = 0.0
    for prediction, targets in PAIRS:
        if len(targets) == 1:
            expected = scorer.score(targets[0], prediction)[f"rouge{n}"]
        else:
            expected = scorer.score_multi(targets, prediction)[f"rouge{n}"]
        for m, attr in (("f", "fmeasure"), ("p", "precision"), ("r", "recall")):
            worst = max(worst, abs(bound[m].score(prediction, targets) - getattr(expected, attr)))
    assert worst <= TOL
    assert assay.get_metric(f"rouge{n}").name == f"rouge_{n}"


# --- nltk BLEU: smoothing methods 4-7, custom weights ---------------------------------

NEW_METHODS = {
    "method4": "length-exp",
    "method5": "average-3",
    "method6": "prior-interp",
    "method7": "length-exp+average-3",
}
NLTK_OPTIONS = {"tokenizer": "whitespace", "empty_order": "floor-one", "effective_order": False}


def _nltk(targets: list[str], prediction: str, method: str, weights: tuple[float, ...]) -> float:
    smoother = getattr(SmoothingFunction(), method)
    return float(
        sentence_bleu([t.split() for t in targets], prediction.split(), weights, smoother)
    )


@pytest.mark.parametrize("method", sorted(NEW_METHODS))
@pytest.mark.parametrize("weights", [(0.25,) * 4, (0.5, 0.5), (0.1, 0.2, 0.3, 0.2, 0.2)])
def test_nltk_smoothing_4_to_7_and_weights_match_nltk(
    method: str, weights: tuple[float, ...]
) -> None:
    bound = assay.bind("bleu", smoothing=method, weights=weights, **NLTK_OPTIONS)
    assert f"|smooth:{NEW_METHODS[method]}|" in bound.signature
    worst, compared, refused = 0.0, 0, 0
    for prediction, targets in PAIRS[:250]:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                theirs = _nltk(targets, prediction, method, weights)
        except (AssertionError, IndexError, ZeroDivisionError):
            # nltk method6 needs 3+ orders and a non-zero trigram precision; assay computes on.
            refused += 1
            assert 0.0 <= bound.score(prediction, targets) <= 1.0 + 1e-12
            continue
        worst = max(worst, abs(bound.score(prediction, targets) - theirs))
        compared += 1
    # With two orders nltk's method6 always fails (IndexError) unless BLEU is 0 up front.
    assert worst <= TOL and compared >= (40 if len(weights) < 3 else 100), (compared, refused)


def test_method_aliases_are_recorded_under_assay_names() -> None:
    for alias, name in {"method0": "none", "method1": "floor", "method2": "add-k",
                        "method3": "exp", **NEW_METHODS}.items():  # fmt: skip
        assert f"|smooth:{name}|" in assay.signature("bleu", smoothing=alias)


def test_corpus_bleu_length_exp_matches_nltk_corpus_bleu() -> None:
    # method4 reads only summed statistics and the total hypothesis length, as nltk does.
    preds, targets = [p for p, _ in PAIRS], [t for _, t in PAIRS]
    ours = assay.score_corpus("corpus_bleu", preds, targets, smoothing="method4", **NLTK_OPTIONS)
    theirs = corpus_bleu([[t.split() for t in ts] for ts in targets], [p.split() for p in preds],
                         smoothing_function=SmoothingFunction().method4)  # fmt: skip
    assert ours.value == pytest.approx(theirs, abs=TOL)


def test_custom_weights_match_nltk_without_smoothing_where_every_order_matches() -> None:
    bound = assay.bind("bleu", smoothing="none", weights=(0.1, 0.3, 0.5, 0.1), **NLTK_OPTIONS)
    compared = 0
    for prediction, targets in PAIRS:
        value = bound.score(prediction, targets)
        if value > 0:
            theirs = sentence_bleu([t.split() for t in targets], prediction.split(),
                                   (0.1, 0.3, 0.5, 0.1))  # fmt: skip
            assert value == pytest.approx(theirs, abs=TOL)
            compared += 1
    assert compared > 50


def test_weights_set_the_number_of_orders() -> None:
    assert "|order:2|" in assay.signature("bleu", weights=(0.5, 0.5))
    assert "|w:(0.5, 0.5)|" in assay.signature("bleu", weights=(0.5, 0.5))
    with pytest.raises(assay.InvalidOptionError, match="2 weights but max_order=3"):
        assay.bind("bleu", weights=(0.5, 0.5), max_order=3)
    assert assay.signature("bleu") == (
        "bleu|tok:word|norm:none|order:4|lc:no|smooth:exp|eps:0.1|k:1.0|eff:yes|empty:stop"
        "|multi:native|v:0.1.0"
    )


def test_hf_corpus_example_with_weights_matches_nltk_docstring() -> None:
    # nltk's corpus_bleu docstring: weights (0.1, 0.3, 0.5, 0.1) give 0.5818...
    hyp1 = ("It is a guide to action which ensures that the military always obeys the "
            "commands of the party")  # fmt: skip
    ref1 = [
        "It is a guide to action that ensures that the military will forever heed Party commands",
        "It is the guiding principle which guarantees the military forces always being under "
        "the command of the Party",
        "It is the practical guide for the army always to heed the directions of the party",
    ]
    hyp2 = "he read the book because he was interested in world history"
    ref2 = ["he was interested in world history because he read the book"]
    options = {"tokenizer": "whitespace", "smoothing": "none", "empty_order": "floor-one"}
    value = assay.score_corpus("corpus_bleu", [hyp1, hyp2], [ref1, ref2], **options).value
    assert 0.5920 <= value < 0.5921
    weighted = assay.score_corpus(
        "corpus_bleu", [hyp1, hyp2], [ref1, ref2], weights=(0.1, 0.3, 0.5, 0.1), **options
    ).value
    assert 0.5818 <= weighted < 0.5819


# --- floor ε = 0 (sacrebleu) and the shortest-reference brevity penalty ------------------


def test_floor_with_zero_epsilon_matches_sacrebleu() -> None:
    sacre = BLEU(tokenize="none", smooth_method="floor", smooth_value=0.0, effective_order=True)
    bound = assay.bind("bleu", tokenizer="whitespace", smoothing="floor", epsilon=0.0)
    assert "|eps:0.0|" in bound.signature
    worst = max(
        abs(bound.score(p, t) - sacre.sentence_score(p, t).score / 100) for p, t in PAIRS[:300]
    )
    assert worst <= TOL


def _tf_nmt_bleu(preds: list[str], targets: list[list[str]]) -> float:
    """tf-nmt ``compute_bleu`` (HF ``bleu``) from its published definition, smooth=False."""
    matches, possible, c, r = [0] * 4, [0] * 4, 0, 0
    for pred, refs in zip(preds, targets, strict=True):
        hyp, toks = pred.split(), [t.split() for t in refs]
        c, r = c + len(hyp), r + min(len(t) for t in toks)
        for n in range(1, 5):
            grams = collections.Counter(tuple(hyp[i : i + n]) for i in range(len(hyp) - n + 1))
            best: collections.Counter[tuple[str, ...]] = collections.Counter()
            for t in toks:
                best |= collections.Counter(tuple(t[i : i + n]) for i in range(len(t) - n + 1))
            matches[n - 1] += sum((grams & best).values())
            possible[n - 1] += max(0, len(hyp) - n + 1)
    precisions = [m / p if p > 0 else 0.0 for m, p in zip(matches, possible, strict=True)]
    if min(precisions) == 0:
        return 0.0
    ratio = c / r
    bp = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)
    return bp * math.exp(sum(math.log(p) for p in precisions) / 4)


def test_shortest_reference_brevity_penalty_is_tf_nmts() -> None:
    multi = [(p, t) for p, t in PAIRS if len(t) > 1 and p and all(x.split() for x in t)]
    preds, targets = [p for p, _ in multi], [t for _, t in multi]
    ours = assay.score_corpus("corpus_bleu", preds, targets, tokenizer="whitespace",
                              smoothing="none", brevity="shortest")  # fmt: skip
    assert "|bp:shortest|" in ours.signature
    assert ours.value == pytest.approx(_tf_nmt_bleu(preds, targets), abs=TOL)
    # Every n-gram matches the long reference; only the penalty's reference length differs.
    pred, refs = "a b c d e", ["a b c d e f", "a b"]
    assert assay.score("bleu", pred, refs, brevity="shortest") == 1.0
    assert assay.score("bleu", pred, refs) == pytest.approx(math.exp(1 - 6 / 5))


# --- HF evaluate exact_match options ---------------------------------------------------

QA_VECTORS = Path(__file__).parent / "vectors" / "qa" / "exact_match.jsonl"
CORPUS_ROWS = [
    row
    for row in map(json.loads, QA_VECTORS.read_text(encoding="utf-8").splitlines())
    if "predictions" in row
]


@pytest.mark.parametrize("row", CORPUS_ROWS, ids=lambda r: json.dumps(r["options"]))
def test_exact_match_hf_examples(row: dict) -> None:
    result = assay.score_corpus(
        "exact_match", row["predictions"], row["targets_list"], **row["options"]
    )
    assert result.value == pytest.approx(row["expected"], abs=row["tolerance"])


def test_exact_match_options_are_signed_only_when_set() -> None:
    assert assay.signature("exact_match") == "exact_match|tok:none|norm:strip|multi:max|v:0.1.0"
    sig = assay.signature("exact_match", ignore_case=True, regexes_to_ignore=["a|b"])
    assert sig == (
        'exact_match|tok:none|norm:strip|ignore_re:["a\\u007cb"]|ignore_case:yes|multi:max|v:0.1.0'
    )
    with pytest.raises(assay.InvalidOptionError, match="not a valid regular expression"):
        assay.bind("exact_match", regexes_to_ignore=["("])
    with pytest.raises(assay.InvalidOptionError, match="list of regular expressions"):
        assay.bind("exact_match", regexes_to_ignore="the ")


# --- chrF eps_smoothing (sacrebleu's definition) -----------------------------------------


@pytest.mark.parametrize(("name", "word_order"), [("chrf", 0), ("chrf++", 2)])
def test_chrf_eps_smoothing_matches_sacrebleu(name: str, word_order: int) -> None:
    peer = CHRF(word_order=word_order, eps_smoothing=True)
    bound = assay.bind(name, eps_smoothing=True)
    assert "|eps:yes|" in bound.signature and "|eps:" not in assay.signature(name)
    worst = max(
        abs(bound.score(p, t) - peer.sentence_score(p, t).score / 100) for p, t in PAIRS
    )
    assert worst <= TOL
    preds, targets = [p for p, _ in PAIRS], [t for _, t in PAIRS]
    width = max(len(t) for t in targets)
    streams = [[t[k] if k < len(t) else None for t in targets] for k in range(width)]
    theirs = peer.corpus_score(preds, streams).score / 100
    assert assay.score_corpus(name, preds, targets, eps_smoothing=True).value == pytest.approx(
        theirs, abs=TOL
    )

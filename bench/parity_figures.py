"""Issue 13's parity figures: per peer, the cases compared and the largest difference.

Usage: ``PYTHONPATH=src python bench/parity_figures.py [PAIRS]`` (default 400 pairs per
row). Every row scores the same seeded corpora (``tests/_ngram_cases.make_pairs``)
with assay and with the installed peer, and prints the peer's version, the assay call,
the number of values compared and the maximum absolute difference (0-1 scale; sacrebleu
divided by 100). The tests assert the same agreements at 1e-9 on their own corpora; this
script is where the closing note's figures come from. It takes about a minute.
"""

from __future__ import annotations

import logging
import random
import sys
import warnings
from collections.abc import Callable, Iterable, Sequence
from importlib.metadata import version
from pathlib import Path

import jiwer
import numpy as np
from anls_star import anls_score
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
from rouge_score import rouge_scorer, scoring
from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
from sacrebleu.tokenizers.tokenizer_ja_mecab import TokenizerJaMecab
from sacrebleu.tokenizers.tokenizer_ko_mecab import TokenizerKoMecab
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

import assay
from assay.metrics.anls_star import anls_star

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from _ngram_cases import make_pairs  # noqa: E402  (the tests' seeded generator)

logging.getLogger("sacrebleu").setLevel(logging.ERROR)
Row = tuple[str, str, int, float]
Pairs = Sequence[tuple[str, list[str]]]


def worst(pairs: Iterable[tuple[float, float]]) -> tuple[int, float]:
    """``(count, max |a - b|)`` over pairs of values."""
    diffs = [abs(a - b) for a, b in pairs]
    return len(diffs), max(diffs)


def jiwer_rows(pairs: Pairs) -> list[Row]:
    """WER, MER, WIL, WIP per sentence and corpus; CER per sentence and corpus."""
    one = [(p, t[0]) for p, t in pairs if t[0].strip()]  # jiwer refuses an empty reference
    rows = []
    for name in ("wer", "mer", "wil", "wip", "cer"):
        peer: Callable[..., float] = getattr(jiwer, name)
        n, diff = worst((assay.score(name, p, [t]), float(peer(t, p))) for p, t in one)
        preds, refs = [p for p, _ in one], [t for _, t in one]
        corpus = assay.score_corpus(name, preds, refs).value
        diff = max(diff, abs(corpus - float(peer(refs, preds))))
        rows.append((f"`{name}` sentence + corpus", f"jiwer.{name}", n + 1, diff))
    return rows


def ter_rows(pairs: Pairs) -> list[Row]:
    """TER with sacrebleu's defaults and three option sets, sentence values."""
    rows = []
    for options in ({}, {"normalized": True}, {"no_punct": True, "case_sensitive": True},
                    {"normalized": True, "asian_support": True, "no_punct": True}):  # fmt: skip
        peer = TER(**options)
        bound = assay.bind("ter", **options)
        n, diff = worst(
            (bound.score(p, t), peer.sentence_score(p, t).score / 100) for p, t in pairs
        )
        label = ", ".join(f"{k}" for k in options) or "defaults"
        rows.append((f"`ter` ({label})", "sacrebleu TER.sentence_score", n, diff))
    return rows


TOKENIZERS = {
    "intl": ("intl", TokenizerV14International()),
    "zh": ("zh", TokenizerZh()),
    "ja-mecab": ("ja-mecab", TokenizerJaMecab()),
    "ko-mecab": ("ko-mecab", TokenizerKoMecab()),
    "sacrebleu-char": ("char", TokenizerChar()),
}


def tokenizer_rows(pairs: Pairs) -> list[Row]:
    """Token lists (1 per mismatching text) and sentence BLEU for each sacrebleu tokenizer."""
    texts = [text for p, t in pairs for text in (p, *t)]
    rows = []
    for name, (sacre, peer) in TOKENIZERS.items():
        mismatches = sum(assay.tokenize(x, name) != peer(x.strip()).split() for x in texts)
        rows.append((f"tokenizer `{name}`: token lists differing", "sacrebleu tokenizer",
                     len(texts), float(mismatches)))  # fmt: skip
        bleu = BLEU(tokenize=sacre, effective_order=True)
        bound = assay.bind("bleu", tokenizer=name, smoothing="exp")
        n, diff = worst(
            (bound.score(p, t), bleu.sentence_score(p, t).score / 100) for p, t in pairs
        )
        rows.append((f"sentence BLEU, tokenizer `{name}`", "sacrebleu BLEU", n, diff))
    return rows


def variant_rows(pairs: Pairs) -> list[Row]:
    """chrF eps_smoothing, floor ε = 0, nltk methods 4-7, ROUGE-3 … 9, L, Lsum."""
    rows = []
    chrf = CHRF(eps_smoothing=True)
    bound = assay.bind("chrf", eps_smoothing=True)
    n, diff = worst((bound.score(p, t), chrf.sentence_score(p, t).score / 100) for p, t in pairs)
    rows.append(("`chrf`, `eps_smoothing=True`", "sacrebleu CHRF", n, diff))
    floor = BLEU(tokenize="none", smooth_method="floor", smooth_value=0.0, effective_order=True)
    bound = assay.bind("bleu", tokenizer="whitespace", smoothing="floor", epsilon=0.0)
    n, diff = worst((bound.score(p, t), floor.sentence_score(p, t).score / 100) for p, t in pairs)
    rows.append(("`bleu`, floor ε = 0", "sacrebleu BLEU", n, diff))
    rows += nltk_rows(pairs)
    rows += rouge_rows(pairs)
    return rows


def nltk_rows(pairs: Pairs) -> list[Row]:
    """nltk smoothing methods 4-7 (pairs on which nltk raises are skipped)."""
    options = {"tokenizer": "whitespace", "empty_order": "floor-one", "effective_order": False}
    rows = []
    for method in ("method4", "method5", "method6", "method7"):
        bound = assay.bind("bleu", smoothing=method, **options)
        smoother = getattr(SmoothingFunction(), method)
        found = []
        for p, t in pairs:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    theirs = sentence_bleu([x.split() for x in t], p.split(),
                                           smoothing_function=smoother)  # fmt: skip
            except (AssertionError, IndexError, ZeroDivisionError):
                continue
            found.append((bound.score(p, t), float(theirs)))
        n, diff = worst(found)
        rows.append((f"`bleu`, `smoothing='{method}'`", "nltk sentence_bleu", n, diff))
    return rows


def rouge_rows(pairs: Pairs) -> list[Row]:
    """ROUGE-3 … 9, L, Lsum F per pair with the rouge-score tokenizer."""
    rows = []
    for name, peer_name in [*((f"rouge_{n}", f"rouge{n}") for n in range(3, 10)),
                            ("rouge_l", "rougeL"), ("rouge_lsum", "rougeLsum")]:  # fmt: skip
        scorer = rouge_scorer.RougeScorer([peer_name])
        bound = assay.bind(name, tokenizer="rouge-score")
        n, diff = worst(
            (bound.score(p, t), scorer.score_multi(t, p)[peer_name].fmeasure) for p, t in pairs
        )
        rows.append((f"`{name}` F", "rouge-score score_multi", n, diff))
    return rows


def bootstrap_rows(pairs: Pairs) -> list[Row]:
    """Bootstrap low/mid/high of P, R and F for ROUGE-1 and ROUGE-L, three seeds each."""
    found = []
    for name, peer_name in (("rouge_1", "rouge1"), ("rouge_l", "rougeL")):
        scorer = rouge_scorer.RougeScorer([peer_name])
        scores = [scorer.score(t[0], p) for p, t in pairs]
        preds, targets = [p for p, _ in pairs], [t[0] for _, t in pairs]
        for seed in (1, 2, 3):
            aggregator = scoring.BootstrapAggregator()
            for score in scores:
                aggregator.add_scores(score)
            np.random.seed(seed)
            theirs = aggregator.aggregate()[peer_name]
            for measure, field in (("p", "precision"), ("r", "recall"), ("f", "fmeasure")):
                details = assay.score_corpus(
                    name, preds, targets, tokenizer="rouge-score", measure=measure,
                    aggregate="bootstrap", bootstrap_seed=seed,
                ).details  # fmt: skip
                assert details is not None
                for key in ("low", "mid", "high"):
                    found.append((details[key], getattr(getattr(theirs, key), field)))
    n, diff = worst(found)
    return [("ROUGE-1/L `aggregate='bootstrap'` low/mid/high", "rouge-score BootstrapAggregator",
             n, diff)]  # fmt: skip


def anls_rows(count: int) -> list[Row]:
    """ANLS* on random nested structures (the generator of tests/test_anls_star.py)."""
    from test_anls_star import _gt, _pred

    rng = random.Random(2026)
    found = []
    for _ in range(count):
        gt = _gt(rng, 0)
        pred = _pred(rng, gt)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            found.append((anls_star(gt, pred), float(anls_score(gt, pred))))
    n, diff = worst(found)
    return [("`anls_star` on nested structures", "anls_star anls_score", n, diff)]


PEERS = (jiwer_rows, ter_rows, tokenizer_rows, variant_rows, bootstrap_rows)


def main() -> None:
    """Print one Markdown table row per comparison, then the largest difference per peer."""
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    pairs = [(p, list(t)) for p, t in make_pairs(count, seed=1313)]
    versions = {p: version(p) for p in ("jiwer", "sacrebleu", "nltk", "rouge-score", "anls-star")}
    print("| comparison | peer | cases | max abs difference |")
    print("|---|---|---|---|")
    summary: dict[str, tuple[int, float]] = {}
    texts, differing = 0, 0
    rows = [row for fn in PEERS for row in fn(pairs)] + anls_rows(count * 5)
    for what, peer, n, diff in rows:
        if "token lists" in what:
            texts, differing = texts + n, differing + int(diff)
            print(f"| {what} | {peer} | {n:,} | {int(diff)} texts |")
            continue
        print(f"| {what} | {peer} | {n:,} | {diff:.3g} |")
        package = peer.split()[0].split(".")[0]
        cases, most = summary.get(package, (0, 0.0))
        summary[package] = (cases + n, max(most, diff))
    print()
    print("peer versions: " + ", ".join(f"{k} {v}" for k, v in versions.items()))
    for package, (cases, most) in summary.items():
        print(f"{package}: {cases:,} values compared, max abs difference {most:.3g}")
    print(f"sacrebleu tokenizers: {texts:,} token lists compared, {differing} differ")


if __name__ == "__main__":
    main()

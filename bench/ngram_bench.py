r"""Benchmark the n-gram metrics against sacrebleu, nltk and rouge-score.

One run, one generated corpus (seeded), three regimes: short answers (1-5 tokens,
4,000 items), sentences (15-35 tokens, 2,000 items) and long texts (1,000 tokens,
12 items; for ROUGE-Lsum the same texts broken into lines of 20 tokens). Every
figure is the best of three runs (six for the floor), in microseconds per item,
with the garbage collector switched off during each run for assay, anchors and
floor alike (as ``timeit`` does; otherwise a full collection of the benchmark's own
objects lands in a random run and can triple it).

What is timed:

* **floor** (``floor_timing.py``, the same as ``metric_bench.py``'s): reading and
  parsing the JSONL file and ``\w+``-tokenising prediction and targets (no scoring).
  It is timed beside every assay row (rounds of floor, assay, floor; best of six
  floor runs and three assay runs, more rounds, up to 15, while a row has taken
  less than 0.6 s), so each ``x floor`` divides two times taken under the same
  machine load.
* **assay, "per pair"**: a loop of ``assay.bind(metric, ...).score(prediction,
  targets)``, one call per item (input checks included).
* **assay, "corpus"**: one ``assay.score_corpus(metric, predictions, targets)`` call
  for the whole regime; it returns the per-item values and statistics and the
  corpus value (BLEU and chrF statistics are vectorised over the corpus).
* **anchors**: sacrebleu ``sentence_score`` in a loop / ``corpus_score`` once,
  nltk ``sentence_bleu`` (method3) in a loop, rouge-score ``score`` in a loop.

Same input and tokenization on both sides: BLEU uses pre-tokenised text
(sacrebleu ``tokenize='none'``, assay ``tokenizer='whitespace'``; nltk gets the same
token lists, pre-split outside the timing), ROUGE uses rouge-score's tokenizer on
both sides, chrF needs none (both remove whitespace).

Columns: ``speed-up`` = anchor time / assay time; ``x floor`` = assay time / floor.

Targets (issue 3) and the rows that decide them, each printed with MET / NOT MET:

* ROUGE-L ≥ 100x faster than rouge-score on 1,000-token texts (per pair);
* sentence BLEU ≥ 2x faster than sacrebleu ``sentence_score`` (per pair, every
  regime) and corpus BLEU ≥ 2x faster than sacrebleu ``corpus_score`` (every regime);
* sentence BLEU, corpus BLEU, ROUGE-L, chrF and ROUGE-Lsum ≤ 3x the floor in every
  regime, timed through ``score_corpus`` (how a dataset is scored; issue 10 holds
  every metric to it). The per-pair rows' ``x floor`` is printed for information.

Usage: ``PYTHONPATH=src python bench/ngram_bench.py [--quick]`` (``--quick``: a
tenth of the items, one run; for a smoke check only, its ratios are not the
measured ones).
"""

from __future__ import annotations

import logging
import random
import sys
from collections.abc import Callable

from floor_timing import Regime, best_of, target
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU, CHRF

import assay
from assay.api import score_corpus

logging.getLogger("sacrebleu").setLevel(logging.ERROR)

VOCAB = [f"w{i}" for i in range(3000)] + "the a of to and in is it that was".split() * 50
REGIMES = {"short": (1, 5, 4000), "sentence": (15, 35, 2000), "long": (1000, 1000, 12)}


def make_corpus(rng: random.Random, low: int, high: int, n: int) -> list[dict[str, object]]:
    rows = []
    for i in range(n):
        target = [rng.choice(VOCAB) for _ in range(rng.randint(low, high))]
        pred = [t if rng.random() < 0.7 else rng.choice(VOCAB) for t in target]
        rows.append({"id": str(i), "prediction": " ".join(pred), "targets": [" ".join(target)]})
    return rows


def as_lines(text: str, width: int = 20) -> str:
    """Break a text into lines of ``width`` tokens (sentences for ROUGE-Lsum)."""
    words = text.split()
    return "\n".join(" ".join(words[i : i + width]) for i in range(0, len(words), width))


Case = tuple[str, str, Callable[[], object], str, Callable[[], object], int]


def run_regime(name: str, rows: list[dict[str, object]], repeat: int) -> list[tuple[str, ...]]:
    regime = Regime(name, rows, repeat, 0.6 if repeat > 1 else 0.0)
    preds, targets = regime.preds, regime.targets
    split_preds = [p.split() for p in preds]
    split_refs = [[t.split() for t in ts] for ts in targets]
    sacre_refs = [[ts[0] for ts in targets]]
    sb_sent = BLEU(tokenize="none", effective_order=True)
    sb_corpus = BLEU(tokenize="none")
    chrf = CHRF()
    rouge = rouge_scorer.RougeScorer(["rougeL"])
    rouge_lsum = rouge_scorer.RougeScorer(["rougeLsum"])
    method3 = SmoothingFunction().method3
    a_bleu = assay.bind("bleu", tokenizer="whitespace")
    a_rouge = assay.bind("rouge_l", tokenizer="rouge-score")
    a_lsum = assay.bind("rouge_lsum", tokenizer="rouge-score")
    a_chrf = assay.bind("chrf")
    pairs = list(zip(preds, targets, strict=True))
    lsum_pairs = [(as_lines(p), [as_lines(t[0])]) for p, t in pairs]
    lsum_preds, lsum_targets = [p for p, _ in lsum_pairs], [t for _, t in lsum_pairs]
    slow = 1 if name == "long" else repeat
    sacre_sentence = (
        "sacrebleu sentence",
        lambda: [sb_sent.sentence_score(p, t) for p, t in pairs],
    )
    rouge_l = ("rouge-score", lambda: [rouge.score(t[0], p) for p, t in pairs])
    rouge_sum = ("rouge-score", lambda: [rouge_lsum.score(t[0], p) for p, t in lsum_pairs])
    cases: list[Case] = [
        ("sentence BLEU", "per pair", lambda: [a_bleu.score(p, t) for p, t in pairs])
        + sacre_sentence
        + (repeat,),
        (
            "sentence BLEU",
            "per pair",
            lambda: [a_bleu.score(p, t) for p, t in pairs],
            "nltk method3",
            lambda: [
                sentence_bleu(r, h, smoothing_function=method3)
                for h, r in zip(split_preds, split_refs, strict=True)
            ],
            repeat,
        ),
        (
            "sentence BLEU",
            "corpus",
            lambda: score_corpus("bleu", preds, targets, tokenizer="whitespace"),
        )
        + sacre_sentence
        + (repeat,),
        (
            "corpus BLEU",
            "corpus",
            lambda: score_corpus("corpus_bleu", preds, targets, tokenizer="whitespace"),
            "sacrebleu corpus",
            lambda: sb_corpus.corpus_score(preds, sacre_refs),
            repeat,
        ),
        ("ROUGE-L", "per pair", lambda: [a_rouge.score(p, t) for p, t in pairs])
        + rouge_l
        + (slow,),
        (
            "ROUGE-L",
            "corpus",
            lambda: score_corpus("rouge_l", preds, targets, tokenizer="rouge-score"),
        )
        + rouge_l
        + (slow,),
        ("ROUGE-Lsum", "per pair", lambda: [a_lsum.score(p, t) for p, t in lsum_pairs])
        + rouge_sum
        + (slow,),
        (
            "ROUGE-Lsum",
            "corpus",
            lambda: score_corpus("rouge_lsum", lsum_preds, lsum_targets, tokenizer="rouge-score"),
        )
        + rouge_sum
        + (slow,),
        (
            "chrF",
            "per pair",
            lambda: [a_chrf.score(p, t) for p, t in pairs],
            "sacrebleu sentence",
            lambda: [chrf.sentence_score(p, t) for p, t in pairs],
            slow,
        ),
        (
            "chrF",
            "corpus",
            lambda: score_corpus("chrf", preds, targets),
            "sacrebleu corpus",
            lambda: chrf.corpus_score(preds, sacre_refs),
            slow,
        ),
    ]
    anchor_times: dict[str, float] = {}
    out = []
    for metric, path_name, ours, anchor, theirs, reps in cases:
        t_ours, floor = regime.timed(ours)  # the floor beside each case, same load
        key = f"{metric}/{anchor}"
        if key not in anchor_times:
            anchor_times[key] = best_of(theirs, reps)
        t_theirs = anchor_times[key]
        out.append(
            (
                name,
                metric,
                path_name,
                anchor,
                f"{1e6 * t_ours / len(rows):.1f}",
                f"{1e6 * t_theirs / len(rows):.1f}",
                f"{t_theirs / t_ours:.1f}x",
                f"{t_ours / floor:.2f}",
            )
        )
    print(f"# {name}: n={len(rows)}, floor {regime.floor_range()} (timed beside each case)",
          flush=True)  # fmt: skip
    return out


def main() -> None:
    quick = "--quick" in sys.argv
    rng = random.Random(20261129)
    header = (
        "regime",
        "metric",
        "assay path",
        "anchor",
        "assay us",
        "anchor us",
        "speed-up",
        "x floor",
    )
    table = [header]
    for name, (low, high, n) in REGIMES.items():
        rows = make_corpus(rng, low, high, max(4, n // 10) if quick else n)
        table += run_regime(name, rows, 1 if quick else 3)
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    for row in table:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)))
    print_verdict(table[1:])


def print_verdict(rows: list[tuple[str, ...]]) -> None:
    """Check the issue's targets against the measured rows."""
    speed = {(r[0], r[1], r[2], r[3]): float(r[6].rstrip("x")) for r in rows}
    rouge = speed[("long", "ROUGE-L", "per pair", "rouge-score")]
    target("ROUGE-L per pair vs rouge-score (1,000 tokens)", f"{rouge:.0f}x", ">= 100x",
           rouge >= 100)  # fmt: skip
    targets = (
        ("sentence BLEU", "per pair", "sacrebleu sentence"),
        ("corpus BLEU", "corpus", "sacrebleu corpus"),
    )
    for metric, path_name, anchor in targets:
        worst = min(
            v for (_, m, p, a), v in speed.items() if (m, p, a) == (metric, path_name, anchor)
        )
        target(f"{metric} ({path_name}) vs {anchor} (worst regime)", f"{worst:.1f}x", ">= 2x",
               worst >= 2)  # fmt: skip
    for metric in ("sentence BLEU", "corpus BLEU", "ROUGE-L", "chrF", "ROUGE-Lsum"):
        worst_floor = max(float(r[7]) for r in rows if r[1] == metric and r[2] == "corpus")
        target(f"ngram_bench {metric} score_corpus x floor (worst regime)",
               f"{worst_floor:.2f}x", "<= 3x", worst_floor <= 3)  # fmt: skip


if __name__ == "__main__":
    main()

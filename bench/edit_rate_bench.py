"""Benchmark TER against sacrebleu and WER/CER against jiwer (issue 13).

One run, one seeded corpus, two regimes: sentences (10-35 words, 400 items) and
paragraphs (80-120 words, 30 items). Predictions are perturbed copies of the
reference (drops, insertions, substitutions, swaps of neighbours and moves of a
short run, which TER's shifts repair). Each figure is the best of three runs, in
microseconds per item, with the garbage collector off during each run.

What is timed, the whole corpus in one call on both sides:

* TER: ``assay.score_corpus("ter", ...)`` vs sacrebleu ``TER().corpus_score``
  (both compute every segment's edits and the corpus value; the same defaults);
* WER: ``assay.score_corpus("wer", ...)`` vs ``jiwer.process_words(refs, hyps)``;
* CER: ``assay.score_corpus("cer", ...)`` vs ``jiwer.process_characters(refs, hyps)``.

Targets: TER ≥ 2x sacrebleu; WER and CER ≥ 1x jiwer (jiwer's alignment is
rapidfuzz C++, as assay's). Each row prints MET / NOT MET.

Usage: ``PYTHONPATH=src python bench/edit_rate_bench.py [--quick]``.
"""

from __future__ import annotations

import gc
import logging
import random
import sys
import time
from collections.abc import Callable

import jiwer
from floor_timing import target as print_target
from sacrebleu.metrics import TER

import assay

logging.getLogger("sacrebleu").setLevel(logging.ERROR)
WORDS = (
    "the a of to and in is it that was for on are as with his they at be this from have or "
    "by one had not but what all were when we there can an your which their said if do will "
    "cat dog mat sat ran model answer paris london berlin Hello, world. (yes) 3.14 café 東京"
).split()


def _perturb(rng: random.Random, words: list[str]) -> list[str]:
    out = list(words)
    for _ in range(max(1, len(out) // 6)):
        op, i = rng.random(), rng.randrange(len(out))
        if op < 0.2:
            del out[i]
        elif op < 0.4:
            out.insert(i, rng.choice(WORDS))
        elif op < 0.6:
            out[i] = rng.choice(WORDS)
        elif op < 0.8 and i + 1 < len(out):
            out[i], out[i + 1] = out[i + 1], out[i]
        else:
            run = out[i : i + 3]
            del out[i : i + 3]
            j = rng.randint(0, len(out))
            out[j:j] = run
    return out


def corpus(n: int, low: int, high: int, seed: int) -> tuple[list[str], list[str]]:
    """``n`` seeded (predictions, references) of ``low``..``high`` words."""
    rng = random.Random(seed)
    refs = [[rng.choice(WORDS) for _ in range(rng.randint(low, high))] for _ in range(n)]
    return [" ".join(_perturb(rng, r)) for r in refs], [" ".join(r) for r in refs]


def best_of(fn: Callable[[], object], runs: int) -> float:
    """The fastest of ``runs`` calls, in seconds (garbage collector off)."""
    times = []
    for _ in range(runs):
        gc.disable()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
        gc.enable()
    return min(times)


def _ours(name: str, hyps: list[str], refs: list[str]) -> Callable[[], object]:
    targets = [[r] for r in refs]
    return lambda: assay.score_corpus(name, hyps, targets)


def _peer(name: str, ter: TER, hyps: list[str], refs: list[str]) -> Callable[[], object]:
    if name == "ter":
        return lambda: ter.corpus_score(hyps, [refs])
    if name == "wer":
        return lambda: jiwer.process_words(refs, hyps)
    return lambda: jiwer.process_characters(refs, hyps)


def main(quick: bool) -> int:
    runs = 1 if quick else 3
    regimes = {
        "sentences": corpus(40 if quick else 400, 10, 35, 1),
        "paragraphs": corpus(3 if quick else 30, 80, 120, 2),
    }
    ter = TER()
    print(f"{'metric':<6} {'regime':<11} {'assay us/item':>14} {'peer us/item':>13} "
          f"{'speed-up':>9} {'target':>7}  verdict")  # fmt: skip
    for regime, (hyps, refs) in regimes.items():
        for name, target in (("ter", 2.0), ("wer", 1.0), ("cer", 1.0)):
            ours = best_of(_ours(name, hyps, refs), runs)
            theirs = best_of(_peer(name, ter, hyps, refs), runs)
            ratio = theirs / ours
            verdict = "MET" if ratio >= target else "NOT MET"
            n = len(hyps)
            print(f"{name:<6} {regime:<11} {ours / n * 1e6:>14.1f} {theirs / n * 1e6:>13.1f} "
                  f"{ratio:>8.2f}x {target:>6.1f}x  {verdict}")  # fmt: skip
            peer = "sacrebleu" if name == "ter" else "jiwer"
            print_target(f"{name} vs {peer} ({regime})", f"{ratio:.2f}x faster",
                         f">= {target:g}x", ratio >= target)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main("--quick" in sys.argv))

r"""Every registry metric through ``score_corpus`` against a floor, and BLEU against sacrebleu.

One seeded corpus per regime, English-like text (Zipf-distributed vocabulary,
capitalised sentences, commas and full stops, one sentence per line in long texts):

* ``short``: answers of 1-5 words, 4,000 items;
* ``sentence``: one sentence of 15-35 words, 2,000 items;
* ``long``: 1,000 words in lines of about 20 words, 40 items.

Each prediction is its target with about 30 % of the words replaced.

**The floor** (per regime, ``floor_timing.py``, shared with ``ngram_bench.py``):
read the JSONL file, ``json.loads`` every line and ``re.compile(r"\w+").findall``
the prediction and every target: the least any metric that reads its input and
looks at words must do. **assay** is one
``assay.score_corpus(metric, predictions, targets_list)`` call with the metric's
default options on the lists already in memory (so the read is *not* in assay's
time: the ratio is strict). ``x floor`` = assay time / floor time, where the floor
is timed *beside each metric*: rounds of floor, metric, floor (``Regime.timed``),
best of three metric runs and six floor runs, so both sides see the same machine
load (a floor timed once at start-up made the short-item ratios swing by up to
±40 % between identical runs on a shared machine). While a cell has taken less
than ``ROUND_BUDGET`` (0.6 s) more rounds run, up to 15: the best of more runs on
both sides. The end of the table prints the range of the floors measured per regime.

**Inherent work** (``x inherent``, for ``embedding_cosine`` and ``greedy_match``, whose
model alone costs more than the floor): the time divided by what any implementation
with that model must do on the same regime: the model tokenizer's own ``encode`` of
every prediction and target (the Rust ``tokenizers`` library, one text per call). The
rest of the ratio is assay's own work: the embedding look-ups and (``greedy_match``)
the similarity matrices. No cache lives across runs. For ``ter``, ``cer`` and
``edit_similarity`` the inherent work is rapidfuzz's C++ Levenshtein on the same texts
(``edit_inherent_work``): for ``ter`` only the plain word distance, without the shift
search, so its ``x inherent`` overstates assay's own share.

**BLEU against sacrebleu** (both with the ``13a`` tokenizer, sacrebleu's default):
sentence BLEU is ``assay.bind("bleu", tokenizer="13a").score`` in a loop against
``BLEU(effective_order=True).sentence_score`` in a loop (a fresh scorer per run, so
its reference cache starts empty); corpus BLEU is ``score_corpus("corpus_bleu")``
against ``BLEU().corpus_score``.

**assay.score vs bind**: ``assay.score(metric, p, t)`` in a loop against
``bound.score(p, t)`` in a loop, per metric, on the ``sentence`` regime; the two
loops run alternately, so both see the same load.

Every figure is the best of three runs (``--quick``: one run on a tenth of the items,
a smoke check only), garbage collector off during each run. Targets (issue 10), each
printed as ``TARGET <name> | <measured> | <target> | MET`` (or ``NOT MET``):

* every registry metric ≤ 3x the floor in every regime (through ``score_corpus``);
* sentence and corpus BLEU ≥ 2x sacrebleu in every regime;
* ``assay.score()`` per call ≤ 1.5x ``bind().score()`` for every metric.

Usage: ``PYTHONPATH=src python bench/metric_bench.py [--quick] [METRIC ...]`` (with
metric names: only those metrics, only the floor table).
"""

from __future__ import annotations

import logging
import random
import sys
from collections.abc import Callable
from functools import partial

from floor_timing import Regime, best_of, best_of_pair, target
from sacrebleu.metrics import BLEU

import assay

logging.getLogger("sacrebleu").setLevel(logging.ERROR)

REGIMES = {"short": (1, 5, 4000), "sentence": (15, 35, 2000), "long": (1000, 1000, 40)}
ROUND_BUDGET = 0.6  # seconds: more floor/metric rounds (up to 15) while a cell takes less
VOCAB = [
    f"{c}{v}{i}"
    for i, (c, v) in enumerate(zip("bcdfghklmnprstvz" * 400, "aeiou" * 1280, strict=True))
]
WEIGHTS = [1.0 / (rank + 1) for rank in range(len(VOCAB))]


def words(rng: random.Random, n: int) -> list[str]:
    return rng.choices(VOCAB, WEIGHTS, k=n)


def as_text(tokens: list[str], line: int) -> str:
    """Sentences of ``line`` words: capitalised, a comma inside, a full stop at the end."""
    sentences = []
    for start in range(0, len(tokens), line):
        chunk = tokens[start : start + line]
        if len(chunk) > 6:
            chunk[3] += ","
        sentences.append(" ".join(chunk).capitalize() + ".")
    return "\n".join(sentences)


def make_corpus(rng: random.Random, low: int, high: int, n: int) -> list[dict[str, object]]:
    line = 20 if high >= 100 else high
    rows = []
    for i in range(n):
        target = words(rng, rng.randint(low, high))
        pred = [t if rng.random() < 0.7 else rng.choice(VOCAB) for t in target]
        rows.append(
            {"id": str(i), "prediction": as_text(pred, line), "targets": [as_text(target, line)]}
        )
    return rows


def _code_points(a: list[str], b: list[str]) -> tuple[str, str]:
    """Two token lists as strings of one code point per distinct token."""
    codes: dict[str, str] = {}
    for tok in (*a, *b):
        codes.setdefault(tok, chr(len(codes)))
    return "".join(map(codes.__getitem__, a)), "".join(map(codes.__getitem__, b))


def edit_inherent_work(metric: str, r: Regime) -> Callable[[], object] | None:
    """The C++ Levenshtein work (rapidfuzz) an edit metric cannot avoid on ``r``.

    ``ter``: the plain word-level distance of the lowercased whitespace tokens (no
    shifts, no band: less than TER needs); ``cer``: the character alignment of the
    stripped texts (``editops``, as jiwer; the H/S/D/I need it); ``edit_similarity``:
    the character distance of the lowercased, space-collapsed texts.
    """
    from rapidfuzz.distance import Levenshtein

    def ter() -> None:
        for prediction, targets in zip(r.preds, r.targets, strict=True):
            hyp = prediction.lower().split()
            for text in targets:
                Levenshtein.distance(*_code_points(hyp, text.lower().split()))

    def cer() -> None:
        for prediction, targets in zip(r.preds, r.targets, strict=True):
            hyp = prediction.strip()
            for text in targets:
                Levenshtein.editops(text.strip(), hyp)

    def edit_similarity() -> None:
        for prediction, targets in zip(r.preds, r.targets, strict=True):
            hyp = " ".join(prediction.lower().split())
            for text in targets:
                Levenshtein.distance(hyp, " ".join(text.lower().split()))

    runs: dict[str, Callable[[], None]] = {
        "ter": ter, "cer": cer, "edit_similarity": edit_similarity,
    }  # fmt: skip
    return runs.get(metric)


def inherent_work(metric: str, r: Regime) -> Callable[[], object] | None:
    """The work any implementation of an embedding metric does on ``r`` (module docstring)."""
    if metric not in ("embedding_cosine", "greedy_match"):
        return edit_inherent_work(metric, r)
    from assay.metrics import static_embeddings

    encode = static_embeddings.load().tokenizer.encode

    def run() -> None:
        for prediction, targets in zip(r.preds, r.targets, strict=True):
            encode(prediction, add_special_tokens=False)
            for text in targets:
                encode(text, add_special_tokens=False)

    return run


def metric_rows(regimes: list[Regime], metrics: list[str]) -> None:
    print(f"{'metric':<16}" + "".join(f"{r.name + ' x floor':>18}" for r in regimes))
    print(f"{'':<16}" + "".join(f"{'(assay us/item)':>18}" for r in regimes))
    worst: dict[str, tuple[float, str]] = {}
    notes: dict[str, str] = {}
    for metric in metrics:
        cells = []
        try:  # a metric that needs something absent (an extra, a server) is skipped
            assay.score_corpus(metric, regimes[0].preds[:2], regimes[0].targets[:2])
        except assay.AssayError as error:
            print(f"{metric:<16}skipped: {error}", flush=True)
            continue
        inherent, engine_floor = [], []
        for r in regimes:
            ours = partial(assay.score_corpus, metric, r.preds, r.targets)
            engine = inherent_work(metric, r)
            if engine is None:
                elapsed, floor = r.timed(ours)
            else:
                elapsed, t_engine, floor = r.timed(ours, engine)
                inherent.append(f"{elapsed / t_engine:.2f}x")
                engine_floor.append(f"{t_engine / floor:.2f}x")
            ratio = elapsed / floor
            cells.append(f"{ratio:>9.2f} ({1e6 * elapsed / r.n:>6.0f})")
            if ratio > worst.get(metric, (0.0, ""))[0]:
                worst[metric] = (ratio, r.name)
        if inherent:
            notes[metric] = f" (x inherent work: {' / '.join(inherent)})"
        if inherent and edit_inherent_work(metric, regimes[0]) is not None:
            notes[metric] = (
                f" (x inherent work: {' / '.join(inherent)}; the inherent work alone x floor: "
                f"{' / '.join(engine_floor)})"
            )
        print(f"{metric:<16}" + "".join(f"{c:>18}" for c in cells) + notes.get(metric, ""),
              flush=True)  # fmt: skip
    for r in regimes:  # the spread of the floors shows the load the run saw
        print(f"floor, {r.name}: {r.floor_range()} (timed beside each metric)", flush=True)
    for metric in worst:
        ratio, regime = worst[metric]
        target(
            f"{metric} score_corpus x floor (worst: {regime})",
            f"{ratio:.2f}x",
            "<= 3x",
            ratio <= 3,
            notes.get(metric, ""),
        )


def loop(fn: Callable[[str, list[str]], float], pairs: list[tuple[str, list[str]]]) -> None:
    for prediction, targets in pairs:
        fn(prediction, targets)


def sacre_sentence(pairs: list[tuple[str, list[str]]]) -> None:
    """A fresh scorer per run, so its tokenizer's cache starts empty."""
    scorer = BLEU(effective_order=True)
    for prediction, targets in pairs:
        scorer.sentence_score(prediction, targets)


def sacre_corpus(predictions: list[str], refs: list[list[str]]) -> None:
    BLEU().corpus_score(predictions, refs)


def bleu_rows(regimes: list[Regime]) -> None:
    for r in regimes:
        pairs = list(zip(r.preds, r.targets, strict=True))
        refs = [[t[0] for t in r.targets]]
        bound = assay.bind("bleu", tokenizer="13a")
        ours = best_of(partial(loop, bound.score, pairs), r.repeat)
        theirs = best_of(partial(sacre_sentence, pairs), r.repeat)
        target(
            f"sentence BLEU vs sacrebleu ({r.name})",
            f"{theirs / ours:.1f}x faster (assay {r.us(ours)}, sacrebleu {r.us(theirs)})",
            ">= 2x",
            theirs / ours >= 2,
        )
        ours = best_of(partial(assay.score_corpus, "corpus_bleu", r.preds, r.targets), r.repeat)
        theirs = best_of(partial(sacre_corpus, r.preds, refs), r.repeat)
        target(
            f"corpus BLEU vs sacrebleu ({r.name})",
            f"{theirs / ours:.1f}x faster (assay {r.us(ours)}, sacrebleu {r.us(theirs)})",
            ">= 2x",
            theirs / ours >= 2,
        )


def score_vs_bind(regime: Regime, metrics: list[str]) -> None:
    pairs = list(zip(regime.preds, regime.targets, strict=True))[:500]
    worst = (0.0, "")
    for metric in metrics:
        try:
            bound = assay.bind(metric)
            bound.score(*pairs[0])
        except assay.AssayError:
            continue
        t_bound, t_score = best_of_pair(
            partial(loop, bound.score, pairs),
            partial(loop, partial(assay.score, metric), pairs),
            2 * regime.repeat,
        )
        worst = max(worst, (t_score / t_bound, metric))
    ratio, metric = worst
    target(
        f"assay.score() / bind().score() per call (worst: {metric})",
        f"{ratio:.2f}x",
        "<= 1.5x",
        ratio <= 1.5,
    )


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    only = [a for a in argv if not a.startswith("--")]
    metrics = only or assay.metric_names()
    rng = random.Random(20261201)
    regimes = [
        Regime(
            name,
            make_corpus(rng, low, high, max(4, n // 10) if quick else n),
            1 if quick else 3,
            0.0 if quick else ROUND_BUDGET,
        )
        for name, (low, high, n) in REGIMES.items()
    ]
    metric_rows(regimes, metrics)
    if not only:
        bleu_rows(regimes)
        score_vs_bind(regimes[1], metrics)


if __name__ == "__main__":
    main(sys.argv[1:])

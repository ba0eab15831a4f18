"""TER and the word/character error rates: parity with sacrebleu and jiwer, direction, corpus.

Expected values come from the peers installed in the test extra (sacrebleu's
``TER``, jiwer's ``process_words``/``process_characters``) on the seeded pairs of
``_ngram_cases.make_pairs``, and from the peers' own test suites
(``tests/vectors/edit/*.jsonl``). The maximum differences are in docs/parity.md.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import jiwer
import numpy as np
import pytest
from sacrebleu.metrics import TER

import assay
from _ngram_cases import make_pairs
from assay.evaluation.metric_compare import compare_on_metric
from assay.metrics.registry import get_metric
from assay.stats import compare_systems

TOL = 1e-9
VECTORS = Path(__file__).parent / "vectors" / "edit"
PAIRS = make_pairs(1200, seed=1)
TER_PAIRS = make_pairs(80, seed=3)
WORD_RATES = ("wer", "mer", "wil", "wip")


def _corpus_rows() -> list[dict]:
    rows = []
    for name in ("ter", *WORD_RATES, "cer"):
        for line in (VECTORS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if "predictions" in row:
                rows.append(row)
    return rows


@pytest.mark.parametrize("row", _corpus_rows(), ids=lambda r: f"{r['metric']}:{r['case']}")
def test_corpus_vectors_from_the_peers_suites(row: dict) -> None:
    result = assay.score_corpus(row["metric"], row["predictions"], row["targets_list"])
    assert result.value == pytest.approx(row["expected"], abs=row["tolerance"])
    assert result.aggregation == "corpus"


# --- jiwer ---------------------------------------------------------------------------


def test_word_rates_match_jiwer_per_item() -> None:
    worst = 0.0
    for prediction, targets in PAIRS:
        out = jiwer.process_words(targets[0], prediction)
        for name in WORD_RATES:
            ours = assay.score(name, prediction, targets[:1])
            worst = max(worst, abs(ours - float(getattr(out, name))))
    assert worst <= TOL


def test_cer_matches_jiwer_per_item() -> None:
    worst = 0.0
    for prediction, targets in PAIRS:
        theirs = jiwer.process_characters(targets[0], prediction).cer
        worst = max(worst, abs(assay.score("cer", prediction, targets[:1]) - theirs))
    assert worst <= TOL


def test_corpus_rates_match_jiwer_on_lists() -> None:
    preds = [p for p, _ in PAIRS]
    refs = [t[0] for _, t in PAIRS]
    out = jiwer.process_words(refs, preds)
    firsts = [[r] for r in refs]
    for name in WORD_RATES:
        result = assay.score_corpus(name, preds, firsts)
        assert result.value == pytest.approx(float(getattr(out, name)), abs=TOL), name
        summed = np.sum(np.array(result.statistics), axis=0).tolist()
        assert summed == [out.hits, out.substitutions, out.deletions, out.insertions]
    cer = jiwer.process_characters(refs, preds).cer
    assert assay.score_corpus("cer", preds, firsts).value == pytest.approx(cer, abs=TOL)


def test_corpus_rate_is_not_the_mean_of_item_rates() -> None:
    result = assay.score_corpus("wer", ["a b c d", "x"], [["a"], ["x y z w"]])
    # Summed: (3 insertions + 3 deletions) / 5 reference words; the mean would be 1.875.
    assert result.value == pytest.approx(6 / 5)
    assert sum(result.values) / 2 == pytest.approx(1.875)


@pytest.mark.parametrize("name", [*WORD_RATES, "cer"])
def test_several_targets_take_the_best_one(name: str) -> None:
    higher = get_metric(name).higher_is_better
    pick = max if higher else min
    for prediction, targets in PAIRS[:300]:
        if len(targets) < 2:
            continue
        if name == "cer":
            values = [jiwer.process_characters(t, prediction).cer for t in targets]
        else:
            values = [float(getattr(jiwer.process_words(t, prediction), name)) for t in targets]
        assert assay.score(name, prediction, targets) == pytest.approx(pick(values), abs=TOL)


# --- sacrebleu TER -------------------------------------------------------------------

TER_OPTIONS = [
    {},
    {"normalized": True},
    {"no_punct": True, "case_sensitive": True},
    {"normalized": True, "asian_support": True, "no_punct": True},
]


@pytest.mark.parametrize("options", TER_OPTIONS, ids=lambda o: ",".join(o) or "defaults")
def test_ter_matches_sacrebleu_sentence_and_corpus(options: dict) -> None:
    pairs = TER_PAIRS[:80] if not options else TER_PAIRS[:60]  # sacrebleu: ~13 ms a pair
    peer = TER(**options)
    edits = lengths = 0.0
    worst = 0.0
    preds, targets_list = [p for p, _ in pairs], [t for _, t in pairs]
    result = assay.score_corpus("ter", preds, targets_list, **options)
    for (prediction, targets), ours in zip(pairs, result.values, strict=True):
        theirs = peer.sentence_score(prediction, targets)
        edits, lengths = edits + theirs.num_edits, lengths + theirs.ref_length
        worst = max(worst, abs(ours - theirs.score / 100))
        assert assay.score("ter", prediction, targets, **options) == ours
    assert worst <= TOL
    assert result.value == pytest.approx(edits / lengths, abs=TOL)


def test_corpus_ter_matches_sacrebleu_corpus_score_with_several_references() -> None:
    pairs = TER_PAIRS[:50]
    width = max(len(t) for _, t in pairs)
    padded = [t + [t[-1]] * (width - len(t)) for _, t in pairs]  # sacrebleu: equal streams
    streams = [[t[k] for t in padded] for k in range(width)]
    theirs = TER().corpus_score([p for p, _ in pairs], streams).score / 100
    ours = assay.score_corpus("ter", [p for p, _ in pairs], padded).value
    assert ours == pytest.approx(theirs, abs=TOL)


def test_ter_signature_records_every_option() -> None:
    assert assay.signature("ter") == (
        "ter|tok:none|norm:none|normalized:no|no_punct:no|asian:no|case:no|multi:native|v:0.1.0"
    )
    assert assay.signature("wer") == "wer|tok:jiwer|norm:none|multi:native|v:0.1.0"
    assert assay.signature("cer") == "cer|tok:char|norm:strip|multi:native|v:0.1.0"


# --- direction -----------------------------------------------------------------------


def test_registry_records_lower_is_better_for_error_rates() -> None:
    for name in ("wer", "cer", "ter", "mer", "wil"):
        spec = get_metric(name)
        assert spec.higher_is_better is False and spec.aggregation == "corpus", name
    assert get_metric("wip").higher_is_better is True


def _systems() -> tuple[dict[str, list[str]], list[list[str]]]:
    targets = [t[:1] for _, t in PAIRS[:40]]
    good = [t[0] for t in targets]  # the reference itself: WER 0
    bad = [" ".join(t[0].split()[1:]) + " extra words" for t in targets]
    return {"bad": bad, "good": good}, targets


@pytest.mark.parametrize("name", ["wer", "ter", "cer", "mer", "wil"])
def test_comparison_ranks_the_lowest_error_rate_first(name: str) -> None:
    systems, targets = _systems()
    result = compare_on_metric(name, systems, targets, n_resamples=200, seed=7)
    assert result.systems == ("good", "bad") and result.higher_is_better is False
    assert result.scores[0] == 0.0 and result.scores[1] is not None and result.scores[1] > 0.0
    assert result.ties.members == (("good",), ("bad",))
    assert result.pairs[0].p_holm is not None and result.pairs[0].p_holm < 0.05
    # The comparison is on the corpus formula (summed statistics), as score_corpus reports.
    bad = assay.score_corpus(name, systems["bad"], targets).value
    assert result.scores[1] == pytest.approx(bad)


def test_comparison_ranks_the_highest_wip_first() -> None:
    systems, targets = _systems()
    result = compare_on_metric("wip", systems, targets, n_resamples=200, seed=7)
    assert result.systems == ("good", "bad") and result.higher_is_better is True


def test_direction_is_what_reverses_the_ranking() -> None:
    systems, targets = _systems()
    stats = {
        n: np.array(assay.score_corpus("wer", p, targets).values) for n, p in systems.items()
    }
    wrong_way = compare_systems(stats, n_resamples=200, seed=7)
    assert wrong_way.systems == ("bad", "good")  # higher-is-better would crown the worse system


def test_error_rate_ranges_are_unbounded_above() -> None:
    for name in ("wer", "cer", "ter"):
        assert get_metric(name).value_range == (0.0, math.inf)
    for name in ("mer", "wil", "wip"):
        assert get_metric(name).value_range == (0.0, 1.0)


def test_character_alignment_of_strings_equals_the_token_list_alignment() -> None:
    # cer aligns the two strings directly; the code-point mapping of token lists must
    # give the same operations (rapidfuzz's alignment depends only on equality).
    import random

    from assay.metrics.error_rate import edit_counts

    rng = random.Random(13)
    for _ in range(3000):
        a = "".join(rng.choice("ab cé東\n") for _ in range(rng.randint(0, 60)))
        b = "".join(rng.choice("ab cé東\n") for _ in range(rng.randint(0, 60)))
        assert edit_counts(a, b) == edit_counts(list(a), list(b))


def test_banded_distance_equals_sacrebleus_beam_edit_distance_inside_and_outside_the_band() -> None:
    """Candidates of long, very different texts (distances far past the ±25 beam).

    The expected value is sacrebleu's own ``BeamEditDistance``. Both branches are
    reached: distances where the unrestricted alignment stays inside the band (taken
    from rapidfuzz) and distances the band makes larger (the banded table).
    """
    import random

    from rapidfuzz.distance import Levenshtein
    from sacrebleu.metrics.lib_ter import BeamEditDistance

    from assay.metrics.ter_search import perform_shift
    from assay.metrics.ter_table import BandedDistance

    rng = random.Random(10)
    vocab = [f"w{i}" for i in range(40)]
    band_larger = certified = 0
    for _ in range(60):
        n_ref, n_hyp = rng.randint(40, 160), rng.randint(40, 160)
        ref = rng.choices(vocab, k=n_ref)
        hyp = [w if rng.random() < 0.5 else rng.choice(vocab) for w in ref[:n_hyp]]
        hyp += rng.choices(vocab, k=n_hyp - len(hyp))
        codes = {w: chr(65 + k) for k, w in enumerate(vocab)}
        table = BandedDistance(ref, n_hyp, codes)
        peer = BeamEditDistance(ref)
        _, rows, _ = table.trace(hyp)
        for _ in range(6):
            start, length = rng.randrange(n_hyp), rng.randint(1, 10)
            shifted = perform_shift(hyp, start, length, rng.randrange(n_hyp + 1))[:n_hyp]
            theirs = peer(shifted)[0]
            assert table.distance(shifted, hyp, rows) == theirs
            unrestricted = Levenshtein.distance(shifted, ref)
            band_larger += theirs > unrestricted
            certified += theirs == unrestricted >= table.beam
    assert band_larger > 20 and certified > 20


@pytest.mark.parametrize("numpy_from", [0, 10**9], ids=["numpy-rows", "python-rows"])
def test_backtraced_alignment_equals_sacrebleus_trace(
    numpy_from: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The banded table's rows (NumPy) and Tercom's backtrace, against sacrebleu's trace.

    sacrebleu's ``BeamEditDistance`` returns the distance and the operations of the
    same table (``' '`` match, ``s`` substitution, ``i`` insertion, ``d`` deletion);
    pairs of every length ratio, with and without shared words, cover narrow and wide
    bands, empty hypotheses and bands that leave column 0.
    """
    import random

    from sacrebleu.metrics.lib_ter import BeamEditDistance

    from assay.metrics import ter_table
    from assay.metrics.ter_table import BandedDistance

    monkeypatch.setattr(ter_table, "NUMPY_FROM", numpy_from)
    rng = random.Random(13)
    symbol = {0: " ", 1: "s", 2: "i", 3: "d"}
    for _ in range(400):
        vocab = [f"w{i}" for i in range(rng.choice([2, 8, 40]))]
        ref = rng.choices(vocab, k=rng.choice([1, 3, 20, 70, 130]))
        hyp = rng.choices(vocab, k=rng.choice([0, 1, 4, 20, 70, 130, 260]))
        if rng.random() < 0.5:
            hyp = [w if rng.random() < 0.7 else rng.choice(vocab) for w in (ref * 3)[: len(hyp)]]
        codes = {w: chr(65 + k) for k, w in enumerate(vocab)}
        distance, rows, ops = BandedDistance(ref, len(hyp), codes).trace(hyp)
        theirs, trace = BeamEditDistance(ref)(hyp)
        assert (distance, "".join(symbol[op] for op in ops)) == (theirs, trace)
        assert rows[len(hyp)][len(ref)] == distance

"""TER's lockstep searches and batched banded tables give exactly sacrebleu's numbers.

``ter_edits_many`` runs the shift searches of many pairs together and builds the
banded tables of long references (``NUMPY_FROM`` words or more) in one NumPy row
step (``ter_band.band_rows_many``). Checked here: the batched rows equal
``band_rows`` table by table (mixed lengths, a widened beam, one or many groups), the
edit counts equal sacrebleu's own ``translation_edit_rate`` on long pairs whose
searches take different numbers of rounds, and ``score_corpus("ter")`` (the batch
statistics) equals the per-item statistics with several targets.
"""

from __future__ import annotations

import random

import pytest
from sacrebleu.metrics.lib_ter import translation_edit_rate

import assay
from assay.metrics import ter_band
from assay.metrics.registry import get_metric
from assay.metrics.ter_lockstep import ter_edits_many
from assay.metrics.ter_search import ter_edits
from assay.metrics.ter_table import ArrayRows, BandedDistance, Rows, band_rows

VOCAB = [f"w{i}" for i in range(40)]


def _codes(hyp: list[str], ref: list[str]) -> dict[str, str]:
    codes: dict[str, str] = {}
    for word in (*ref, *hyp):
        codes.setdefault(word, chr(len(codes)))
    return codes


def _pair(rng: random.Random, low: int, high: int) -> tuple[list[str], list[str]]:
    ref = rng.choices(VOCAB, k=rng.randint(low, high))
    hyp = [w if rng.random() < 0.75 else rng.choice(VOCAB) for w in ref]
    if rng.random() < 0.5:  # a moved block: shifts pay off
        start = rng.randrange(len(hyp) - 12)
        block = hyp[start : start + rng.randint(2, 8)]
        del hyp[start : start + len(block)]
        at = min(len(hyp), max(0, start + rng.randint(-30, 30)))
        hyp[at:at] = block
    cut = rng.random()
    if cut < 0.3:
        hyp = hyp[: rng.randint(1, len(hyp))]
    elif cut < 0.6:
        hyp += rng.choices(VOCAB, k=rng.randint(1, 80))
    return hyp, ref


@pytest.mark.parametrize("cells", [1, 1_000_000])
def test_batched_rows_equal_band_rows_table_by_table(
    cells: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ter_band, "CELLS", cells)
    rng = random.Random(5)
    pairs = [_pair(rng, 20, 500) for _ in range(12)]
    pairs += [(["w1"], VOCAB * 15), (VOCAB[:7], VOCAB * 20), (VOCAB * 3, VOCAB[:9])]  # wide beams
    tables = [BandedDistance(ref, len(hyp), _codes(hyp, ref)) for hyp, ref in pairs]
    hyps = [hyp for hyp, _ in pairs]
    got = [rows.tolist()[1:] for rows in ter_band.band_rows_many(tables, hyps)]
    assert got == [band_rows(t, h)[1:] for t, h in zip(tables, hyps, strict=True)]


def test_lockstep_edits_equal_sacrebleus() -> None:
    rng = random.Random(11)
    pairs = [_pair(rng, 400, 440) for _ in range(3)]
    pairs += [([], VOCAB * 11), (VOCAB * 11, []), (VOCAB * 11, VOCAB * 11), (["w3"], VOCAB * 11)]
    expected = [int(translation_edit_rate(hyp, ref)[0]) for hyp, ref in pairs]
    assert ter_edits_many(pairs) == expected
    assert [ter_edits(hyp, ref) for hyp, ref in pairs] == expected


def test_corpus_statistics_equal_per_item_statistics() -> None:
    rng = random.Random(2)
    predictions, targets = [], []
    for n in range(8):
        hyp, ref = _pair(rng, 400, 460)
        other = _pair(rng, 10, 460 if n % 2 else 30)[1]
        predictions.append(" ".join(hyp))
        targets.append([" ".join(ref)] if n % 3 == 0 else [" ".join(ref), " ".join(other)])
    spec = get_metric("ter")
    assert spec.batch_stats_fn is not None and spec.stats_fn is not None
    settings = assay.bind("ter").settings
    batch = spec.batch_stats_fn(predictions, targets, settings)
    single = [spec.stats_fn(p, t, settings) for p, t in zip(predictions, targets, strict=True)]
    assert batch == single
    result = assay.score_corpus("ter", predictions, targets)
    assert list(result.values) == [
        assay.score("ter", p, t) for p, t in zip(predictions, targets, strict=True)
    ]


@pytest.mark.parametrize(
    ("n_ref", "n_hyp"), [(400, 400), (1000, 999), (420, 1300), (3000, 401), (5000, 450), (7, 600)]
)
def test_windows_equal_the_per_row_rule(n_ref: int, n_hyp: int) -> None:
    ref = ["a"] * n_ref
    table = BandedDistance(ref, n_hyp, {"a": "\x00", "b": "\x01"})
    assert table.windows == [table.window(i) for i in range(n_hyp + 1)]


def test_array_rows_read_as_the_list_rows() -> None:
    rng = random.Random(8)
    pairs = [_pair(rng, 400, 460) for _ in range(3)]
    tables = [BandedDistance(ref, len(hyp), _codes(hyp, ref)) for hyp, ref in pairs]
    hyps = [hyp for hyp, _ in pairs]
    for table, hyp, array in zip(tables, hyps, ter_band.band_rows_many(tables, hyps), strict=True):
        ours, theirs = ArrayRows(table, array), Rows(table, band_rows(table, hyp))
        for i in range(len(hyp) + 1):
            assert ours[i] == theirs[i]
            assert [ours.value(i, j) for j in range(table.n_ref + 1)] == [
                theirs.value(i, j) for j in range(table.n_ref + 1)
            ]

"""``score_corpus("edit_similarity")`` on long corpora (rapidfuzz ``cpdist`` in threads).

The batch path is compared with the metric's per-item function (``assay.score``, one
``Levenshtein.distance`` per pair) and with a hand-written Levenshtein table on small
texts; the thresholds are lowered so that small corpora take the batch path too.
"""

from __future__ import annotations

import random

import pytest
from rapidfuzz import process

import assay
from assay.metrics import edit


def _levenshtein(a: str, b: str) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1]


def _by_hand(prediction: str, targets: list[str]) -> float:
    pred = " ".join(prediction.lower().split())
    best = 0.0
    for target in targets:
        text = " ".join(target.lower().split())
        longest = max(len(pred), len(text))
        value = 1.0 if longest == 0 else 1.0 - _levenshtein(pred, text) / longest
        best = max(best, value)
    return best


def _corpus(rng: random.Random, n: int, size: int) -> tuple[list[str], list[list[str]]]:
    alphabet = "ab cdÉé ñ漢字\t"
    preds, targets = [], []
    for _ in range(n):
        preds.append("".join(rng.choices(alphabet, k=rng.randint(0, size))))
        k = rng.randint(1, 3)
        targets.append(["".join(rng.choices(alphabet, k=rng.randint(0, size))) for _ in range(k)])
    preds += ["", "", "  A  b ", "x"]
    targets += [[""], ["a", ""], ["a b"], ["  ", "X", "y"]]
    return preds, targets


def _per_item(preds: list[str], targets: list[list[str]]) -> list[float]:
    return [assay.score("edit_similarity", p, t) for p, t in zip(preds, targets, strict=True)]


@pytest.fixture
def batch_always(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(edit, "PARALLEL_FROM", 0)
    monkeypatch.setattr(edit, "LONG_TEXT", 0)


@pytest.mark.parametrize("seed", range(4))
def test_batch_path_equals_the_hand_table(seed: int, batch_always: None) -> None:
    preds, targets = _corpus(random.Random(seed), 60, 12)
    got = list(assay.score_corpus("edit_similarity", preds, targets).values)
    assert got == [_by_hand(p, t) for p, t in zip(preds, targets, strict=True)]


@pytest.mark.parametrize("workers", [1, -1])
def test_batch_path_equals_per_item_scores(
    workers: int, batch_always: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(edit, "PARALLEL_WORKERS", workers)
    preds, targets = _corpus(random.Random(7), 200, 80)
    got = list(assay.score_corpus("edit_similarity", preds, targets).values)
    assert got == _per_item(preds, targets)


def test_long_corpus_takes_the_batch_path_with_the_same_values(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(3)
    words = [f"w{i}" for i in range(300)]
    targets = [[" ".join(rng.choices(words, k=700))] for _ in range(40)]
    preds = [" ".join(w if rng.random() < 0.7 else "zz" for w in t[0].split()) for t in targets]
    assert sum(map(len, preds)) >= edit.PARALLEL_FROM
    calls: list[int] = []
    cpdist = process.cpdist

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return cpdist(*args, **kwargs)

    monkeypatch.setattr(process, "cpdist", counted)
    got = list(assay.score_corpus("edit_similarity", preds, targets).values)
    assert calls == [1]
    assert got == _per_item(preds, targets)

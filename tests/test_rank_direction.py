"""Ranking systems in the registry's direction: ``assay score METRIC --file A --file B …``.

Error rates (``wer``, ``cer``, ``ter``, ``mer``, ``wil``) rank the lowest value first;
``wip`` and every other metric the highest. The expected order and values come from
the peers (jiwer's corpus ``wer``/``cer``/``wip``, sacrebleu's corpus TER), not from assay.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import jiwer
import pytest
from sacrebleu.metrics import TER

from _ngram_cases import make_pairs
from cli_helpers import run_captured

PAIRS = [(p, t[0]) for p, t in make_pairs(120, seed=4242) if t[0].strip() and p.strip()][:60]


def _corrupt(text: str, rate: float, rng: random.Random) -> str:
    words = text.split()
    out = [w if rng.random() >= rate else rng.choice(["x", "yy", ""]) for w in words]
    return " ".join(w for w in out if w) or "x"


def _systems(tmp_path: Path) -> dict[str, tuple[Path, list[str]]]:
    """Three systems over the same targets, from nearly right to mostly wrong."""
    rng = random.Random(5)
    targets = [t for _, t in PAIRS]
    systems = {}
    for name, rate in (("mostly_wrong", 0.8), ("nearly_right", 0.05), ("half_right", 0.4)):
        preds = [_corrupt(t, rate, rng) for t in targets]
        path = tmp_path / f"{name}.jsonl"
        path.write_text(
            "".join(
                json.dumps({"id": f"q{i}", "prediction": p, "targets": [t]}) + "\n"
                for i, (p, t) in enumerate(zip(preds, targets, strict=True))
            ),
            encoding="utf-8",
        )
        systems[name] = (path, preds)
    return systems


def _board(out: str) -> list[tuple[str, float]]:
    """(system, value) rows of the printed leaderboard, in printed order."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("rank")) + 1
    rows = []
    for line in lines[start:]:
        parts = line.split()
        if len(parts) != 3 or not parts[0].isdigit():
            break
        rows.append((parts[1], float(parts[2])))
    return rows


def _peer_values(metric: str, systems: dict[str, tuple[Path, list[str]]]) -> dict[str, float]:
    targets = [t for _, t in PAIRS]
    if metric == "ter":
        ter = TER()
        return {n: ter.corpus_score(p, [targets]).score / 100 for n, (_, p) in systems.items()}
    fn = {"wer": jiwer.wer, "cer": jiwer.cer, "wip": jiwer.wip, "mer": jiwer.mer}[metric]
    return {n: float(fn(targets, p)) for n, (_, p) in systems.items()}


@pytest.mark.parametrize(("metric", "lower"), [("wer", True), ("cer", True), ("ter", True),
                                               ("mer", True), ("wip", False)])  # fmt: skip
def test_systems_rank_in_the_metric_direction(tmp_path: Path, metric: str, lower: bool) -> None:
    systems = _systems(tmp_path)
    files = [arg for path, _ in systems.values() for arg in ("--file", str(path))]
    code, out, err = run_captured("score", metric, *files, "--trials", "999")
    assert code == 0, err
    peer = _peer_values(metric, systems)
    expected = sorted(peer, key=lambda n: (peer[n] if lower else -peer[n]))
    board = _board(out)
    assert [name for name, _ in board] == expected
    for name, value in board:
        assert value == pytest.approx(peer[name], abs=5e-7)
    better = "lower" if lower else "higher"
    assert out.startswith(f"{metric} ({better} is better): 3 systems on n={len(PAIRS)} items")
    if lower:
        assert board[0][0] == "nearly_right" and board[-1][0] == "mostly_wrong"


def test_wer_lower_system_is_first_with_its_own_tie_group(tmp_path: Path) -> None:
    systems = _systems(tmp_path)
    args = ["score", "wer", "--file", str(systems["mostly_wrong"][0]),
            "--file", str(systems["nearly_right"][0]), "--trials", "999"]  # fmt: skip
    code, out, _ = run_captured(*args)
    assert code == 0
    lines = out.splitlines()
    assert lines[2].split()[:2] == ["1", "nearly_right"]
    assert lines[3].split()[:2] == ["2", "mostly_wrong"]  # separated: a different group
    assert lines[4].startswith("nearly_right vs mostly_wrong: p 0.0010, holm 0.0010 (significant)")
    assert lines[-1] == "signature: wer|tok:jiwer|norm:none|multi:native|v:0.1.0"
    assert run_captured(*args)[1] == out  # deterministic


def test_few_items_are_a_tie_not_a_win(tmp_path: Path) -> None:
    rows = {"a": ["the cat sat", "a dog ran far"], "b": ["the hat", "dog"]}
    targets = ["the cat sat", "a dog ran"]
    files = []
    for name, preds in rows.items():
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(json.dumps({"id": i, "prediction": p, "targets": [t]}) + "\n"
                                for i, (p, t) in enumerate(zip(preds, targets, strict=True))),
                        encoding="utf-8")  # fmt: skip
        files += ["--file", str(path)]
    code, out, _ = run_captured("score", "wer", *files)
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()[2:4]] == ["1", "1"]
    assert "(tie)" in out


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([{"id": "q0", "prediction": "x", "targets": ["other"]}], "field 'targets': targets of id"),
        ([{"id": "zz", "prediction": "x", "targets": ["a"]}], "field 'id': id 'zz' is not in"),
        ([], "no rows to score"),
    ],
)
def test_misaligned_system_files_are_one_error_line(
    tmp_path: Path, rows: list[dict], message: str
) -> None:
    systems = _systems(tmp_path)
    other = tmp_path / "other.jsonl"
    other.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    code, out, err = run_captured(
        "score", "wer", "--file", str(systems["half_right"][0]), "--file", str(other)
    )
    assert code != 0 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: ")
    assert str(other) in err and message in err


def test_missing_ids_name_the_file(tmp_path: Path) -> None:
    systems = _systems(tmp_path)
    short = tmp_path / "short.jsonl"
    short.write_text(json.dumps({"id": "q0", "prediction": "x", "targets": [PAIRS[0][1]]}) + "\n",
                     encoding="utf-8")  # fmt: skip
    code, _, err = run_captured(
        "score", "wer", "--file", str(systems["half_right"][0]), "--file", str(short)
    )
    assert code != 0
    assert err.startswith(f"error: {short}: field 'id': id 'q1' of the first file is missing")

"""Issue 15: no silent zero when a system's ids do not match the gold.

Policy under test (``assay.evaluation.coverage``): under the ``assay`` profile a
system none of whose ids is a gold id is an error naming a few unmatched ids and the
gold's id pattern; one covering fewer than 50 % of the gold questions warns on
stderr; the ``xldocbench`` profile keeps the released numbers and warns; the
leaderboard's "evaluated" counts questions scored from a prediction.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from assay.evaluation.coverage import PARTIAL_MATCH_THRESHOLD, id_shape
from assay.evaluation.runs import SystemInput, evaluate
from cli_helpers import run

GOLD_IDS = [f"s-S{i:02d}" for i in range(1, 11)]


def _write(tmp_path: Path, pred_ids: list[str]) -> tuple[Path, Path]:
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold.write_text(
        "".join(
            json.dumps({"question_id": i, "answer": {"value": "Paris", "format": "Str"}}) + "\n"
            for i in GOLD_IDS
        )
    )
    pred.write_text(
        "".join(json.dumps({"question_id": i, "prediction": "Paris"}) + "\n" for i in pred_ids)
    )
    return gold, pred


def test_threshold_is_half() -> None:
    assert PARTIAL_MATCH_THRESHOLD == 0.5


def test_id_shape_matches_its_id() -> None:
    for identifier in ["s-S01", "a.b(3)x12", "q", "2024-07-01T12", "x+y*z?"]:
        assert re.fullmatch(id_shape(identifier), identifier)
    assert id_shape("s-S01") == r"s-S\d{2}"


def test_no_matching_id_is_an_error_naming_ids_and_pattern(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, pred = _write(tmp_path, [f"q{i}" for i in range(1, 11)])
    assert run("eval", "--gold-files", str(gold), "--predictions", str(pred)) == 3
    err = capsys.readouterr()
    lines = err.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {pred}:")
    assert "0 of 10 gold questions" in lines[0]
    assert "'q1', 'q2', 'q3'" in lines[0]
    assert r"s-S\d{2}" in lines[0] and "'s-S01'" in lines[0]
    assert "Accuracy" not in err.out


def test_no_matching_id_with_ignore_missing_is_an_error_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, pred = _write(tmp_path, ["other"])
    args = ["eval", "--gold-files", str(gold), "--predictions", str(pred), "--ignore-missing"]
    assert run(*args) == 3
    assert "0.000000" not in capsys.readouterr().out


def test_compare_with_one_unmatched_system_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, pred = _write(tmp_path, GOLD_IDS)
    other = tmp_path / "other.jsonl"
    other.write_text('{"question_id": "zz", "prediction": "Paris"}\n')
    args = ["compare", "--gold-files", str(gold), "--predictions", str(pred)]
    assert run(*args, "--predictions", str(other)) == 3
    assert "system 'other'" in capsys.readouterr().err


def test_partial_match_under_the_threshold_warns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, pred = _write(tmp_path, [*GOLD_IDS[:4], "x1", "x2"])  # 4 of 10: under 50 %
    assert run("eval", "--gold-files", str(gold), "--predictions", str(pred)) == 0
    err = capsys.readouterr().err
    assert err.startswith("warning: ")
    assert "4 of 10 gold questions" in err and "50%" in err and "'x1', 'x2'" in err


def test_match_at_the_threshold_is_quiet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, pred = _write(tmp_path, GOLD_IDS[:5])  # exactly 50 %
    assert run("eval", "--gold-files", str(gold), "--predictions", str(pred)) == 0
    assert "warning" not in capsys.readouterr().err


def test_xldocbench_keeps_its_numbers_and_warns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, pred = _write(tmp_path, ["q1", "q2"])
    args = ["eval", "--profile", "xldocbench", "--gold-files", str(gold), "--predictions"]
    assert run(*args, str(pred)) == 0
    out = capsys.readouterr()
    assert "  Accuracy:             0.00\n" in out.out  # as released
    assert "  evaluated:            10\n" in out.out
    assert out.err.startswith("warning: ") and "0 of 10 gold questions" in out.err


def test_library_evaluate_raises_under_assay(tmp_path: Path) -> None:
    gold, pred = _write(tmp_path, ["nope"])
    with pytest.raises(Exception, match="0 of 10 gold questions"):
        evaluate([gold], [SystemInput("s", (str(pred),))])
    result = evaluate([gold], [SystemInput("s", (str(pred),))], profile="xldocbench")
    assert result.warnings and "0 of 10" in result.warnings[-1]


def test_nothing_evaluated_is_na_in_a_saved_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, pred = _write(tmp_path, ["q1"])
    report = tmp_path / "zero.json"
    args = ["eval", "--profile", "xldocbench", "--gold-files", str(gold), "--ignore-missing"]
    assert run(*args, "--predictions", str(pred), "--output", str(report)) == 0
    capsys.readouterr()
    md = tmp_path / "zero.md"
    assert run("report", str(report), "--format", "md", "--output", str(md)) == 0
    leaderboard = md.read_text().split("## Pairwise")[0]
    assert "| zero |" in leaderboard and "0.000" not in leaderboard
    assert run("compare", str(report)) == 0
    table = capsys.readouterr().out
    row = next(line for line in table.splitlines() if " zero " in line)
    assert "0/10" in row and "0.000" not in row


def test_leaderboard_evaluated_means_scored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, pred = _write(tmp_path, GOLD_IDS[:6])
    assert run("compare", "--gold-files", str(gold), "--predictions", str(pred)) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if " pred " in line)
    assert row.rstrip("│ ").endswith("6/10")

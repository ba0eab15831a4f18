"""No silent zero from a misnamed prediction field (issue 32, item 1).

A predictions file whose rows carry the text under a field assay does not read
(``"prediction"`` renamed ``"model_output"``) scored every question as empty:
Accuracy 0, exit 0, no warning. Now: most rows lacking a prediction field is an
error naming the fields found and the ones read, with ``--prediction-field``; some
rows lacking it is a warning with the count; the ``xldocbench`` profile keeps the
released numbers (checked against the released evaluator) and warns on stderr.

Counts are taken from the files themselves (rows matching gold ids whose status is
not substituted), not from assay.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import assay
from assay.errors import InputFileError

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
DATA = SRC / "assay" / "data" / "xlsample"
PREDICTIONS = DATA / "predictions" / "atlas-7b.jsonl"
PEER = Path("/work/shared/peers/xldocbench_evaluate.py")
ACCEPTED = "prediction, model_answer, answer, response, output"


def _run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "assay", *map(str, args)],
        capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "PYTHONPATH": str(SRC), "COLUMNS": "150"},
    )  # fmt: skip


def _rows() -> list[dict]:
    return [json.loads(line) for line in PREDICTIONS.read_text("utf-8").splitlines()]


def _gold_ids() -> set[str]:
    ids = set()
    for name in ("qa_single_doc.jsonl", "qa_cross_doc.jsonl"):
        for line in (DATA / name).read_text("utf-8").splitlines():
            ids.add(json.loads(line)["question_id"])
    return ids


def _needing_text(rows: list[dict]) -> list[dict]:
    """Rows matching gold ids whose status is not substituted (they need text)."""
    gold = _gold_ids()
    substituted = ("context_overflow", "vision_unsupported")
    return [r for r in rows if r["question_id"] in gold and r.get("status") not in substituted]


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    return path


def _renamed(rows: list[dict], count: int | None = None) -> list[dict]:
    out = []
    for index, row in enumerate(rows):
        row = dict(row)
        if count is None or index < count:
            row = {("model_output" if k == "prediction" else k): v for k, v in row.items()}
        out.append(row)
    return out


def _accuracy(stdout: str) -> str:
    match = re.search(r"^Accuracy: (\S+)$", stdout, re.M)
    assert match, stdout
    return match.group(1)


def test_a_renamed_field_is_an_error_naming_found_and_accepted(tmp_path: Path) -> None:
    renamed = _write(tmp_path / "p.jsonl", _renamed(_rows()))
    done = _run("eval", "--data-dir", DATA, "--predictions", renamed)
    assert done.returncode != 0 and "Accuracy" not in done.stdout
    (line,) = [x for x in done.stderr.splitlines() if x.startswith("error:")]
    needing = len(_needing_text(_rows()))
    assert f"{needing} of {needing} prediction rows" in line
    assert "model_output" in line and ACCEPTED in line
    assert "--prediction-field model_output" in line and str(renamed) in line
    assert "Traceback" not in done.stderr


def test_prediction_field_reads_the_renamed_field(tmp_path: Path) -> None:
    renamed = _write(tmp_path / "p.jsonl", _renamed(_rows()))
    chosen = _run("eval", "--data-dir", DATA, "--predictions", renamed,
                  "--prediction-field", "model_output")  # fmt: skip
    original = _run("eval", "--data-dir", DATA, "--predictions", PREDICTIONS)
    assert chosen.returncode == 0 == original.returncode, chosen.stderr
    assert _accuracy(chosen.stdout) == _accuracy(original.stdout) != "0.000000"
    assert "warning" not in chosen.stderr


def test_some_rows_without_the_field_get_a_warning_with_the_count(tmp_path: Path) -> None:
    rows = _renamed(_rows(), count=3)
    partial = _write(tmp_path / "p.jsonl", rows)
    done = _run("eval", "--data-dir", DATA, "--predictions", partial)
    assert done.returncode == 0, done.stderr
    lacking = sum(1 for r in _needing_text(rows) if "prediction" not in r)
    needing = len(_needing_text(rows))
    assert lacking == 3
    (warning,) = [x for x in done.stderr.splitlines() if "lack a prediction field" in x]
    assert warning.startswith("warning: ") and f"{lacking} of {needing} prediction rows" in warning


def test_a_csv_column_renamed_is_refused_too(tmp_path: Path) -> None:
    frame = pd.DataFrame(_renamed(_rows()))
    path = tmp_path / "p.csv"
    frame.to_csv(path, index=False)
    done = _run("eval", "--data-dir", DATA, "--predictions", path)
    assert done.returncode != 0 and "model_output" in done.stderr and ACCEPTED in done.stderr


def test_a_csv_with_mostly_empty_cells_is_not_a_misnamed_field(tmp_path: Path) -> None:
    # An empty cell reads as an absent field; with the column present it is an empty answer.
    rows = [dict(r, prediction="" if i % 4 else r["prediction"]) for i, r in enumerate(_rows())]
    path = tmp_path / "p.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    done = _run("eval", "--data-dir", DATA, "--predictions", path)
    assert done.returncode == 0, done.stderr
    assert "prediction field" not in done.stderr


@pytest.mark.skipif(not PEER.is_file(), reason="the released evaluator is not here")
def test_xldocbench_keeps_the_released_numbers_and_warns(tmp_path: Path) -> None:
    renamed = _write(tmp_path / "p.jsonl", _renamed(_rows()))
    done = _run("eval", "--data-dir", DATA, "--predictions", renamed, "--profile", "xldocbench")
    assert done.returncode == 0, done.stderr
    assert any(
        x.startswith("warning: ") and "lack a prediction field" in x and "model_output" in x
        for x in done.stderr.splitlines()
    )
    assert "lack a prediction field" not in done.stdout
    report = tmp_path / "released.json"
    peer = subprocess.run(
        [sys.executable, str(PEER), "--predictions", str(renamed), "--gold-files",
         str(DATA / "qa_single_doc.jsonl"), str(DATA / "qa_cross_doc.jsonl"),
         "--output", str(report)],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    assert done.stdout == peer.stdout  # the released summary, byte for byte (issue 27)


def test_library_evaluate_with_a_renamed_dataframe_column() -> None:
    frame = pd.DataFrame(_rows()).rename(columns={"prediction": "model_output"})
    gold = DATA / "qa_single_doc.jsonl"
    with pytest.raises(InputFileError, match="model_output") as caught:
        assay.evaluate(gold, [assay.SystemInput("atlas", frame)])
    assert ACCEPTED in str(caught.value) and "prediction_field=" in str(caught.value)
    result = assay.evaluate(gold, [assay.SystemInput("atlas", frame)],
                            prediction_field="model_output")  # fmt: skip
    plain = assay.evaluate(gold, [assay.SystemInput("atlas", PREDICTIONS)])
    assert result.systems[0].overall == plain.systems[0].overall
    assert plain.systems[0].overall.accuracy > 0

"""Issue 32 item 7: CSV as pandas and Excel write it (list targets, semicolons)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import assay


def assay_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "assay", *args], capture_output=True, text=True, timeout=120
    )


def test_list_targets_written_by_pandas_are_several_references(tmp_path: Path) -> None:
    path = tmp_path / "pairs.csv"
    pd.DataFrame(
        {
            "id": ["q1", "q2", "q3", "q4"],
            "prediction": ["Paris", "blue", "[citation needed]", "x"],
            "targets": [["paris", "Paris"], ["red", "blue"], ["[citation needed]"], ["y"]],
        }
    ).to_csv(path, index=False)
    assert "\"['paris', 'Paris']\"" in path.read_text("utf-8")  # pandas' Python-list cell
    done = assay_cli("score", "exact_match", "--file", str(path))
    assert done.returncode == 0, done.stderr
    # by hand: q1 matches 'Paris', q2 'blue', q3 its bracketed text, q4 nothing: 3/4
    assert done.stdout.splitlines()[0] == "exact_match: 0.750000 (mean over n=4)"


def test_a_json_list_cell_and_a_plain_bracketed_cell(tmp_path: Path) -> None:
    path = tmp_path / "pairs.csv"
    path.write_text(
        'id,prediction,targets\nq1,b,"[""a"", ""b""]"\nq2,[note],[note]\n', encoding="utf-8"
    )
    done = assay_cli("score", "exact_match", "--file", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "exact_match: 1.000000 (mean over n=2)"


def test_a_list_cell_that_is_not_strings_is_refused_with_the_way_out(tmp_path: Path) -> None:
    path = tmp_path / "pairs.csv"
    path.write_text('id,prediction,targets\nq1,a,"[1, 2]"\n', encoding="utf-8")
    done = assay_cli("score", "f1", "--file", str(path))
    assert done.returncode == 3
    line = done.stderr.strip()
    assert line.startswith(f"error: {path}:2: field 'targets':") and "\n" not in line
    assert '["a", "b"]' in line


def test_a_semicolon_csv_reads_as_its_columns(tmp_path: Path) -> None:
    pairs = tmp_path / "pairs.csv"
    pd.DataFrame(
        {"id": ["q1", "q2"], "prediction": ["Paris", "blue"], "targets": ["Paris", "red"]}
    ).to_csv(pairs, index=False, sep=";")
    done = assay_cli("score", "exact_match", "--file", str(pairs))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "exact_match: 0.500000 (mean over n=2)"


def test_eval_reads_a_semicolon_prediction_csv_as_its_jsonl(tmp_path: Path) -> None:
    data = assay.data_path("xlsample")
    source = data / "predictions" / "atlas-7b.jsonl"
    rows = [json.loads(line) for line in source.read_text("utf-8").splitlines() if line.strip()]
    semicolons = tmp_path / "atlas-7b.csv"
    pd.DataFrame(rows).to_csv(semicolons, index=False, sep=";")
    out = {}
    for predictions in (source, semicolons):
        target = tmp_path / f"{predictions.suffix[1:]}.json"
        done = assay_cli("eval", "--data-dir", str(data), "--predictions", str(predictions),
                         "--result-json", str(target))  # fmt: skip
        assert done.returncode == 0, done.stderr
        out[predictions.suffix] = json.loads(target.read_text("utf-8"))["systems"]
    csv_system, jsonl_system = out[".csv"][0], out[".jsonl"][0]
    for key in ("accounting", "overall", "accuracy_rate", "evaluated_count"):
        assert csv_system[key] == jsonl_system[key], key


@pytest.mark.parametrize("header", ["id;prediction;targets", "a;b"])
def test_sniffing_needs_named_columns(header: str) -> None:
    from assay.io.tabular import sniff_delimiter

    assert sniff_delimiter(header + "\r\n", ",") == ";"
    assert sniff_delimiter("id,prediction;x\n", ",") == ","  # a comma header stays
    assert sniff_delimiter("a;;b\n", ",") == ","  # an empty name: not a semicolon header

"""Issue 15: CSV formula injection policy and Markdown cells with a lone CR.

CSV files are read back with the standard library's ``csv`` reader, Markdown tables
are checked line by line (every row has the header's number of unescaped pipes).
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from assay.report.csv_guard import GUARDED, RAW, guard_cell
from assay.report.markdown import escape_cell, markdown_table
from cli_helpers import run

HOSTILE = ['=HYPERLINK("http://127.0.0.1/x","y")', "+1+2", "-2+3", "@SUM(A1)", "\tx", "\rx"]


def _rows(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as handle:  # keep a CR inside a cell
        return list(csv.reader(handle))


@pytest.mark.parametrize("cell", HOSTILE)
def test_guard_quotes_every_formula_start(cell: str) -> None:
    assert guard_cell(cell) == "'" + cell


@pytest.mark.parametrize("cell", ["-3", "+1.5e3", "-.5", "0.250000", "Paris", "", "a=b"])
def test_guard_leaves_numbers_and_plain_text(cell: str) -> None:
    assert guard_cell(cell) == cell


def _gold_and_predictions(tmp_path: Path) -> tuple[Path, Path]:
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold.write_text(
        "".join(
            json.dumps(
                {"question_id": f"q{i}", "answer": {"value": "Paris", "format": "Str"},
                 "metadata": {"domain": "=cmd|' /C calc'!A0"}}
            ) + "\n"
            for i in range(len(HOSTILE))
        )
    )  # fmt: skip
    pred.write_text(
        "".join(
            json.dumps({"question_id": f"q{i}", "prediction": p}) + "\n"
            for i, p in enumerate(HOSTILE)
        )
    )
    return gold, pred


def test_assay_per_question_csv_is_guarded(tmp_path: Path) -> None:
    gold, pred = _gold_and_predictions(tmp_path)
    out, report = tmp_path / "pq.csv", tmp_path / "r.json"
    args = ["eval", "--gold-files", str(gold), "--predictions", str(pred)]
    assert run(*args, "--per-question-csv", str(out), "--output", str(report)) == 0
    rows = _rows(out)
    column = rows[0].index("prediction")
    assert [r[column] for r in rows[1:]] == ["'" + h for h in HOSTILE]
    domain = rows[0].index("domain")
    assert {r[domain] for r in rows[1:]} == {"'=cmd|' /C calc'!A0"}
    assert json.loads(report.read_text())["assay"]["csv_formula_policy"] == GUARDED


def test_xldocbench_per_question_csv_stays_raw(tmp_path: Path) -> None:
    gold, pred = _gold_and_predictions(tmp_path)
    out, report = tmp_path / "pq.csv", tmp_path / "r.json"
    args = ["eval", "--profile", "xldocbench", "--gold-files", str(gold), "--predictions"]
    assert run(*args, str(pred), "--per-question-csv", str(out), "--output", str(report),
               "--provenance-sidecar") == 0  # fmt: skip
    text = out.read_text()
    assert '"=HYPERLINK(""http://127.0.0.1/x"",""y"")"' in text  # as csv.writer writes it raw
    assert "'=" not in text and "'+" not in text
    sidecar = json.loads((tmp_path / "r.provenance.json").read_text())
    assert sidecar["csv_formula_policy"] == RAW


def test_report_format_csv_is_guarded(tmp_path: Path) -> None:
    gold, pred = _gold_and_predictions(tmp_path)
    result = tmp_path / "result.json"
    args = ["eval", "--gold-files", str(gold), "--predictions", str(pred)]
    assert run(*args, "--result-json", str(result)) == 0
    out = tmp_path / "items.csv"
    assert run("report", str(result), "--format", "csv", "--output", str(out)) == 0
    rows = _rows(out)
    column = rows[0].index("prediction")
    assert sorted(r[column] for r in rows[1:]) == sorted("'" + h for h in HOSTILE)


def test_structured_per_item_csv_is_guarded(tmp_path: Path) -> None:
    schema, items = tmp_path / "schema.json", tmp_path / "items.jsonl"
    schema.write_text('{"type": "object"}')
    items.write_text(json.dumps({"id": "=evil()", "response": "@SUM(1)"}) + "\n")
    out = tmp_path / "items.csv"
    args = ["structured", "--items", str(items), "--schema", str(schema)]
    assert run(*args, "--output", str(tmp_path / "s.json"), "--per-item", str(out)) == 0
    rows = _rows(out)
    assert rows[1][rows[0].index("id")] == "'=evil()"
    assert rows[1][rows[0].index("response")] == "'@SUM(1)"


def _pipes(line: str) -> int:
    return len(re.findall(r"(?<!\\)\|", line.replace("\\\\", "")))


@pytest.mark.parametrize("label", ["fin\rance", "a\r\nb", "x\u2028y", "p|q\rr"])
def test_markdown_cell_with_a_line_break_stays_one_row(label: str) -> None:
    table = markdown_table(["name", "n"], [[label, "1"]], "lr")
    lines = table.splitlines()  # splitlines also breaks at a lone CR and at LS
    assert len(lines) == 3
    assert _pipes(lines[2]) == _pipes(lines[0]) == 3
    assert "\r" not in escape_cell(label)


def test_markdown_report_with_cr_in_a_label(tmp_path: Path) -> None:
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold.write_text(
        json.dumps({"question_id": "q1", "answer": {"value": "Paris", "format": "Str"},
                    "metadata": {"domain": "fin\rance"}}) + "\n"
    )  # fmt: skip
    pred.write_text('{"question_id": "q1", "prediction": "Paris"}\n')
    md = tmp_path / "r.md"
    args = ["eval", "--gold-files", str(gold), "--predictions", str(pred)]
    assert run(*args, "--markdown", str(md)) == 0
    text = md.read_bytes().decode()
    assert "\r" not in text
    assert "| fin ance |" in text

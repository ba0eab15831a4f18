"""One run rendered to every surface gives the same counts (issue 32, item 3; docs/counts.md).

atlas-7b in the bundled sample has 48 gold questions and one missing prediction. The
summary said ``Evaluated: 48`` beside ``Missing predictions: 1``, the leaderboard
``47/48``, the repr and ``summary_frame()`` ``48/48``, and report.md headed the k/n
column ``n``. The expected numbers come from the files: G = gold lines, evaluated =
gold ids with a prediction row, correct = rows of the per-item CSV with accuracy 1.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import assay

SRC = Path(__file__).resolve().parents[1] / "src"
DATA = SRC / "assay" / "data" / "xlsample"
GOLD = [DATA / "qa_single_doc.jsonl", DATA / "qa_cross_doc.jsonl"]
ATLAS = DATA / "predictions" / "atlas-7b.jsonl"
CIRRUS = DATA / "predictions" / "cirrus-mini.jsonl"


def _ids(path: Path) -> list[str]:
    return [json.loads(line)["question_id"] for line in path.read_text("utf-8").splitlines()]


GOLD_IDS = [i for p in GOLD for i in _ids(p)]
G = len(GOLD_IDS)
EVALUATED = len(set(GOLD_IDS) & set(_ids(ATLAS)))


def _assay(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "assay", *map(str, args)],
        capture_output=True, text=True, timeout=300, check=False, cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(SRC), "COLUMNS": "200"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    out = tmp_path_factory.mktemp("surfaces")
    both = ("--predictions", ATLAS, "--predictions", CIRRUS)
    single = _assay("eval", "--data-dir", DATA, "--predictions", ATLAS, cwd=out)
    board = _assay("eval", "--data-dir", DATA, *both, "--result-json", out / "r.json",
                   "--markdown", out / "r.md", "--html", out / "r.html", cwd=out)  # fmt: skip
    _assay("report", out / "r.json", "--format", "csv", "--output", out / "r.csv", cwd=out)
    return {
        "summary": single.stdout,
        "board": board.stdout,
        "json": (out / "r.json").read_text("utf-8"),
        "md": (out / "r.md").read_text("utf-8"),
        "html": (out / "r.html").read_text("utf-8"),
        "csv": (out / "r.csv").read_text("utf-8"),
    }


def _correct(run: dict[str, str]) -> int:
    rows = list(csv.DictReader(io.StringIO(run["csv"])))
    mine = [r for r in rows if r["system"] == "atlas-7b"]
    assert len(mine) == G
    assert sum(r["bucket"] != "missing" for r in mine) == EVALUATED
    return sum(float(r["accuracy"]) == 1.0 for r in mine)


def test_the_sample_has_one_missing_prediction() -> None:
    assert (G, EVALUATED) == (48, 47)


def test_every_surface_says_the_same_counts(run: dict[str, str]) -> None:
    correct = _correct(run)
    evaluated, right = f"{EVALUATED}/{G}", f"{correct}/{G}"
    # terminal summary (one system) and leaderboard (two)
    assert re.search(rf"^Evaluated: {EVALUATED}$", run["summary"], re.M)
    assert re.search(r"^Missing predictions: 1$", run["summary"], re.M)
    (line,) = [x for x in run["board"].splitlines() if "atlas-7b" in x and "/" in x]
    assert evaluated in line and right in line
    assert "correct/n" in run["board"]
    # JSON
    (entry,) = [s for s in json.loads(run["json"])["systems"] if s["system"] == "atlas-7b"]
    assert (entry["evaluated"], entry["n"], entry["gold_count"]) == (EVALUATED, G, G)
    assert entry["accuracy_rate"]["k"] == correct and entry["accuracy_rate"]["n"] == G
    # Markdown: the k/n column is headed correct/n, evaluated beside it
    header = next(x for x in run["md"].splitlines() if x.startswith("| rank |"))
    assert [c.strip() for c in header.strip("|").split("|")][-2:] == ["correct/n", "evaluated"]
    row = next(x for x in run["md"].splitlines() if x.startswith("| ") and "| atlas-7b |" in x)
    assert row.rstrip().endswith(f"| {right} | {evaluated} |")
    # HTML: captions' n and the evaluated column
    assert f"atlas-7b n={G}, evaluated {evaluated}" in run["html"]
    assert "<th>accuracy correct/n [Wilson]</th><th>evaluated</th>" in run["html"]
    assert f"<td class=\"num\">{evaluated}</td>" in run["html"]


def test_repr_and_summary_frame_say_the_same(run: dict[str, str]) -> None:
    correct = _correct(run)
    result = assay.evaluate(GOLD, [assay.SystemInput("atlas-7b", ATLAS)])
    assert f"evaluated {EVALUATED}/{G}  correct {correct}/{G}" in repr(result)
    frame = result.summary_frame()
    (row,) = frame.to_dict("records")
    assert (row["questions"], row["evaluated"], row["n"], row["correct"]) == (
        G, EVALUATED, G, correct,
    )  # fmt: skip
    assert row["missing_predictions"] == 1


def test_ignore_missing_makes_n_the_evaluated_questions() -> None:
    result = assay.evaluate(GOLD, [assay.SystemInput("atlas-7b", ATLAS)], ignore_missing=True)
    (row,) = result.summary_frame().to_dict("records")
    assert (row["evaluated"], row["n"]) == (EVALUATED, EVALUATED)


def test_a_result_saved_before_evaluated_was_recorded_renders_the_same(
    run: dict[str, str],
) -> None:
    from assay.report.result.markdown import render_result_markdown
    from assay.report.result.schema import check_saved_document

    document = json.loads(run["json"])
    for system in document["systems"]:
        del system["evaluated"], system["n"]
    check_saved_document(document, "old-result.json")  # an older result.json is still valid
    assert render_result_markdown(document) == run["md"]

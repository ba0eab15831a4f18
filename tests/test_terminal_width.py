"""The terminal report fits 80–160 columns: intervals on one line, a pair list for many systems."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import assay
from assay.evaluation.compare import CompareOptions, result_document
from assay.evaluation.runs import SystemInput, evaluate
from assay.report.markdown import format_number
from assay.report.result.markdown import p_text
from assay.report.result.terminal import compact_interval, print_result
from cli_helpers import run

SAMPLE = assay.data_path("xlsample")
GOLD = [SAMPLE / "qa_single_doc.jsonl", SAMPLE / "qa_cross_doc.jsonl"]
SRC = Path(__file__).resolve().parents[1] / "src"


def document(folder: Path | None = None) -> dict[str, Any]:
    files = sorted((folder or SAMPLE / "predictions").glob("*.jsonl"))
    result = evaluate(GOLD, [SystemInput(f.stem, str(f)) for f in files])
    return result_document(result, CompareOptions(n_resamples=2000))


@pytest.fixture(scope="module")
def sample() -> dict[str, Any]:
    return document()


def render(doc: dict[str, Any], width: int) -> str:
    console = Console(record=True, width=width, color_system=None, force_terminal=False)
    print_result(doc, console)
    return console.export_text()


@pytest.mark.parametrize("width", [100, 120, 160])
def test_every_leaderboard_interval_stays_on_one_line(sample: dict[str, Any], width: int) -> None:
    text = render(sample, width)
    assert max(len(line) for line in text.splitlines()) <= width
    board = text[: text.index("Paired differences")]
    for system in sample["systems"]:
        [row] = [line for line in board.splitlines() if f" {system['system']} " in line]
        for metric in sample["metrics"]:
            estimate = system["overall"][metric]
            full = f"[{format_number(estimate['lower'])}, {format_number(estimate['upper'])}]"
            short = compact_interval(estimate["lower"], estimate["upper"])
            assert f"{format_number(estimate['mean'])} " in row
            assert full in row or short in row, (metric, row)


def test_at_100_columns_a_left_out_column_is_named(sample: dict[str, Any]) -> None:
    text = render(sample, 100)
    note = "(not shown at 100 columns: accuracy correct/n [Wilson]; see the Markdown report)"
    assert note in text
    assert "accuracy correct/n [Wilson]" not in text.split("(not shown")[0]
    wide = render(sample, 160)
    assert "not shown" not in wide and "accuracy correct/n [Wilson]" in wide


def test_at_80_columns_the_ranking_metric_stays(sample: dict[str, Any]) -> None:
    text = render(sample, 80)
    board = text[: text.index("(not shown")]
    assert max(len(line) for line in board.splitlines()) <= 80
    assert "accuracy [95% CI]" in board and "token F1" not in board
    assert "token F1, ANLS" in " ".join(text.split())  # the note may wrap at 80 columns


@pytest.fixture(scope="module")
def thirteen(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("thirteen")
    rng = random.Random(13)
    bases = [[json.loads(x) for x in f.read_text("utf-8").splitlines() if x.strip()]
             for f in sorted((SAMPLE / "predictions").glob("*.jsonl"))]  # fmt: skip
    for i in range(13):
        rows = [dict(r) for r in bases[i % 3]]
        for row in rows:
            if rng.random() < 0.08 * (i % 4):
                row["prediction"] = "no idea"
        (folder / f"system-{i:02d}.jsonl").write_text(
            "".join(json.dumps(r) + "\n" for r in rows), "utf-8"
        )
    return document(folder)


def test_thirteen_systems_at_160_columns_show_every_p_value_whole(
    thirteen: dict[str, Any],
) -> None:
    text = render(thirteen, 160)
    assert max(len(line) for line in text.splitlines()) <= 160
    lines = text.splitlines()
    pairs = thirteen["comparison"]["pairs"]
    assert len(pairs) == 78
    for pair in pairs:
        row = [ln for ln in lines if re.search(rf"\b{pair['a']}\b.*\b{pair['b']}\b.*\d", ln)]
        assert row and p_text(pair["p_holm"]) in row[0], pair


def test_demo_ends_with_the_leaderboard_and_the_file_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert run("demo") == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) <= 40
    board = next(i for i, line in enumerate(lines) if "Leaderboard by accuracy" in line)
    files = lines.index("Files written to assay-demo/ :")
    assert board < files and all("Pairwise" not in line for line in lines)
    assert lines[files + 1 : files + 11] == [
        f"  assay-demo/{name}" for name in (
            "report.json", "per_question.csv", "results/scores.jsonl", "results/summary.json",
            "manifest.json", "assay-result.json", "report.html", "report.md",
            "structured/report.json", "structured/items.jsonl",
        )
    ]  # fmt: skip
    assert lines[-1] == "Check the release with: assay check assay-demo --profile assay"


def test_a_terminal_sees_the_statistics_phase(tmp_path: Path) -> None:
    command = (f"{sys.executable} -m assay compare --data-dir {SAMPLE} "
               f"--predictions {SAMPLE / 'predictions'} --html {tmp_path / 'r.html'}")  # fmt: skip
    done = subprocess.run(
        ["script", "-qec", command, "/dev/null"], capture_output=True, text=True,
        env={"PYTHONPATH": str(SRC), "COLUMNS": "100", "PATH": "/usr/bin:/bin", "TERM": "xterm"},
        timeout=300, check=False, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:]
    assert "statistics: intervals, paired tests, tie groups" in done.stdout
    assert "writing reports" in done.stdout


def test_columns_lays_out_a_piped_report_for_that_width() -> None:
    """``COLUMNS=100 assay eval … | less``: no terminal, yet every line fits 100 columns."""
    env = {"PYTHONPATH": str(SRC), "COLUMNS": "100", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-m", "assay", "eval", "--data-dir", str(SAMPLE),
         "--predictions", str(SAMPLE / "predictions")],
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert any("Leaderboard" in line for line in lines)
    assert max(len(line) for line in lines) <= 100
    assert "(not shown at 100 columns" in done.stdout
    without = {k: v for k, v in env.items() if k != "COLUMNS"}
    wide = subprocess.run(
        [sys.executable, "-m", "assay", "eval", "--data-dir", str(SAMPLE),
         "--predictions", str(SAMPLE / "predictions")],
        capture_output=True, text=True, env=without, timeout=300, check=True,
    )  # fmt: skip
    assert max(len(line) for line in wide.stdout.splitlines()) > 100


@pytest.mark.parametrize("width", [80, 100, 160])
def test_thirteen_systems_slice_tables_fit_with_every_cell_whole(
    thirteen: dict[str, Any], width: int
) -> None:
    console = Console(record=True, width=width, color_system=None, force_terminal=False)
    print_result(thirteen, console, dimensions=("split", "domain"))
    text = console.export_text()
    assert max(len(line) for line in text.splitlines()) <= width
    metric = thirteen["comparison"]["metric"]
    for dimension in ("split", "domain"):
        tail = text[text.index(f"Accuracy by {dimension}") :]
        for label, per_system in thirteen["slices"][dimension].items():
            for system, entry in per_system.items():
                estimate = entry[metric]
                short = compact_interval(estimate["lower"], estimate["upper"])
                cell = f"{format_number(estimate['mean'])} {short}"
                full = f"[{format_number(estimate['lower'])}, {format_number(estimate['upper'])}]"
                # each cell whole on one line: compact, full, or n/a when there is no interval
                assert cell in tail or full in tail or estimate["lower"] is None, (system, label)
        systems_seen = {s["system"] for s in thirteen["systems"]}
        assert all(name in tail for name in systems_seen)


def test_at_100_columns_split_turns_round_and_domain_is_cut_into_groups(
    thirteen: dict[str, Any],
) -> None:
    console = Console(record=True, width=100, color_system=None, force_terminal=False)
    print_result(thirteen, console, dimensions=("split", "domain"))
    text = console.export_text()
    assert "Accuracy by split (rows: systems)" in text
    titles = re.findall(r"Accuracy by domain \((systems? [^)]*)\)", text)
    assert titles[0].startswith("systems 1–") and titles[-1].endswith("13 of 13")
    shown = [int(n) for t in titles for n in re.findall(r"\d+", t.split(" of ")[0])]
    assert shown[0] == 1 and shown[-1] == 13


def test_many_pairs_carry_their_mdd_in_the_pair_list_not_one_line_each(
    thirteen: dict[str, Any],
) -> None:
    text = render(thirteen, 100)
    assert " vs " not in text  # no per-pair MDD lines
    lines = text.splitlines()
    for pair in thirteen["comparison"]["pairs"]:
        row = next(ln for ln in lines if re.search(rf"│ {pair['a']} +│ {pair['b']} +│", ln))
        assert row.rstrip(" │").endswith(format_number(pair["difference"]["mdd"])), row
    from assay.report.result.terminal import mdd_lines

    [line] = mdd_lines(thirteen)
    values = sorted(p["difference"]["mdd"] for p in thirteen["comparison"]["pairs"])
    assert line.startswith("minimum detectable difference over 78 pairs: ")
    assert format_number(values[0]) in line and format_number(values[-1]) in line


def test_a_few_systems_keep_one_mdd_line_per_pair(sample: dict[str, Any]) -> None:
    text = render(sample, 160)
    for pair in sample["comparison"]["pairs"]:
        mdd = format_number(pair["difference"]["mdd"])
        assert f"{pair['a']} vs {pair['b']}: minimum detectable difference {mdd}" in text


# --- the fit test's shortcut: a lower bound on the width, decided without rich -----------

from hypothesis import assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from rich.errors import MarkupError  # noqa: E402
from rich.markup import render as render_markup  # noqa: E402
from rich.table import Table  # noqa: E402

from assay.report.result.terminal import _fits, _needed_width, _plain_width  # noqa: E402

CELL = st.text(
    st.sampled_from(list("ab AZ09.-+*()[]/#@:\\–·é中\u0301\n")), max_size=14
)  # plain cells, markup, emoji codes, escapes, wide and zero-width characters


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(CELL, min_size=1, max_size=5), min_size=1, max_size=5),
    st.integers(5, 90),
    st.booleans(),
)
def test_fits_agrees_with_rich_measuring(rows: list[list[str]], width: int, no_wrap: bool) -> None:
    for cell in (c for r in rows for c in r):  # markup rich itself refuses ('[/0]') is no table
        try:
            render_markup(cell)
        except MarkupError:
            assume(False)
    columns = max(len(r) for r in rows)
    table = Table(title="t")
    for k in range(columns):
        table.add_column(f"c{k}", no_wrap=no_wrap)
    for row in rows:
        table.add_row(*row, *[""] * (columns - len(row)))
    console = Console(file=None, width=width)
    assert _fits(console, table) == (_needed_width(console, table) <= width)


def test_plain_width_is_the_drawn_width_or_zero() -> None:
    console = Console(width=200)
    for cell in ("0.523 [0.497, 0.549]", "+0.123 (p=0.0001)*", ".52 [.49–.55]", "n/a"):
        assert _plain_width(cell) == len(cell) == console.measure(cell).maximum
    for cell in ("[bold]x[/bold]", "a:smile:", "中文", "e\u0301", "a\nb", "a\\[b]"):
        assert _plain_width(cell) == 0

"""Run one generated case through the reference and through ``assay eval --profile xldocbench``.

The assay side is the real CLI (``assay.cli.main.main``, in-process so thousands of
questions stay cheap). Compared: per-question rows, report.json bytes and the
per-question CSV bytes; where the reference fails (the released script would stop
with an exception), assay must exit non-zero with a one-line ``error:`` message.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import xl_reference as ref
from cli_helpers import run_captured
from xl_generator import Case


@dataclass
class Outcome:
    """What one case compared: questions, and the first difference (``None``: identical)."""

    questions: int
    difference: str | None
    broken: bool


def run_assay(case: Case, folder: Path) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``assay eval --profile xldocbench`` on the case."""
    gold = (str(folder / g) for g in case.gold)
    args = ["eval", "--profile", "xldocbench", "--gold-files", *gold,
            "--predictions", str(folder / case.predictions),
            "--output", str(folder / "out" / "report.json"),
            "--per-question-csv", str(folder / "out" / "per_question.csv")]  # fmt: skip
    if case.prediction_field is not None:
        args += ["--prediction-field", case.prediction_field]
    if case.ignore_missing:
        args.append("--ignore-missing")
    return run_captured(*args)


def _first_row_difference(mine: list[dict], theirs: list[dict]) -> str | None:
    if len(mine) != len(theirs):
        return f"{len(theirs)} per-question rows, reference {len(mine)}"
    for expected, got in zip(mine, theirs, strict=True):
        a = json.dumps(expected, ensure_ascii=False)
        b = json.dumps(got, ensure_ascii=False)
        if a != b:
            return f"per-question row differs:\n  reference {a}\n  assay     {b}"
    return None


def compare_case(case: Case, folder: Path) -> Outcome:
    """Write the case under ``folder``, run both sides and compare them."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in case.files.items():
        (folder / name).write_bytes(data)
    gold = [str(folder / g) for g in case.gold]
    try:
        report = ref.evaluate(
            gold, str(folder / case.predictions), case.prediction_field, case.ignore_missing
        )
        expected = (ref.report_bytes(report), ref.csv_bytes(report))
    except ref.Failed:
        report = None
    code, _, err = run_assay(case, folder)
    if report is None:
        lines = [line for line in err.splitlines() if line.startswith("error:")]
        ok = code != 0 and len(lines) == 1 and "Traceback" not in err
        return Outcome(0, None if ok else f"released fails; assay exit {code}: {err}", True)
    if code != 0:
        return Outcome(0, f"reference scores it; assay exit {code}: {err}", False)
    got_json = (folder / "out" / "report.json").read_bytes()
    got_csv = (folder / "out" / "per_question.csv").read_bytes()
    rows = _first_row_difference(report["per_question"], json.loads(got_json)["per_question"])
    if rows is not None:
        return Outcome(len(report["per_question"]), rows, False)
    if got_json != expected[0]:
        return Outcome(len(report["per_question"]), "report.json bytes differ", False)
    if got_csv != expected[1]:
        return Outcome(len(report["per_question"]), "per-question CSV bytes differ", False)
    return Outcome(report["gold_count"], None, False)

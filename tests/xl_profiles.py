"""Both profiles on one small input, the xldocbench side held to the released evaluator.

Helpers of the named profile-difference tests (``tests/test_profile_differences.py``,
``tests/test_xldocbench_released_rules.py``): :func:`evaluate` runs ``assay eval`` on
files it writes, :func:`released` runs the released evaluator (``RELEASED``, see
:mod:`xl_differential`) with the same options and asserts every output identical.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import run_captured
from xl_differential import RELEASED, SKIP_REASON


@dataclass
class Run:
    """One ``assay eval`` run: exit code, streams and the written report (if any)."""

    code: int
    out: str
    err: str
    report: bytes | None
    csv: bytes | None
    args: list[str] = field(default_factory=list)
    folder: Path = Path()

    def row(self, index: int = 0) -> dict[str, Any]:
        """The per-question row ``index`` of the written report."""
        assert self.report is not None, self.err
        row: dict[str, Any] = json.loads(self.report)["per_question"][index]
        return row

    def doc(self) -> dict[str, Any]:
        """The whole written report."""
        assert self.report is not None, self.err
        doc: dict[str, Any] = json.loads(self.report)
        return doc

    def warnings(self) -> list[str]:
        """The ``warning:`` lines on stderr."""
        return [line for line in self.err.splitlines() if line.startswith("warning:")]

    def errors(self) -> list[str]:
        """The ``error:`` lines on stderr."""
        return [line for line in self.err.splitlines() if line.startswith("error:")]

    def written(self) -> list[str]:
        """The files under the run's output folder."""
        out = self.folder / "out"
        return sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())


def gold_row(qid: Any = "q1", value: Any = "Paris", **changes: Any) -> dict[str, Any]:
    """A gold row; ``changes`` replace top-level keys, ``meta_*`` replace metadata keys."""
    row: dict[str, Any] = {
        "question_id": qid,
        "task_type": "single_doc",
        "question": "?",
        "answer": {"value": value, "format": "Str", "verification_rule": "casefold_exact_match"},
        "metadata": {
            "domain": "d",
            "reasoning_type": "r",
            "evidence_sources": ["text"],
            "is_unanswerable": False,
        },
    }
    for key, new in changes.items():
        if key.startswith("meta_"):
            row["metadata"][key[5:]] = new
        else:
            row[key] = new
    return row


def jsonl(*rows: Any) -> bytes:
    """JSON Lines bytes of ``rows``."""
    return "".join(json.dumps(row) + "\n" for row in rows).encode()


def evaluate(
    tmp_path: Path,
    profile: str,
    gold: bytes | dict[str, bytes],
    predictions: bytes,
    *extra: str,
    prediction_name: str = "predictions.jsonl",
) -> Run:
    """Write the files under ``tmp_path/profile`` and run ``assay eval`` in-process."""
    folder = tmp_path / profile
    folder.mkdir()
    golds = gold if isinstance(gold, dict) else {"gold.jsonl": gold}
    for name, data in golds.items():
        (folder / name).write_bytes(data)
    (folder / prediction_name).write_bytes(predictions)
    return run_in(folder, profile, [*golds], prediction_name, *extra)


def _options(folder: Path, gold: list[str], prediction_name: str, out: Path) -> list[str]:
    return ["--gold-files", *(str(folder / g) for g in gold),
            "--predictions", str(folder / prediction_name),
            "--output", str(out / "report.json"),
            "--per-question-csv", str(out / "pq.csv")]  # fmt: skip


def run_in(folder: Path, profile: str, gold: list[str], prediction_name: str, *extra: str) -> Run:
    """``assay eval --profile PROFILE`` on files already in ``folder`` (outputs: ``out/``)."""
    out = folder / "out"
    args = [*_options(folder, gold, prediction_name, out), *extra]
    code, stdout, stderr = run_captured("eval", "--profile", profile, *args)
    report, csv = out / "report.json", out / "pq.csv"
    written = report.read_bytes() if code == 0 and report.exists() else None
    table = csv.read_bytes() if code == 0 and csv.exists() else None
    options = [*_options(folder, gold, prediction_name, folder / "released"), *extra]
    return Run(code, stdout, stderr, written, table, options, folder)


def run_released(run: Run) -> subprocess.CompletedProcess[bytes]:
    """The released evaluator with the options ``run`` was given (outputs: ``released/``)."""
    assert RELEASED is not None
    return subprocess.run(
        [sys.executable, str(RELEASED), *run.args], capture_output=True, timeout=120
    )


def released(tmp_path: Path, run: Run, field: str | None = None) -> None:
    """Assert the xldocbench run wrote exactly what the released evaluator writes.

    The same report.json, CSV and stdout bytes and the same set of files (without
    ``../shared/`` there is nothing to run: the hand-stated verdicts still are checked).
    """
    del tmp_path, field  # the run's own options say it all
    if RELEASED is None:
        return
    done = run_released(run)
    assert done.returncode == 0, done.stderr
    assert run.code == 0, run.err
    theirs = run.folder / "released"
    assert run.report == (theirs / "report.json").read_bytes()
    assert run.csv == (theirs / "pq.csv").read_bytes()
    assert run.out.encode() == done.stdout
    files = sorted(p.relative_to(theirs).as_posix() for p in theirs.rglob("*") if p.is_file())
    assert run.written() == files


def released_fails(run: Run) -> str:
    """The released evaluator's ``ERROR:`` line for the run's options (it must fail)."""
    if RELEASED is None:
        pytest.skip(SKIP_REASON)
    done = run_released(run)
    assert done.returncode == 1 and not done.stdout, done
    return done.stderr.decode()


def both(tmp_path: Path, gold: Any, predictions: bytes, *extra: str, **kw: Any) -> tuple[Run, Run]:
    """The same input under ``xldocbench`` and under ``assay``."""
    return (
        evaluate(tmp_path, "xldocbench", gold, predictions, *extra, **kw),
        evaluate(tmp_path, "assay", gold, predictions, *extra, **kw),
    )

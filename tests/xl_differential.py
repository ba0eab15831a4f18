"""Run one generated case through the released evaluator and ``assay eval --profile xldocbench``.

The oracle is the released XL-DocBench evaluator itself, ``xldocbench_evaluate.py``,
run as a separate process from ``../shared/peers/`` beside the repository (see
:func:`released_script`; ``None`` when it is not there). The assay side is the real
CLI (``assay.cli.main.main``, in-process so thousands of questions stay cheap).

Compared on every case: the exit status (0 or not), the stdout bytes, the set of
files each side wrote (nothing may appear beside the inputs either), and, when the
released script scores the case, the report.json bytes, the per-question CSV bytes
and each per-question row. Where the released script stops with ``ERROR: ...``,
assay must exit non-zero with exactly one ``error:`` line and write nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

from cli_helpers import run_captured
from xl_generator import Case
from xl_released import RELEASED, SKIP_REASON

__all__ = ["RELEASED", "SKIP_REASON", "Outcome", "compare_case", "run_assay", "run_released"]

@dataclass
class Side:
    """What one program did: exit code, stdout bytes, stderr text, files written."""

    code: int
    stdout: bytes
    stderr: str
    files: dict[str, bytes]


@dataclass
class Outcome:
    """One compared case. ``differences`` is empty when every output is identical."""

    rows: int = 0
    rows_identical: int = 0
    report_compared: bool = False
    csv_compared: bool = False
    refused: bool = False
    differences: list[str] = field(default_factory=list)

    @property
    def difference(self) -> str | None:
        """The first difference, or ``None``."""
        return self.differences[0] if self.differences else None


def _arguments(case: Case, folder: Path, out: Path) -> list[str]:
    """The options both programs are given (the released script's own option names)."""
    args = ["--gold-files", *(str(folder / g) for g in case.gold),
            "--predictions", str(folder / case.predictions)]  # fmt: skip
    if case.output:
        args += ["--output", str(out / case.output)]
    if case.csv:
        args += ["--per-question-csv", str(out / case.csv)]
    if case.no_per_question_json:
        args.append("--no-per-question-json")
    if case.prediction_field is not None:
        args += ["--prediction-field", case.prediction_field]
    if case.ignore_missing:
        args.append("--ignore-missing")
    return args


def _files_under(folder: Path) -> dict[str, bytes]:
    if not folder.exists():
        return {}
    found = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink():
            found[path.relative_to(folder).as_posix()] = path.read_bytes()
    return found


def _feed_fifos(case: Case, folder: Path) -> list[threading.Thread]:
    """One writer per FIFO of the case: it writes the FIFO's bytes once when it is opened."""
    writers = []
    for name, kind in case.special.items():
        if kind != "fifo":
            continue

        def feed(path: Path = folder / name, data: bytes = case.files[name]) -> None:
            try:
                with open(path, "wb") as handle:  # blocks until a reader opens it
                    handle.write(data)
            except OSError:  # the reader went away (or was only unblocking us)
                pass

        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        writers.append(writer)
    return writers


def _unblock(case: Case, folder: Path, writers: list[threading.Thread]) -> None:
    """Release writers whose FIFO nobody opened (the program stopped before reading it)."""
    fifos = [name for name, kind in case.special.items() if kind == "fifo"]
    for writer, name in zip(writers, fifos, strict=True):
        if writer.is_alive():
            fd = os.open(folder / name, os.O_RDONLY | os.O_NONBLOCK)
            os.close(fd)
        writer.join(5)


def run_released(case: Case, folder: Path, script: Path) -> Side:
    """The released evaluator, as its users run it: a separate process."""
    out = folder / "released"
    writers = _feed_fifos(case, folder)
    done = subprocess.run(
        [sys.executable, str(script), *_arguments(case, folder, out)],
        capture_output=True, timeout=600, cwd=folder,
    )  # fmt: skip
    _unblock(case, folder, writers)
    return Side(done.returncode, done.stdout, done.stderr.decode("utf-8", "replace"),
                _files_under(out))  # fmt: skip


def run_assay(case: Case, folder: Path) -> Side:
    """``assay eval --profile xldocbench`` with the same options, in-process."""
    out = folder / "assay"
    writers = _feed_fifos(case, folder)
    code, stdout, stderr = run_captured(
        "eval", "--profile", "xldocbench", *_arguments(case, folder, out)
    )
    _unblock(case, folder, writers)
    return Side(code, stdout.encode("utf-8"), stderr, _files_under(out))


def write_case(case: Case, folder: Path) -> None:
    """The case's files under ``folder``; special gold files made as what they are."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in case.files.items():
        kind = case.special.get(name)
        path = folder / name
        if kind is None:
            path.write_bytes(data)
        elif kind == "fifo":
            os.mkfifo(path)
        elif kind == "directory":
            path.mkdir()
        elif kind == "loop":
            path.symlink_to(path.name)  # a link to itself
        elif kind == "dangling":
            path.symlink_to(path.name + ".absent")


def _inputs(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name not in ("released", "assay"))


def _rows(text: bytes) -> list[str]:
    return [json.dumps(row, ensure_ascii=False) for row in json.loads(text)["per_question"]]


def _files_difference(theirs: Side, mine: Side) -> str:
    return f"files written: released {sorted(theirs.files)}, assay {sorted(mine.files)}"


def compare_case(case: Case, folder: Path, script: Path) -> Outcome:
    """Write the case under ``folder``, run both programs and compare every output."""
    write_case(case, folder)
    inputs = _inputs(folder)
    theirs = run_released(case, folder, script)
    mine = run_assay(case, folder)
    outcome = Outcome()
    diff = outcome.differences
    if _inputs(folder) != inputs:
        added = sorted(set(_inputs(folder)) - set(inputs))
        diff.append(f"files appeared beside the inputs: {added}")
    if theirs.code != 0:
        outcome.refused = True
        errors = [line for line in mine.stderr.splitlines() if line.startswith("error:")]
        if mine.code == 0 or len(errors) != 1 or "Traceback" in mine.stderr:
            diff.append(f"released fails ({theirs.stderr.strip()}); assay exit {mine.code}: "
                        f"{mine.stderr}")  # fmt: skip
        if set(mine.files) != set(theirs.files):
            diff.append(_files_difference(theirs, mine))
        if mine.stdout != theirs.stdout:
            diff.append(f"stdout: released {theirs.stdout!r}, assay {mine.stdout!r}")
        return outcome
    if mine.code != 0:
        diff.append(f"released scores it; assay exit {mine.code}: {mine.stderr}")
        return outcome
    if mine.stdout != theirs.stdout:
        diff.append(f"stdout differs:\n  released {theirs.stdout!r}\n  assay    {mine.stdout!r}")
    if set(mine.files) != set(theirs.files):
        diff.append(_files_difference(theirs, mine))
    if case.output and case.output in theirs.files and case.output in mine.files:
        expected, got = theirs.files[case.output], mine.files[case.output]
        outcome.report_compared = True
        if not case.no_per_question_json:
            ours, released = _rows(got), _rows(expected)
            outcome.rows = len(released)
            outcome.rows_identical = sum(a == b for a, b in zip(ours, released, strict=False))
            if len(ours) != len(released):
                diff.append(f"{len(ours)} per-question rows, released {len(released)}")
            for a, b in zip(released, ours, strict=False):
                if a != b:
                    diff.append(f"per-question row differs:\n  released {a}\n  assay    {b}")
                    break
        if got != expected:
            diff.append("report.json bytes differ")
    if case.csv and case.csv in theirs.files and case.csv in mine.files:
        outcome.csv_compared = True
        if mine.files[case.csv] != theirs.files[case.csv]:
            diff.append("per-question CSV bytes differ")
    return outcome

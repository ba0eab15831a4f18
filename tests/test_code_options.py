"""``assay code`` options: limits in range, pass@k budgets checked before running, progress."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tests.cli_helpers import run, run_captured

from assay.code import Limits, evaluate
from assay.errors import InvalidOptionError

SRC = Path(__file__).resolve().parents[1] / "src"
DATA = SRC / "assay" / "data" / "code"
FAST = ["--timeout", "3", "--cpu-time", "2", "--memory", "1GiB"]


def _files(tmp_path: Path, samples: int, body: str = "    return 1\n") -> tuple[Path, Path]:
    problems, rows = tmp_path / "problems.jsonl", tmp_path / "samples.jsonl"
    problems.write_text(json.dumps({"task_id": "t", "prompt": "def f():\n", "entry_point": "f",
                                    "test": "def check(c):\n    assert c() == 1\n"}) + "\n")
    rows.write_text("".join(json.dumps({"task_id": "t", "completion": body}) + "\n"
                            for _ in range(samples)))  # fmt: skip
    return problems, rows


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--timeout", "inf", "--timeout must be a number of seconds from 0.1 to 86400, got 'inf'"),
        ("--timeout", "nan", "--timeout must be a number of seconds from 0.1 to 86400, got 'nan'"),
        ("--timeout", "1e308", "--timeout must be a number of seconds from 0.1 to 86400"),
        ("--timeout", "0", "--timeout must be a number of seconds from 0.1 to 86400, got '0'"),
        ("--memory", "99999999999999999999GiB",
         "--memory must be a whole number of bytes from 1MiB to 128TiB, "
         "got '99999999999999999999GiB'"),
        ("--cpu-time", "1e25", "--cpu-time must be a whole number of seconds from 1 to 86400, "
         "got '1e25'"),
        ("--cpu-time", "99999999999999999999", "--cpu-time must be a whole number of seconds"),
        ("--max-processes", "99999999999999999999",
         "--max-processes must be a whole number of processes from 2 to 4194304"),
        ("--max-output", "99999999999999999999GiB",
         "--max-output must be a whole number of bytes from 1 to 1GiB"),
    ],
)  # fmt: skip
def test_out_of_range_limits_are_refused_in_one_line(
    tmp_path: Path, option: str, value: str, message: str
) -> None:
    problems, samples = _files(tmp_path, 1)
    code, out, err = run_captured("code", "--problems", str(problems), "--samples",
                                  str(samples), "--allow-code-execution", option, value)
    assert code == 2 and out == ""
    assert err.startswith(f"error: {message}") and err.count("\n") == 1, err


@pytest.mark.parametrize(
    "limits",
    [{"timeout_seconds": float("inf")}, {"timeout_seconds": float("nan")},
     {"cpu_seconds": 10**25}, {"cpu_seconds": 2.5}, {"address_space_bytes": 1 << 80},
     {"processes": 1}, {"open_files": 2}, {"output_bytes": True}],
)  # fmt: skip
def test_limits_refuse_values_out_of_range(limits: dict[str, float]) -> None:
    with pytest.raises(InvalidOptionError, match="must be a"):
        Limits(**limits)  # type: ignore[arg-type]


def test_a_k_no_task_reaches_is_refused_before_anything_runs(tmp_path: Path) -> None:
    # Five samples that would each take the whole 10 s timeout if they ran.
    problems, samples = _files(tmp_path, 5, "    while True:\n        pass\n")
    started = time.monotonic()
    code, out, err = run_captured("code", "--problems", str(problems), "--samples",
                                  str(samples), "--allow-code-execution", "--k", "1,100")
    assert time.monotonic() - started < 8
    assert code == 2 and out == ""
    assert err == ("error: pass@100 cannot be estimated: no task has 100 samples (the most is "
                   "5, task 't'); give budgets up to 5, e.g. --k 1\n")  # fmt: skip
    from assay.code import prepare

    with pytest.raises(InvalidOptionError, match="pass@100 cannot be estimated"):
        prepare(problems, samples, "100", allow_execution=True)


def test_the_default_budgets_are_those_some_task_reaches(tmp_path: Path) -> None:
    problems, samples = _files(tmp_path, 2)
    report = tmp_path / "report.json"
    code, _out, err = run_captured("code", "--problems", str(problems), "--samples",
                                   str(samples), "--allow-code-execution", "--output",
                                   str(report), *FAST)  # fmt: skip
    assert code == 0
    note = ("pass@10 and pass@100 not estimated: no task has 10 samples (the most is 2); "
            "choose budgets with --k")  # fmt: skip
    assert err.startswith(f"warning: {note}\n")
    document = json.loads(report.read_text())
    assert document["k"] == [1] and list(document["pass_at_k"]) == ["pass@1"]
    assert document["pass_at_k"]["pass@1"]["value"] == 1.0
    assert document["warnings"] == [note]
    assert evaluate(problems, samples, allow_execution=True).ks == (1,)


def test_a_pass_at_k_over_fewer_tasks_is_marked_and_warned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The bundled set: pass@3 is over 3 of the 5 tasks and comes out below pass@2.
    report = tmp_path / "report.json"
    code = run("code", "--problems", str(DATA / "problems.jsonl"), "--samples",
               str(DATA / "samples.jsonl"), "--k", "1,2,3", "--allow-code-execution",
               "--workers", "2", "--output", str(report), *FAST)  # fmt: skip
    captured = capsys.readouterr()
    assert code == 0
    passes = json.loads(report.read_text())["pass_at_k"]
    assert passes["pass@3"]["value"] < passes["pass@2"]["value"]
    assert [(passes[k]["tasks"], passes[k]["of"]) for k in passes] == [(5, 5), (5, 5), (3, 5)]
    warning = ("warning: pass@3 is over 3 of 5 tasks (code/word_count, code/sum_digits_js have "
               "fewer than 3 samples): do not compare it with a pass@k over other tasks\n")
    assert warning in captured.err
    rows = {line.split()[1]: line for line in captured.out.splitlines()
            if line.startswith("│ pass@")}  # fmt: skip
    assert rows["pass@3"].split()[2] == "*" and "3/5" in rows["pass@3"]
    assert rows["pass@1"].split()[2] != "*" and "5/5" in rows["pass@2"]
    assert "* over fewer tasks than the run has" in captured.out


def test_progress_on_a_terminal(tmp_path: Path) -> None:
    problems, samples = _files(tmp_path, 4, "    import time\n    time.sleep(0.4)\n    return 1\n")
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(SRC), "COLUMNS": "100", "TERM": "xterm"}
    process = subprocess.Popen(
        [sys.executable, "-m", "assay", "code", "--problems", str(problems), "--samples",
         str(samples), "--allow-code-execution", "--k", "1", *FAST],
        stdout=subprocess.PIPE, stderr=slave, env=env,
    )  # fmt: skip
    os.close(slave)
    seen = b""
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            break
        try:
            data = os.read(master, 65536)
        except OSError:  # the other end closed
            break
        if not data:
            break
        seen += data
    out, _ = process.communicate(timeout=60)
    os.close(master)
    assert process.returncode == 0
    assert b"running samples" in seen  # the bar, on the terminal's stderr
    assert b"running samples" not in out and b"pass@1" in out


def test_no_progress_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    problems, samples = _files(tmp_path, 2)
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run(
        [sys.executable, "-m", "assay", "code", "--problems", str(problems), "--samples",
         str(samples), "--allow-code-execution", "--k", "1", *FAST],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0 and done.stderr == ""


def test_a_problem_without_samples_is_said(tmp_path: Path) -> None:
    problems, samples = _files(tmp_path, 1)
    with problems.open("a") as handle:
        handle.write(json.dumps({"task_id": "unsampled", "test": "assert True\n"}) + "\n")
    code, _out, err = run_captured("code", "--problems", str(problems), "--samples",
                                   str(samples), "--allow-code-execution", "--k", "1", *FAST)
    assert code == 0
    assert err == ("warning: pass@1 is over 1 of 2 tasks (unsampled has no samples): do not "
                   "compare it with a pass@k over other tasks\n")  # fmt: skip

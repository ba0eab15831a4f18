"""The release files of ``assay eval`` from a forked child process (assay.cli.forked)."""

from __future__ import annotations

import fcntl
import os
import signal
import threading
from pathlib import Path

import pytest

from assay.cli.forked import ChildFailedError, can_fork, in_child
from assay.errors import OutputFileError
from cli_helpers import run_captured
from compare_helpers import GOLD_DIR, write_predictions


def test_the_task_runs_in_another_process_and_its_value_comes_back() -> None:
    assert can_fork()  # no other thread in the test process: the forked path is taken
    parent = os.getpid()
    wait = in_child(lambda: (os.getpid(), [1.5, "é", None]))
    child, value = wait()
    assert child != parent and value == [1.5, "é", None]


def test_the_childs_error_is_raised_in_the_parent_with_its_message() -> None:
    def fail() -> None:
        raise OutputFileError("/x/report.json", "cannot write (No space left)", field="--output")

    wait = in_child(fail)
    with pytest.raises(OutputFileError) as caught:
        wait()
    assert str(caught.value) == "/x/report.json: field '--output': cannot write (No space left)"


def test_a_killed_child_is_an_error_not_a_silent_success() -> None:
    wait = in_child(lambda: os.kill(os.getpid(), signal.SIGKILL))
    with pytest.raises(ChildFailedError, match="ended without a result"):
        wait()


def test_disabled_or_with_threads_the_task_runs_in_line_at_once() -> None:
    parent = os.getpid()
    assert in_child(os.getpid, enabled=False)() == parent
    stop = threading.Event()
    worker = threading.Thread(target=stop.wait)
    worker.start()
    try:
        assert not can_fork()  # a fork would copy this thread's locks, not the thread
        assert in_child(os.getpid)() == parent
        with pytest.raises(ZeroDivisionError):  # in line, an error comes at once
            in_child(lambda: 1 / 0)
    finally:
        stop.set()
        worker.join()


def _eval(tmp_path: Path, out: Path) -> tuple[int, str, str]:
    return run_captured(
        "eval", "--data-dir", str(GOLD_DIR), "--predictions", str(tmp_path / "pred"),
        "--output", str(out / "report.json"), "--per-question-csv", str(out / "pq.csv"),
        "--results-dir", str(out), "--result-json", str(out / "r.json"),
        "--markdown", str(out / "r.md"), "--trials", "200",
    )  # fmt: skip


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_forked_and_in_line_runs_write_the_same_bytes_and_messages(tmp_path: Path) -> None:
    write_predictions(tmp_path / "pred")
    assert can_fork()
    forked = _eval(tmp_path, tmp_path / "out_a")
    stop = threading.Event()
    worker = threading.Thread(target=stop.wait)  # a live thread: eval writes in line
    worker.start()
    try:
        in_line = _eval(tmp_path, tmp_path / "out_b")
    finally:
        stop.set()
        worker.join()
    assert forked[0] == in_line[0] == 0
    files = _files(tmp_path / "out_a")
    assert set(files) == {
        "report.json", "pq.csv", "results/scores.jsonl", "results/summary.json", "r.json", "r.md",
    }  # fmt: skip
    assert files == _files(tmp_path / "out_b")
    # The terminal report, then the wrote lines in the same order; warnings the same.
    assert "wrote" in forked[1] and forked[1].replace("out_a", "out_b") == in_line[1]
    assert forked[2].replace("out_a", "out_b") == in_line[2]


def test_a_release_file_error_in_the_child_stops_the_run_before_the_result_files(
    tmp_path: Path,
) -> None:
    write_predictions(tmp_path / "pred")
    results = tmp_path / "out" / "results"
    results.mkdir(parents=True)
    handle = os.open(results, os.O_RDONLY)
    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)  # "another run" holds the folder
    try:
        code, out, err = _eval(tmp_path, tmp_path / "out")
    finally:
        os.close(handle)
    assert code != 0 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1
    assert "another assay run is writing this results folder right now" in err
    # As when the release files were written first: the result files are not written.
    assert not (tmp_path / "out" / "r.json").exists()
    assert not (tmp_path / "out" / "r.md").exists()

"""The one output writer: atomic replace, identity checks, the results-folder lock.

Every CLI case runs the real ``python -m assay`` in a subprocess; the crash test
kills a real writer process with SIGKILL at many moments.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from assay.errors import OutputFileError
from assay.io.output import directory_lock, refuse_overwriting_inputs, write_file

SRC = Path(__file__).resolve().parents[1] / "src"
GOLD = (
    '{"question_id": "q1", "answer": {"value": "Paris", "format": "Str"}}\n'
    '{"question_id": "q2", "answer": {"value": "42", "format": "Int"}}\n'
)
PRED = '{"question_id": "q1", "prediction": "Paris"}\n{"question_id": "q2", "prediction": "42"}\n'


def assay(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    return subprocess.run(
        [sys.executable, "-m", "assay", *map(str, args)],
        capture_output=True, text=True, env=env, cwd=cwd, timeout=120, check=False,
    )  # fmt: skip


def one_error(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode != 0, done.stdout
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    for word in words:
        assert word in lines[0], (word, lines[0])


@pytest.fixture
def release(tmp_path: Path) -> Path:
    (tmp_path / "gold.jsonl").write_text(GOLD, "utf-8")
    (tmp_path / "pred.jsonl").write_text(PRED, "utf-8")
    return tmp_path


def test_write_file_replaces_whole_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "out" / "r.json"
    write_file(target, "old\n")
    os.chmod(target, 0o640)
    write_file(target, "new\n")
    assert target.read_text("utf-8") == "new\n"
    assert os.stat(target).st_mode & 0o777 == 0o640  # the old file's mode is kept
    assert sorted(p.name for p in target.parent.iterdir()) == ["r.json"]


def test_write_through_a_symlink_keeps_the_link(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_text("old", "utf-8")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    write_file(link, "new")
    assert link.is_symlink() and real.read_text("utf-8") == "new"


def test_hard_link_to_an_input_is_refused_by_identity(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text("x", "utf-8")
    os.link(source, tmp_path / "alias.json")
    with pytest.raises(OutputFileError, match="input file"):
        refuse_overwriting_inputs({"--output": tmp_path / "alias.json"}, [source])
    with pytest.raises(OutputFileError, match="input file"):
        refuse_overwriting_inputs({"--output": tmp_path / "sub" / ".." / "in.jsonl"}, [source])


def test_two_outputs_naming_one_new_file_are_refused(tmp_path: Path) -> None:
    with pytest.raises(OutputFileError, match="the file of --html"):
        refuse_overwriting_inputs(
            [("--html", tmp_path / "a.html"), ("--markdown", tmp_path / "x" / ".." / "a.html")],
            [],
        )


def test_eval_output_hard_linked_to_gold_is_refused(release: Path) -> None:
    os.link(release / "gold.jsonl", release / "report.json")
    done = assay("eval", "--gold-files", release / "gold.jsonl", "--predictions",
                 release / "pred.jsonl", "--output", release / "report.json")  # fmt: skip
    one_error(done, "report.json", "--output", "input file")
    assert (release / "gold.jsonl").read_text("utf-8") == GOLD


def test_eval_sidecar_onto_an_input_is_refused(release: Path) -> None:
    os.rename(release / "pred.jsonl", release / "report.provenance.json")
    done = assay("eval", "--profile", "xldocbench", "--gold-files", release / "gold.jsonl",
                 "--predictions", release / "report.provenance.json",
                 "--output", release / "report.json", "--provenance-sidecar")  # fmt: skip
    one_error(done, "report.provenance.json", "sidecar", "input file")
    assert (release / "report.provenance.json").read_text("utf-8") == PRED
    assert not (release / "report.json").exists()


def test_report_output_onto_the_inputs_sidecar_is_refused(release: Path) -> None:
    setup = assay(
        "eval", "--profile", "xldocbench", "--gold-files", release / "gold.jsonl",
        "--predictions", release / "pred.jsonl", "--output", release / "rep.json",
        "--provenance-sidecar",
    )  # fmt: skip
    assert setup.returncode == 0, setup.stderr
    sidecar = release / "rep.provenance.json"
    before = sidecar.read_bytes()
    done = assay("report", release / "rep.json", "--format", "md", "--output", sidecar)
    one_error(done, "rep.provenance.json", "input file")
    assert sidecar.read_bytes() == before


def test_results_dir_whose_scores_file_is_an_input_is_refused(release: Path) -> None:
    results = release / "out" / "results"
    results.mkdir(parents=True)
    (results / "scores.jsonl").write_text(PRED, "utf-8")
    done = assay("eval", "--gold-files", release / "gold.jsonl", "--predictions",
                 results / "scores.jsonl", "--results-dir", release / "out")  # fmt: skip
    one_error(done, "scores.jsonl", "--results-dir", "input file")
    assert (results / "scores.jsonl").read_text("utf-8") == PRED


def test_symlink_loops_as_input_and_output_are_one_error_line(release: Path) -> None:
    loop = release / "loop.jsonl"
    loop.symlink_to(release / "loop2.jsonl")
    (release / "loop2.jsonl").symlink_to(loop)
    done = assay("eval", "--gold-files", loop, "--predictions", release / "pred.jsonl")
    one_error(done, "loop.jsonl", "symlink loop")
    done = assay("eval", "--gold-files", release / "gold.jsonl", "--predictions",
                 release / "pred.jsonl", "--output", loop)  # fmt: skip
    one_error(done, "loop.jsonl", "symlink loop")
    done = assay("structured", "--items", loop, "--schema", loop, "--output", release / "o.json")
    one_error(done, "loop.jsonl", "symlink loop")


def test_a_second_run_on_a_locked_results_folder_stops_with_a_clear_message(
    release: Path,
) -> None:
    folder = release / "out" / "results"
    with directory_lock(folder):
        done = assay("eval", "--gold-files", release / "gold.jsonl", "--predictions",
                     release / "pred.jsonl", "--results-dir", release / "out")  # fmt: skip
    one_error(done, "another assay run is writing", "--results-dir")
    assert not (folder / "scores.jsonl").exists()
    again = assay("eval", "--gold-files", release / "gold.jsonl", "--predictions",
                  release / "pred.jsonl", "--results-dir", release / "out")  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert len((folder / "scores.jsonl").read_text("utf-8").splitlines()) == 2


WRITER = """
import sys
from assay.io.output import write_file
target, size = sys.argv[1], int(sys.argv[2])
while True:
    for mark in "AB":
        write_file(target, mark * size + "\\n")
"""


def test_kill_9_at_any_moment_leaves_the_old_or_the_new_complete_file(tmp_path: Path) -> None:
    target, size = tmp_path / "big.html", 8_000_000
    rng = random.Random(15)
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    seen = set()
    for _ in range(12):
        process = subprocess.Popen([sys.executable, "-c", WRITER, str(target), str(size)], env=env)
        started = time.monotonic()  # a loaded machine may need seconds for the first file
        while not target.exists() and time.monotonic() - started < 60:
            time.sleep(0.05)
        time.sleep(rng.uniform(0.0, 0.9))
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        if target.exists():
            data = target.read_bytes()
            assert len(data) == size + 1 and data[:1] * size == data[:-1], len(data)
            seen.add(data[:1])
    assert seen, "the writer never finished one file"


def test_kill_9_during_a_large_cli_report_keeps_the_old_report(tmp_path: Path) -> None:
    gold = "".join(
        json.dumps({"question_id": f"q{i}", "answer": {"value": f"a{i}", "format": "Str"}}) + "\n"
        for i in range(6000)
    )
    pred = "".join(
        json.dumps({"question_id": f"q{i}", "prediction": f"a{i % 7}"}) + "\n" for i in range(6000)
    )
    (tmp_path / "gold.jsonl").write_text(gold, "utf-8")
    (tmp_path / "old.jsonl").write_text(pred, "utf-8")
    (tmp_path / "new.jsonl").write_text(pred.replace('"a1"', '"zz"'), "utf-8")
    report = tmp_path / "report.json"

    def args(name: str) -> list[str]:
        return ["eval", "--gold-files", str(tmp_path / "gold.jsonl"), "--system",
                f"s={tmp_path / name}", "--output", str(report)]  # fmt: skip

    assert assay(*args("new.jsonl")).returncode == 0
    new = report.read_bytes()
    assert assay(*args("old.jsonl")).returncode == 0
    old = report.read_bytes()
    assert old != new
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    rng = random.Random(9)
    for _ in range(6):
        process = subprocess.Popen(
            [sys.executable, "-m", "assay", *args("new.jsonl")], env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        time.sleep(rng.uniform(0.3, 2.5))
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        assert report.read_bytes() in (old, new)

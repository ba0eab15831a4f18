"""assay.cli.main.run (the command's entry) exits as main() with a plain exit would."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

import assay

ENV = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # buffered, as usual
ENV["PYTHONPATH"] = str(Path(assay.__file__).resolve().parents[1])
SAMPLE = Path(str(resources.files("assay") / "data" / "xlsample"))
PLAIN = "import sys; from assay.cli.main import main; sys.argv[0] = 'assay'; {pre}main()"
QUICK = "import sys; from assay.cli.main import run; sys.argv[0] = 'assay'; {pre}run()"
BYE = "import atexit; atexit.register(lambda: print('bye', flush=False)); "
THREAD = (
    "import threading, time; threading.Thread(target=lambda: (time.sleep(0.3), "
    "print('joined', flush=False))).start(); "
)


def both(args: list[str], pre: str = "", stdin: str | None = None) -> list[tuple[int, str, str]]:
    outcomes = []
    for code in (PLAIN, QUICK):
        done = subprocess.run(
            [sys.executable, "-c", code.format(pre=pre), *args],
            capture_output=True, text=True, input=stdin, check=False, env=ENV,
        )  # fmt: skip
        outcomes.append((done.returncode, done.stdout, done.stderr))
    return outcomes


CASES = [
    ["--version"],
    ["metrics"],
    ["eval", "--data-dir", str(SAMPLE), "--predictions", str(SAMPLE / "predictions")],
    ["eval", "--data-dir", str(SAMPLE), "--predictions", "/nonexistent/x.jsonl"],  # error
    ["eval", "--no-such-option"],  # usage error
    ["score", "exact_match", "--prediction", "a", "--target", "a"],
    ["nope"],
]


@pytest.mark.parametrize("args", CASES)
def test_same_status_and_bytes_as_a_plain_exit(args: list[str]) -> None:
    plain, quick = both(args)
    assert quick == plain


def test_exit_handlers_run_once_and_their_output_is_flushed() -> None:
    plain, quick = both(["--version"], pre=BYE)
    assert quick == plain
    assert quick[1].count("bye") == 1


def test_a_live_thread_takes_the_plain_exit() -> None:
    plain, quick = both(["--version"], pre=THREAD)
    assert quick == plain
    assert "joined" in quick[1]  # the thread was waited for, as at a plain exit


def test_output_to_a_closed_pipe_exits_as_before(tmp_path: Path) -> None:
    outcomes = []
    for code in (PLAIN, QUICK):
        shell = f"{sys.executable} -c \"{code.format(pre='')}\" metrics | head -c 10"
        done = subprocess.run(
            ["bash", "-o", "pipefail", "-c", shell], capture_output=True, text=True, check=False,
            env=ENV,
        )
        outcomes.append((done.returncode, done.stdout, done.stderr))
    assert outcomes[0] == outcomes[1]

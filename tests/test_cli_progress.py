"""Issue 32 item 10: progress on a terminal only, --quiet on every command, completion."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import click

import assay
from assay.cli.main import COMMANDS, cli

DATA = assay.data_path("xlsample")


def pairs_file(tmp_path: Path, n: int = 20_000) -> Path:
    path = tmp_path / "pairs.jsonl"
    rows = (json.dumps({"id": f"q{k}", "prediction": "the cat sat", "targets": ["the cat"]})
            for k in range(n))  # fmt: skip
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def run_on_terminal(*args: str) -> tuple[int, str, bytes]:
    """``python -m assay ARGS`` with stderr on a real pseudo-terminal, stdout a pipe."""
    leader, follower = pty.openpty()
    env = {**os.environ, "COLUMNS": "100", "TERM": "xterm"}
    child = subprocess.Popen([sys.executable, "-m", "assay", *args], stdout=subprocess.PIPE,
                             stderr=follower, stdin=subprocess.DEVNULL, env=env)  # fmt: skip
    os.close(follower)
    seen = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 60)
        if not ready:
            break
        try:
            data = os.read(leader, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        seen += data
    out = child.stdout.read().decode() if child.stdout else ""
    code = child.wait(timeout=60)
    os.close(leader)
    return code, out, seen


def test_score_file_shows_progress_on_a_terminal_only(tmp_path: Path) -> None:
    pairs = pairs_file(tmp_path)
    code, out, terminal = run_on_terminal("score", "f1", "--file", str(pairs))
    assert code == 0
    assert out.splitlines()[0] == "f1: 0.800000 (mean over n=20000)"  # P 2/3, R 1 -> 0.8
    assert b"scoring pairs" in terminal  # the count, drawn on the terminal
    assert "\x1b" not in out and "scoring pairs" not in out  # never in the piped output
    piped = subprocess.run([sys.executable, "-m", "assay", "score", "f1", "--file", str(pairs)],
                           capture_output=True, text=True, timeout=120)  # fmt: skip
    assert piped.stdout == out and piped.stderr == ""


def test_quiet_turns_the_progress_off_on_a_terminal(tmp_path: Path) -> None:
    pairs = pairs_file(tmp_path)
    code, out, terminal = run_on_terminal("score", "f1", "--file", str(pairs), "--quiet")
    assert code == 0 and out.startswith("f1: 0.800000")
    assert b"scoring pairs" not in terminal


def test_every_command_takes_quiet() -> None:
    ctx = click.Context(cli)
    for name in COMMANDS:
        command = cli.get_command(ctx, name)
        assert command is not None
        assert any("--quiet" in p.opts for p in command.params), name


def test_quiet_drops_the_wrote_lines_not_the_results(tmp_path: Path) -> None:
    args = [sys.executable, "-m", "assay", "eval", "--data-dir", str(DATA), "--predictions",
            str(DATA / "predictions" / "atlas-7b.jsonl"), "--output", str(tmp_path / "r.json")]
    loud = subprocess.run(args, capture_output=True, text=True, timeout=120)
    quiet = subprocess.run([*args, "--quiet"], capture_output=True, text=True, timeout=120)
    assert loud.returncode == quiet.returncode == 0
    assert "wrote " in loud.stdout + loud.stderr
    assert "wrote " not in quiet.stdout + quiet.stderr
    assert "Accuracy:" in quiet.stdout


def test_shell_completion_scripts_come_from_click() -> None:
    for shell, marker in (("bash", "complete -o nosort -F"), ("zsh", "compdef"),
                          ("fish", "complete --no-files --command assay")):  # fmt: skip
        done = subprocess.run([sys.executable, "-m", "assay"], capture_output=True, text=True,
                              env={**os.environ, "_ASSAY_COMPLETE": f"{shell}_source"},
                              timeout=60)  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert marker in done.stdout and "_ASSAY_COMPLETE" in done.stdout, shell
    words = subprocess.run([sys.executable, "-m", "assay"], capture_output=True, text=True,
                           env={**os.environ, "_ASSAY_COMPLETE": "bash_complete",
                                "COMP_WORDS": "assay sco", "COMP_CWORD": "1"}, timeout=60)
    assert "score" in words.stdout

"""Issue 32: flags a new user mistypes, and what the CLI then says (real subprocesses)."""

from __future__ import annotations

import subprocess
import sys

import assay

PAIRS = assay.data_path("qa_pairs.jsonl")


def assay_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m assay ARGS`` in a subprocess (stdin a pipe holding ``stdin``, or closed)."""
    return subprocess.run(
        [sys.executable, "-m", "assay", *args],
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_mistyped_score_flag_names_the_cli_flag_first() -> None:
    done = assay_cli("score", "f1", "--file", str(PAIRS), "--confidance", "0.95")
    assert done.returncode == 2
    message = done.stderr
    assert "did you mean --confidence?" in message
    # the CLI flag comes before the metric's options
    assert message.index("--confidence") < message.index("take option 'confidance'")


def test_a_mistyped_metric_option_still_names_the_metric_option() -> None:
    done = assay_cli("score", "bleu", "-p", "a", "-t", "a", "--max-ordr", "2")
    assert done.returncode == 2
    assert "Did you mean 'max_order'?" in done.stderr and "--confidence" not in done.stderr


def test_a_mistyped_rescore_flag_names_the_cli_flag() -> None:
    done = assay_cli("rescore", "x.json", "-m", "f1", "--resamles", "10")
    assert done.returncode == 2 and "did you mean --resamples?" in done.stderr


def test_piped_pairs_without_file_dash_get_the_hint() -> None:
    done = assay_cli("score", "f1", stdin=PAIRS.read_text("utf-8"))
    assert done.returncode == 2
    assert "--file -" in done.stderr and "cat pairs.jsonl | assay score f1 --file -" in done.stderr
    piped = assay_cli("score", "f1", "--file", "-", stdin=PAIRS.read_text("utf-8"))
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout.startswith("f1: ")

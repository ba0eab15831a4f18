"""Helpers shared by the CLI tests: run ``assay`` in-process, the golden sample's eval."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from assay.cli.main import main

GOLDEN_DATA = Path(__file__).parent / "golden" / "data"


def run(*args: str) -> int:
    """Run ``assay ARGS`` in-process; return its exit code (0 when it returns)."""
    try:
        main(list(args))
    except SystemExit as done:
        return int(done.code or 0)
    return 0


def run_captured(*args: str) -> tuple[int, str, str]:
    """Run ``assay ARGS`` in-process; return exit code, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = run(*args)
    return code, out.getvalue(), err.getvalue()


def xldocbench_eval_args(predictions: Path = GOLDEN_DATA / "predictions.jsonl") -> list[str]:
    """``eval`` under the xldocbench profile on the golden sample gold with ``predictions``."""
    return [
        "eval",
        "--profile",
        "xldocbench",
        "--data-dir",
        str(GOLDEN_DATA),
        "--predictions",
        str(predictions),
    ]

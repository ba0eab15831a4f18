"""Coverage under the threshold is always said, ``--ignore-missing`` or not (issue 32, item 4).

With 2 of the 48 gold questions predicted, ``--ignore-missing`` scores the 2 alone
(Accuracy 1.000000 here) and the warning still said "the rest is scored as missing";
the summary on stdout and the library said nothing. Now the warning says what
``--ignore-missing`` does, the summary's accounting line states the coverage, and
``assay.evaluate`` issues a :class:`CoverageWarning` (and its repr shows it).
The gold count comes from the gold files' lines, not from assay.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import assay
from assay.errors import CoverageWarning

SRC = Path(__file__).resolve().parents[1] / "src"
DATA = SRC / "assay" / "data" / "xlsample"
PREDICTIONS = DATA / "predictions" / "atlas-7b.jsonl"
GOLD = [DATA / "qa_single_doc.jsonl", DATA / "qa_cross_doc.jsonl"]
TOTAL = sum(len(p.read_text("utf-8").splitlines()) for p in GOLD)  # 36 + 12


def _first(tmp_path: Path, count: int) -> Path:
    path = tmp_path / f"first{count}.jsonl"
    lines = PREDICTIONS.read_text("utf-8").splitlines(keepends=True)[:count]
    path.write_text("".join(lines), "utf-8")
    return path


def _eval(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "assay", "eval", "--data-dir", str(DATA), *map(str, args)],
        capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "PYTHONPATH": str(SRC)},
    )  # fmt: skip


def test_ignore_missing_still_says_coverage(tmp_path: Path) -> None:
    two = _first(tmp_path, 2)
    done = _eval("--predictions", two, "--ignore-missing")
    assert done.returncode == 0, done.stderr
    (warning,) = [x for x in done.stderr.splitlines() if x.startswith("warning:")]
    assert f"2 of {TOTAL} gold questions" in warning
    assert "--ignore-missing" in warning and "scored as missing" not in warning
    assert f"coverage 2/{TOTAL} ({2 / TOTAL:.1%})" in done.stdout
    assert "metrics over these 2 only (--ignore-missing)" in done.stdout


def test_without_ignore_missing_the_summary_says_it_too(tmp_path: Path) -> None:
    done = _eval("--predictions", _first(tmp_path, 2))
    assert f"coverage 2/{TOTAL}" in done.stdout and "the rest scored as missing" in done.stdout


def test_half_covered_is_not_under_the_threshold(tmp_path: Path) -> None:
    done = _eval("--predictions", _first(tmp_path, TOTAL // 2 + 1), "--ignore-missing")
    assert done.returncode == 0, done.stderr
    assert "coverage" not in done.stdout and "partial-match" not in done.stderr


def test_library_warns_and_its_repr_shows_it(tmp_path: Path) -> None:
    two = _first(tmp_path, 2)
    with pytest.warns(CoverageWarning, match=f"2 of {TOTAL} gold questions"):
        result = assay.evaluate(GOLD, [assay.SystemInput("two", two)], ignore_missing=True)
    assert "warning:" in repr(result) and "--ignore-missing" in repr(result)
    assert result.warnings and all(w in repr(result) for w in result.warnings)

"""The bundled sample's paths and two helpers shared by the input-form tests.

(CSV/TSV, compressed files, Parquet and standard input all score the same sample.)
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from assay.io.bundled import data_path

SRC = Path(__file__).resolve().parents[1] / "src"
SAMPLE = data_path("xlsample")
ATLAS = SAMPLE / "predictions" / "atlas-7b.jsonl"
GOLD = [SAMPLE / "qa_single_doc.jsonl", SAMPLE / "qa_cross_doc.jsonl"]
PAIRS = data_path("qa_pairs.jsonl")


def rows(path: Path) -> list[dict[str, Any]]:
    """The JSON objects of a JSONL file, blank lines skipped."""
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def scores(result: Any) -> list[dict[str, Any]]:
    """Per-question rows and the overall numbers of a one-system result, without file names."""
    system = result.systems[0].to_dict()
    return [system["overall"], system["accounting"], *system["per_question"]]


def assay(*args: str | Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m assay ARGS`` on this tree's source, ``stdin`` fed, bytes captured."""
    env = {**os.environ, "PYTHONPATH": str(SRC), "COLUMNS": "200"}
    return subprocess.run(
        [sys.executable, "-m", "assay", *map(str, args)],
        input=stdin, capture_output=True, env=env, timeout=300, check=False,
    )  # fmt: skip


def error_line(done: subprocess.CompletedProcess[bytes]) -> str:
    """The one ``error:`` line of a failed run, asserting no traceback and nothing else."""
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode != 0 and "Traceback" not in err, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def table(records: list[dict[str, Any]], delimiter: str) -> bytes:
    """``records`` as CSV/TSV bytes with a header row (columns in first-seen order)."""
    columns = list(dict.fromkeys(key for record in records for key in record))
    out = io.StringIO(newline="")
    writer = csv.DictWriter(out, columns, delimiter=delimiter)
    writer.writeheader()
    writer.writerows(records)
    return out.getvalue().encode("utf-8")

"""Issue 15: an input given as a pipe or FIFO (``<(cat file)``) is read exactly once.

Each FIFO gets one writer that writes the file once and closes: a command that
opened it a second time would block (caught by the subprocess timeout) or read
nothing. A name without a known suffix is read as JSONL or JSON by its content.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from importlib import resources
from pathlib import Path

import pytest

from assay.io.predictions import iter_predictions, looks_like_jsonl

SRC = Path(__file__).resolve().parents[1] / "src"
DATA = Path(str(resources.files("assay") / "data"))


def _fifo(folder: Path, name: str, data: bytes) -> tuple[Path, threading.Thread]:
    path = folder / name
    os.mkfifo(path)

    def feed() -> None:
        with open(path, "wb") as handle:  # blocks until the command opens it, once
            handle.write(data)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    return path, writer


def _assay(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    return subprocess.run(
        [sys.executable, "-m", "assay", *args], capture_output=True, text=True, env=env,
        timeout=120,
    )  # fmt: skip


def test_structured_reads_fifo_items_and_references_once(tmp_path: Path) -> None:
    structured = DATA / "structured"
    items, _ = _fifo(tmp_path, "items", (structured / "responses.jsonl").read_bytes())
    refs, _ = _fifo(tmp_path, "refs", (structured / "references.jsonl").read_bytes())
    out = tmp_path / "s.json"
    done = _assay("structured", "--items", str(items), "--schema",
                  str(structured / "product.schema.json"), "--references", str(refs),
                  "--output", str(out))  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text())
    lines = (structured / "responses.jsonl").read_bytes().splitlines()
    assert len(report["items"]) == sum(1 for line in lines if line.strip())
    import hashlib

    expected = hashlib.sha256((structured / "responses.jsonl").read_bytes()).hexdigest()
    assert report["inputs"]["items"]["sha256"] == expected


def test_eval_reads_fifo_gold_and_jsonl_predictions_without_suffix(tmp_path: Path) -> None:
    xl = DATA / "xlsample"
    gold, _ = _fifo(tmp_path, "gold", (xl / "qa_single_doc.jsonl").read_bytes())
    pred, _ = _fifo(tmp_path, "63", (xl / "predictions" / "atlas-7b.jsonl").read_bytes())
    out = tmp_path / "r.json"
    done = _assay("eval", "--gold-files", str(gold), "--predictions", str(pred),
                  "--output", str(out))  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text())
    gold_rows = [r for r in (xl / "qa_single_doc.jsonl").read_text().splitlines() if r.strip()]
    assert report["gold_count"] == len(gold_rows)
    assert report["missing_prediction_count"] < report["gold_count"] / 2


@pytest.mark.parametrize(
    ("text", "jsonl"),
    [
        ('{"question_id": "q1", "prediction": "a"}\n{"question_id": "q2"}\n', True),
        ('{"question_id": "q1", "prediction": "a"}\n', True),  # one row with an id
        ('{"q1": "a", "q2": "b"}\n', False),  # one mapping: id → prediction
        ('{\n  "q1": "a"\n}\n', False),  # a document spread over lines
        ('[{"question_id": "q1", "prediction": "a"}]', False),
        ("", False),
    ],
)
def test_content_decides_jsonl_or_json(text: str, jsonl: bool) -> None:
    assert looks_like_jsonl(text.encode()) is jsonl


def test_suffixless_mapping_document_is_read_as_json(tmp_path: Path) -> None:
    path = tmp_path / "predictions"  # no suffix
    path.write_text('{\n "q1": "Paris",\n "q2": "42"\n}\n')
    rows = list(iter_predictions(path))
    assert [(r.id, r.text) for r in rows] == [("q1", "Paris"), ("q2", "42")]


def test_a_reader_leaving_early_stops_the_run_quietly(tmp_path: Path) -> None:
    """`assay score … --per-item - | head -c 10`: exit 1, no `error:` line, no traceback."""
    pairs = tmp_path / "pairs.jsonl"
    row = {"prediction": "a b c", "targets": ["a b"]}
    rows = (json.dumps({"id": str(i), **row}) for i in range(50_000))
    pairs.write_text("\n".join(rows) + "\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    command = [sys.executable, "-m", "assay", "score", "f1", "--file", str(pairs)]
    command += ["--per-item", "-"]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        first = process.stdout.read(10)
        process.stdout.close()  # the reader goes away long before the 50,000 rows are written
        stderr = process.stderr.read().decode()
        code = process.wait(timeout=120)
    assert first.startswith(b"{")
    assert code == 1, stderr
    assert "error:" not in stderr and "Traceback" not in stderr, stderr

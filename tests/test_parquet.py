"""Parquet in (predictions, gold, pairs) and out (``assay report --format parquet``).

Every Parquet file here is written by pyarrow itself from the bundled JSONL rows, and
must score exactly as the JSONL original does; the report's Parquet is read back
with pyarrow and checked against the saved result document it came from.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from assay.evaluation.runs import SystemInput, evaluate
from assay.io.bundled import data_path
from assay.io.gold import read_gold
from assay.io.pairs import read_pairs
from assay.io.sources import input_kind
from cli_helpers import run, run_captured
from input_helpers import ATLAS, GOLD, PAIRS, SAMPLE, rows, scores


def write_parquet(path: Path, records: list[dict[str, Any]]) -> Path:
    pq.write_table(pa.Table.from_pylist(records), path)
    return path


def test_predictions_as_parquet_score_as_the_jsonl_by_suffix_or_content(tmp_path: Path) -> None:
    reference = scores(evaluate(GOLD, [SystemInput("a", (str(ATLAS),))]))
    for name in ("atlas.parquet", "atlas.pq", "atlas.jsonl", "atlas"):  # content decides too
        table = write_parquet(tmp_path / name, rows(ATLAS))
        assert input_kind(table) == "parquet"
        assert scores(evaluate(GOLD, [SystemInput("a", (str(table),))])) == reference


def test_a_predictions_folder_reads_parquet_files(tmp_path: Path) -> None:
    folder = tmp_path / "preds"
    folder.mkdir()
    write_parquet(folder / "atlas-7b.parquet", rows(ATLAS))
    code, out, err = run_captured("eval", "--data-dir", str(SAMPLE), "--predictions",
                                  str(folder), "--output", str(tmp_path / "r.json"))  # fmt: skip
    assert code == 0, err
    report = json.loads((tmp_path / "r.json").read_text("utf-8"))
    code, _, _ = run_captured("eval", "--data-dir", str(SAMPLE), "--predictions", str(ATLAS),
                              "--output", str(tmp_path / "j.json"))  # fmt: skip
    expected = json.loads((tmp_path / "j.json").read_text("utf-8"))
    assert report["per_question"] == expected["per_question"]


def test_gold_as_parquet_nested_or_flat_reads_as_the_jsonl(tmp_path: Path) -> None:
    files = GOLD
    records = [row for path in files for row in rows(path)]
    nested = write_parquet(tmp_path / "gold.parquet", records)
    flat_rows = []
    for row in records:
        meta = row.get("metadata", {})
        flat_rows.append({
            "question_id": row["question_id"], "task_type": row["task_type"],
            "answer": row["answer"]["value"], "format": row["answer"]["format"],
            "verification_rule": row["answer"]["verification_rule"],
            **{k: meta[k] for k in ("domain", "reasoning_type", "difficulty", "doc_type")
               if k in meta},
            "evidence_sources": meta["evidence_sources"],
        })  # fmt: skip
    flat = write_parquet(tmp_path / "flat.parquet", flat_rows)
    fields = ("id", "answer", "format", "verification_rule", "domain", "difficulty")
    jsonl = [[getattr(q, f) for f in fields] for q in read_gold(files)]
    assert [[getattr(q, f) for f in fields] for q in read_gold([nested])] == jsonl
    assert [[getattr(q, f) for f in fields] for q in read_gold([flat])] == jsonl
    by_jsonl = evaluate(files, [SystemInput("p", (str(ATLAS),))])
    for table in (nested, flat):
        assert scores(evaluate([table], [SystemInput("p", (str(ATLAS),))])) == scores(by_jsonl)


def test_pairs_as_parquet_score_as_the_jsonl(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = write_parquet(tmp_path / "pairs.parquet", rows(PAIRS))
    assert [(p.id, p.prediction, p.targets) for p in read_pairs(table)] == [
        (str(r["id"]), r["prediction"], tuple(r["targets"])) for r in rows(PAIRS)
    ]
    outputs = []
    for path in (PAIRS, table):
        assert run("score", "-m", "f1,corpus_bleu", "--file", str(path), "--json") == 0
        outputs.append(json.loads(capsys.readouterr().out)["metrics"])
    assert outputs[0] == outputs[1]


def test_a_bad_parquet_row_names_the_file_and_row(tmp_path: Path) -> None:
    records = rows(PAIRS)[:5]
    records[3] = {**records[3], "prediction": None}  # a null reads as absent
    table = write_parquet(tmp_path / "pairs.parquet", records)
    code, out, err = run_captured("score", "f1", "--file", str(table))
    assert code != 0 and out == ""
    assert err.startswith(f"error: {table}:4: field 'prediction': missing")


def test_a_damaged_parquet_file_is_one_error_line(tmp_path: Path) -> None:
    good = write_parquet(tmp_path / "good.parquet", rows(PAIRS)).read_bytes()
    damaged = tmp_path / "pairs.parquet"
    damaged.write_bytes(good[:8] + b"\0" * 40 + good[48:])
    for path in (damaged, tmp_path / "junk.parquet"):
        if not path.exists():
            path.write_bytes(b"PAR1 not really parquet PAR1")
        code, _, err = run_captured("score", "f1", "--file", str(path))
        assert code != 0 and err.startswith(f"error: {path}")
        assert "Parquet" in err and len(err.strip().splitlines()) == 1


def test_report_format_parquet_holds_the_per_item_frame(tmp_path: Path) -> None:
    result = tmp_path / "result.json"
    assert run("compare", "--data-dir", str(SAMPLE), "--predictions", str(SAMPLE / "predictions"),
               "--result-json", str(result)) == 0  # fmt: skip
    out = tmp_path / "items.parquet"
    assert run("report", str(result), "--format", "parquet", "--output", str(out)) == 0
    first = out.read_bytes()
    assert run("report", str(result), "--format", "parquet", "--output", str(out)) == 0
    assert out.read_bytes() == first  # byte-identical reruns
    document = json.loads(result.read_text("utf-8"))
    table = pq.read_table(out)
    metrics = document["metrics"]
    assert table.schema.field(metrics[0]).type == pa.float64()
    assert table.schema.field("documents").type == pa.list_(pa.string())
    expected = [
        (name, item["question_id"], res["status"], *(res[m] for m in metrics), item["documents"])
        for item in document["items"] for name, res in item["results"].items()
    ]  # fmt: skip
    got = [(r["system"], r["question_id"], r["status"], *(r[m] for m in metrics), r["documents"])
           for r in table.to_pylist()]  # fmt: skip
    assert got == expected and len(got) == 3 * 48


def test_report_format_parquet_of_a_structured_report(tmp_path: Path) -> None:
    base = data_path("structured")
    report = tmp_path / "structured.json"
    assert run("structured", "--items", str(base / "responses.jsonl"), "--schema",
               str(base / "product.schema.json"), "--references", str(base / "references.jsonl"),
               "--output", str(report)) == 0  # fmt: skip
    out = tmp_path / "items.parquet"
    assert run("report", str(report), "--format", "parquet", "--output", str(out)) == 0
    items = json.loads(report.read_text("utf-8"))["items"]
    got = pq.read_table(out).to_pylist()
    assert [(r["id"], r["line"], r["format_verdict"], r["supported"], r["end_to_end_pass"])
            for r in got] == [
        (i["id"], i["line"], i["format"]["verdict"], i["fact"]["counts"]["supported"],
         i["end_to_end_pass"]) for i in items
    ]  # fmt: skip


def test_without_pyarrow_one_line_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = write_parquet(tmp_path / "pairs.parquet", rows(PAIRS))
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow now fails
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    code, _, err = run_captured("score", "f1", "--file", str(table))
    assert code != 0
    assert err.strip() == (
        "error: Parquet input: the optional package 'pyarrow' is not installed; "
        "install it with: pip install 'assay[parquet]'"
    )


def test_a_pipe_is_not_sniffed_for_parquet(tmp_path: Path) -> None:
    """``<(cat preds)``: looking for the magic must not eat the pipe's first bytes."""
    import os
    import threading

    from assay.io.predictions import iter_predictions

    fifo = tmp_path / "preds"
    os.mkfifo(fifo)
    data = ATLAS.read_bytes()
    writer = threading.Thread(target=lambda: fifo.write_bytes(data))
    writer.start()
    got = [(r.id, r.text) for r in iter_predictions(fifo)]
    writer.join()
    assert got == [(r["question_id"], r["prediction"] or "") for r in rows(ATLAS)]

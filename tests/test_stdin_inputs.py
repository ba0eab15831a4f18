"""``-`` reads standard input in every input form: its kind comes from its first bytes.

Each form is written from the bundled JSONL with an independent writer (``csv``,
``json``, ``gzip``, ``zstandard``, pyarrow) and piped to a real ``assay`` process; the
result must equal the one of the same data given as a named file.
"""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import zstandard

from assay.io.bundled import data_path
from assay.io.sources import content_kind
from input_helpers import ATLAS, GOLD, PAIRS, assay, rows, table


def parquet(records: list[dict[str, Any]]) -> bytes:
    sink = io.BytesIO()
    pq.write_table(pa.Table.from_pylist(records), sink)
    return sink.getvalue()


def forms(records: list[dict[str, Any]], flat: bool = True) -> dict[str, bytes]:
    jsonl = "".join(json.dumps(r) + "\n" for r in records).encode("utf-8")
    shaped = {"jsonl": jsonl, "parquet": parquet(records)}
    if flat:
        shaped |= {"csv": table(records, ","), "tsv": table(records, "\t")}
    return shaped


def scored(path: Path) -> list[Any]:
    document = json.loads(path.read_text("utf-8"))
    return [document["overall"], document["per_question"]]


COMPRESS = {"plain": lambda b: b, "gzip": gzip.compress,
            "zstd": lambda b: zstandard.ZstdCompressor().compress(b)}  # fmt: skip


@pytest.mark.parametrize("compression", sorted(COMPRESS))
def test_predictions_on_stdin_in_every_form(tmp_path: Path, compression: str) -> None:
    gold = [str(g) for g in GOLD]
    done = assay("eval", "--gold-files", *gold, "--predictions", ATLAS,
                 "--output", tmp_path / "f.json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    shapes = forms(rows(ATLAS))
    shapes["json"] = json.dumps(rows(ATLAS), indent=2).encode("utf-8")  # a JSON array document
    for kind, data in shapes.items():
        out = tmp_path / f"{kind}.json"
        piped = assay("eval", "--gold-files", *gold, "--predictions", "-", "--output", out,
                      stdin=COMPRESS[compression](data))  # fmt: skip
        assert piped.returncode == 0, (kind, piped.stderr)
        assert scored(out) == scored(tmp_path / "f.json"), kind


def test_gold_on_stdin_as_jsonl_csv_or_parquet(tmp_path: Path) -> None:
    records = [row for path in GOLD for row in rows(path)]
    flat = [
        {
            "question_id": r["question_id"], "task_type": r["task_type"],
            "answer": r["answer"]["value"], "format": r["answer"]["format"],
            "verification_rule": r["answer"]["verification_rule"],
            **{k: v for k, v in r.get("metadata", {}).items()
               if k in ("domain", "reasoning_type", "difficulty", "doc_type")},
        }
        for r in records
    ]  # fmt: skip
    done = assay("eval", "--gold-files", *GOLD, "--predictions", ATLAS,
                 "--output", tmp_path / "f.json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    expected = scored(tmp_path / "f.json")
    shapes = {**forms(records, flat=False), "csv": table(flat, ","), "gz-parquet": b""}
    shapes["gz-parquet"] = gzip.compress(shapes["parquet"])
    for kind, data in shapes.items():
        out = tmp_path / f"{kind}.json"
        piped = assay("eval", "--gold-files", "-", "--predictions", ATLAS, "--output", out,
                      stdin=data)  # fmt: skip
        assert piped.returncode == 0, (kind, piped.stderr)
        got = scored(out)
        if kind == "csv":  # flat CSV gold holds no evidence sources: compare the scores
            keep = ("question_id", "accuracy", "token_f1", "anls", "status")
            got = [{k: q[k] for k in keep} for q in got[1]]
            assert got == [{k: q[k] for k in keep} for q in expected[1]]
        else:
            assert got == expected, kind


def test_pairs_on_stdin_in_every_form(tmp_path: Path) -> None:
    # one target and a non-empty prediction: a row CSV can hold (an empty cell is absent)
    records = [{**r, "targets": r["targets"][0]} for r in rows(PAIRS) if r["prediction"]]
    named = tmp_path / "pairs.jsonl"
    named.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    done = assay("score", "-m", "f1,corpus_bleu", "--file", named, "--json")
    by_file = json.loads(done.stdout)["metrics"]
    for kind, data in forms(records).items():
        done = assay("score", "-m", "f1,corpus_bleu", "--file", "-", "--json", stdin=data)
        assert done.returncode == 0, (kind, done.stderr)
        assert json.loads(done.stdout)["metrics"] == by_file, kind
    assert len(by_file) == 2


def test_structured_items_on_stdin(tmp_path: Path) -> None:
    base = data_path("structured")
    schema = base / "product.schema.json"
    done = assay("structured", "--items", base / "responses.jsonl", "--schema", schema,
                 "--output", tmp_path / "f.json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    piped = assay("structured", "--items", "-", "--schema", schema, "--output", tmp_path / "s.json",
                  stdin=gzip.compress((base / "responses.jsonl").read_bytes()))  # fmt: skip
    assert piped.returncode == 0, piped.stderr
    first, second = (json.loads((tmp_path / n).read_text("utf-8")) for n in ("f.json", "s.json"))
    assert second["items"] == first["items"] and second["headlines"] == first["headlines"]


def test_bad_stdin_is_one_error_line_naming_stdin() -> None:
    damaged = parquet(rows(PAIRS))[:-40] + b"PAR1"
    cases = [
        (damaged, "error: <stdin>: not a valid Parquet file ("),
        (b"id,prediction\n1,a\n", "error: <stdin>:2: field 'targets': must be a non-empty list"),
        (b"id\tprediction\ttargets\n1\ta\tb\tc\n", "error: <stdin>:2: 4 cells but the header"),
    ]
    for data, expected in cases:
        done = assay("score", "-m", "f1", "--file", "-", stdin=data)
        lines = done.stderr.decode().splitlines()
        assert done.returncode != 0 and len(lines) == 1 and lines[0].startswith(expected), lines


@pytest.mark.parametrize(
    ("head", "kind"),
    [
        (b"PAR1\x15\x04", "parquet"),
        (b'{"id": 1}\n{"id": 2}\n', "jsonl"),
        (b'\xef\xbb\xbf  {"id": 1}\n', "jsonl"),
        (b'{\n  "q1": "Paris"\n}\n', "json"),
        (b'{"q1": "Paris"}', "json"),
        (b"[\n {}\n]", "json"),
        (b"question_id\tprediction\n", "tsv"),
        (b"question_id,prediction\n", "csv"),
        (b"", "jsonl"),
        (b"garbage\n", "jsonl"),
    ],
)
def test_content_kind(head: bytes, kind: str) -> None:
    assert content_kind(head) == kind

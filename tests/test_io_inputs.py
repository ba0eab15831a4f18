"""Every common input shape: CSV/TSV, compressed files by content, ``-`` for stdin/stdout.

Each alternative form is written from the bundled JSONL with an independent writer
(the standard library's ``csv``, ``gzip``, ``bz2``, ``lzma`` and the ``zstandard``
package) and must score exactly as the JSONL original does.
"""

from __future__ import annotations

import bz2
import csv
import gzip
import json
import lzma
from pathlib import Path
from typing import Any

import pytest
import zstandard

from assay.errors import InputFileError
from assay.evaluation.runs import SystemInput, evaluate
from assay.io.gold import read_gold
from assay.io.jsonl import iter_jsonl
from assay.io.pairs import read_pairs
from assay.io.predictions import iter_predictions
from cli_helpers import GOLDEN_DATA, run
from input_helpers import ATLAS, GOLD, SAMPLE, assay, rows, scores

COMPRESSORS = {
    "gz": gzip.compress,
    "bz2": bz2.compress,
    "xz": lzma.compress,
    "zst": lambda data: zstandard.ZstdCompressor().compress(data),
}


def write_table(path: Path, records: list[dict[str, Any]], delimiter: str = ",") -> Path:
    columns = list(dict.fromkeys(key for record in records for key in record))
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, columns, delimiter=delimiter)
        writer.writeheader()
        writer.writerows(records)
    return path


def test_predictions_as_csv_and_tsv_score_as_the_jsonl(tmp_path: Path) -> None:
    reference = scores(evaluate(GOLD, [SystemInput("a", (str(ATLAS),))]))
    for name, delimiter in (("atlas.csv", ","), ("atlas.tsv", "\t")):
        table = write_table(tmp_path / name, rows(ATLAS), delimiter)
        assert scores(evaluate(GOLD, [SystemInput("a", (str(table),))])) == reference


def test_gold_as_csv_scores_as_the_jsonl(tmp_path: Path) -> None:
    flat = []
    for path in sorted(GOLDEN_DATA.glob("qa_*.jsonl")):
        for row in rows(path):
            meta = row.get("metadata", {})
            sources = meta.get("evidence_sources")
            flat.append({
                "question_id": row["question_id"],
                "task_type": row["task_type"],
                "answer": row["answer"]["value"],
                "format": row["answer"]["format"],
                "verification_rule": row["answer"]["verification_rule"],
                **{k: meta[k] for k in ("domain", "reasoning_type", "difficulty", "doc_type")
                   if k in meta},
                **({"evidence_sources": sources} if isinstance(sources, str) else {}),
            })  # fmt: skip
    gold_csv = write_table(tmp_path / "gold.csv", flat)
    jsonl = [q for q in read_gold(sorted(GOLDEN_DATA.glob("qa_*.jsonl")))]
    from_csv = read_gold([gold_csv])
    fields = ("id", "answer", "format", "verification_rule", "split", "domain", "difficulty")
    assert [[getattr(q, f) for f in fields] for q in from_csv] == [
        [getattr(q, f) for f in fields] for q in jsonl
    ]
    preds = str(GOLDEN_DATA / "predictions.jsonl")
    by_jsonl = evaluate(sorted(GOLDEN_DATA.glob("qa_*.jsonl")), [SystemInput("p", (preds,))])
    by_csv = evaluate([gold_csv], [SystemInput("p", (preds,))])
    keep = ("question_id", "accuracy", "token_f1", "anls", "status")
    assert [{k: q[k] for k in keep} for q in scores(by_csv)[2:]] == [
        {k: q[k] for k in keep} for q in scores(by_jsonl)[2:]
    ]


def test_csv_keeps_commas_quotes_and_newlines_inside_a_cell(tmp_path: Path) -> None:
    text = 'Paris, "the capital"\nof France'
    table = write_table(tmp_path / "p.csv", [{"id": "q1", "prediction": text}])
    [row] = iter_predictions(table)
    assert (row.id, row.text, row.line) == ("q1", text, 2)


@pytest.mark.parametrize("kind", sorted(COMPRESSORS))
def test_compressed_files_are_recognised_from_their_content(tmp_path: Path, kind: str) -> None:
    data = ATLAS.read_bytes()
    for name in (f"atlas.jsonl.{kind}", "atlas.jsonl"):  # the name need not say it
        target = tmp_path / kind / name
        target.parent.mkdir(exist_ok=True)
        target.write_bytes(COMPRESSORS[kind](data))
        assert [r for _, r in iter_jsonl(target)] == rows(ATLAS)
    table = tmp_path / kind / "atlas.csv"
    write_table(table, rows(ATLAS))
    packed = table.with_name(f"atlas.csv.{kind}")
    packed.write_bytes(COMPRESSORS[kind](table.read_bytes()))
    assert [(r.id, r.text) for r in iter_predictions(packed)] == [
        (r["question_id"], r["prediction"] or "") for r in rows(ATLAS)
    ]


def test_a_compressed_json_document_and_pairs_file(tmp_path: Path) -> None:
    document = tmp_path / "preds.json.gz"
    document.write_bytes(gzip.compress(json.dumps({"q1": "Paris"}).encode()))
    assert [(r.id, r.text) for r in iter_predictions(document)] == [("q1", "Paris")]
    pairs = tmp_path / "pairs.csv.xz"
    source = write_table(tmp_path / "pairs.csv", [{"id": "a", "prediction": "x", "targets": "x"}])
    pairs.write_bytes(lzma.compress(source.read_bytes()))
    assert [(p.id, p.prediction, p.targets) for p in read_pairs(pairs)] == [("a", "x", ("x",))]


def test_a_truncated_gzip_file_is_one_error_naming_it(tmp_path: Path) -> None:
    broken = tmp_path / "p.jsonl.gz"
    broken.write_bytes(gzip.compress(ATLAS.read_bytes())[:200])
    with pytest.raises(InputFileError, match="corrupt or truncated gzip data") as caught:
        list(iter_predictions(broken))
    assert caught.value.path == str(broken)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("id,prediction\nq1,a,b\n", ["p.csv:2", "3 cells but the header names 2 columns"]),
        ("", ["p.csv:1", "no header row"]),
        ("id,id\nq1,a\n", ["p.csv:1", "'id' appears twice"]),
        ('id,prediction\nq1,"open\n', ["p.csv", "not valid CSV"]),
        ("prediction\nParis\n", ["p.csv:2", "field 'id'", "has no id"]),
    ],
)
def test_bad_csv_is_one_error_naming_file_and_line(
    tmp_path: Path, text: str, words: list[str]
) -> None:
    (tmp_path / "p.csv").write_text(text, "utf-8")
    with pytest.raises(InputFileError) as caught:
        list(iter_predictions(tmp_path / "p.csv"))
    for word in words:
        assert word in str(caught.value), (word, str(caught.value))


def test_predictions_from_stdin_compressed_or_not(tmp_path: Path) -> None:
    files = [str(g) for g in GOLD]
    by_file = assay("eval", "--gold-files", *files, "--predictions", ATLAS,
                    "--output", tmp_path / "file.json")  # fmt: skip
    assert by_file.returncode == 0, by_file.stderr
    for data in (ATLAS.read_bytes(), gzip.compress(ATLAS.read_bytes())):
        piped = assay("eval", "--gold-files", *files, "--predictions", "-",
                      "--output", tmp_path / "stdin.json", stdin=data)  # fmt: skip
        assert piped.returncode == 0, piped.stderr
        first = json.loads((tmp_path / "file.json").read_text("utf-8"))
        second = json.loads((tmp_path / "stdin.json").read_text("utf-8"))
        assert second["per_question"] == first["per_question"]
        assert second["overall"] == first["overall"]


def test_bad_json_on_stdin_names_stdin_and_the_line() -> None:
    done = assay("score", "f1", "--file", "-", stdin=b'{"prediction": "a", "targets": ["a"]}\n{x\n')
    assert done.returncode != 0
    assert done.stderr.decode().splitlines() == [
        done.stderr.decode().splitlines()[0]
    ] and done.stderr.decode().startswith("error: <stdin>:2: invalid JSON")


def test_report_output_dash_writes_the_file_to_stdout_alone(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    result = tmp_path / "result.json"
    eval_args = ["eval", "--data-dir", str(SAMPLE), "--predictions", str(SAMPLE / "predictions")]
    assert run(*eval_args, "--result-json", str(result)) == 0
    capsysbinary.readouterr()
    for fmt in ("md", "csv", "html"):
        assert run("report", str(result), "--format", fmt, "--output", str(tmp_path / fmt)) == 0
        capsysbinary.readouterr()
        assert run("report", str(result), "--format", fmt, "--output", "-") == 0
        captured = capsysbinary.readouterr()
        assert captured.out == (tmp_path / fmt).read_bytes()
        assert b"wrote" not in captured.out
    assert not Path("-").exists()


def test_eval_result_json_to_stdout_moves_the_terminal_report_to_stderr(tmp_path: Path) -> None:
    done = assay("eval", "--data-dir", SAMPLE, "--predictions", SAMPLE / "predictions",
                 "--result-json", "-", "--markdown", tmp_path / "r.md")  # fmt: skip
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["kind"] == "assay.result"
    assert b"Leaderboard" in done.stderr and f"wrote {tmp_path / 'r.md'}".encode() in done.stderr


def test_two_outputs_to_stdout_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code = run("eval", "--data-dir", str(SAMPLE), "--predictions", str(SAMPLE / "predictions"),
               "--result-json", "-", "--markdown", "-")  # fmt: skip
    assert code != 0
    err = capsys.readouterr().err
    assert "only one output can" in err and "--result-json" in err


def test_a_predictions_folder_reads_csv_and_compressed_files(tmp_path: Path) -> None:
    folder = tmp_path / "preds"
    folder.mkdir()
    write_table(folder / "atlas.csv", rows(ATLAS))
    (folder / "borealis.jsonl.gz").write_bytes(
        gzip.compress((SAMPLE / "predictions" / "borealis-70b.jsonl").read_bytes())
    )
    (folder / "notes.txt").write_text("not a prediction file", "utf-8")
    done = assay("eval", "--data-dir", SAMPLE, "--predictions", folder,
                 "--result-json", tmp_path / "r.json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    document = json.loads((tmp_path / "r.json").read_text("utf-8"))
    assert sorted(s["system"] for s in document["systems"]) == ["atlas", "borealis"]

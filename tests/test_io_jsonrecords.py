"""Gold and pairs as a JSON array document, and files whose names say nothing of their form.

Each form is written from the bundled JSONL with an independent writer (``json``,
``csv``, ``gzip``) and given to a real ``assay`` process as a file named ``.json``,
as a file without a suffix, or on standard input; the result must equal the one of
the same data given as the original JSONL. Messages about an element of an array
name the line the element starts on, found here by searching the written text.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from assay.errors import InputFileError
from assay.io.gold import read_gold
from assay.io.jsonrecords import element_lines
from assay.io.pairs import read_pairs
from assay.io.sources import input_kind
from input_helpers import ATLAS, GOLD, PAIRS, SRC, assay, rows, table

GOLD_ROWS = [row for path in GOLD for row in rows(path)]
# one target and a non-empty prediction: a row CSV can hold (an empty cell is absent)
PAIR_ROWS = [{**r, "targets": r["targets"][0]} for r in rows(PAIRS) if r["prediction"]]


def jsonl(records: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode("utf-8")


def array(records: list[dict[str, Any]]) -> bytes:
    return json.dumps(records, indent=2, ensure_ascii=False).encode("utf-8")


def scored(path: Path) -> list[Any]:
    document = json.loads(path.read_text("utf-8"))
    return [document["overall"], document["per_question"]]


def eval_gold(tmp_path: Path, gold: str | Path, stdin: bytes | None = None) -> list[Any]:
    out = tmp_path / f"r{len(list(tmp_path.glob('r*.json')))}.json"
    done = assay("eval", "--gold-files", gold, "--predictions", ATLAS, "--output", out,
                 stdin=stdin)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return scored(out)


def test_gold_as_a_json_array_scores_as_the_jsonl(tmp_path: Path) -> None:
    (tmp_path / "gold.jsonl").write_bytes(jsonl(GOLD_ROWS))
    expected = eval_gold(tmp_path, tmp_path / "gold.jsonl")
    (tmp_path / "gold.json").write_bytes(array(GOLD_ROWS))
    (tmp_path / "gold").write_bytes(array(GOLD_ROWS))  # no suffix
    (tmp_path / "gold.gz").write_bytes(gzip.compress(array(GOLD_ROWS)))
    (tmp_path / "lines.json").write_bytes(jsonl(GOLD_ROWS))  # JSON Lines under .json
    for name in ("gold.json", "gold", "gold.gz", "lines.json"):
        assert eval_gold(tmp_path, tmp_path / name) == expected, name
    assert eval_gold(tmp_path, "-", stdin=array(GOLD_ROWS)) == expected
    assert eval_gold(tmp_path, "-", stdin=gzip.compress(array(GOLD_ROWS))) == expected
    assert len(expected[1]) == len(GOLD_ROWS) == 48


def test_a_gold_array_keeps_each_questions_line(tmp_path: Path) -> None:
    text = array(GOLD_ROWS).decode("utf-8")
    path = tmp_path / "gold.json"
    path.write_text(text, "utf-8")
    starts = [n for n, line in enumerate(text.splitlines(), 1) if line == "  {"]
    assert [q.line for q in read_gold([path])] == starts
    assert [q.id for q in read_gold([path])] == [r["question_id"] for r in GOLD_ROWS]


def score_json(*args: str | Path, stdin: bytes | None = None) -> list[dict[str, Any]]:
    done = assay("score", "-m", "f1,corpus_bleu,exact_match", *args, "--json", stdin=stdin)
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout)["metrics"])


def per_item(tmp_path: Path, source: str | Path, stdin: bytes | None = None) -> list[Any]:
    out = tmp_path / "items.jsonl"
    done = assay("score", "-m", "f1", "--file", source, "--per-item", out, stdin=stdin)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in out.read_text("utf-8").splitlines()]


def test_pairs_as_a_json_array_and_without_a_suffix_score_as_the_jsonl(tmp_path: Path) -> None:
    (tmp_path / "pairs.jsonl").write_bytes(jsonl(PAIR_ROWS))
    expected = score_json("--file", tmp_path / "pairs.jsonl")
    items = per_item(tmp_path, tmp_path / "pairs.jsonl")
    shapes = {
        "pairs.json": array(PAIR_ROWS),
        "pairs-array": array(PAIR_ROWS),
        "pairs-lines.json": jsonl(PAIR_ROWS),
        "pairs-csv": table(PAIR_ROWS, ","),
        "pairs-tsv": table(PAIR_ROWS, "\t"),
        "pairs-csv-gz": gzip.compress(table(PAIR_ROWS, ",")),
    }
    for name, data in shapes.items():
        (tmp_path / name).write_bytes(data)
        assert score_json("--file", tmp_path / name) == expected, name
        got = per_item(tmp_path, tmp_path / name)
        assert [r["f1"] for r in got] == [r["f1"] for r in items], name
        assert [r["id"] for r in got] == [r["id"] for r in items], name
    for data in (array(PAIR_ROWS), gzip.compress(array(PAIR_ROWS))):
        assert score_json("--file", "-", stdin=data) == expected
    assert len(expected) == 3 and len(items) == len(PAIR_ROWS)


def test_suffix_less_files_are_known_by_their_content(tmp_path: Path) -> None:
    shapes = {
        "csv": table(PAIR_ROWS, ","), "tsv": table(PAIR_ROWS, "\t"),
        "json": array(PAIR_ROWS), "jsonl": jsonl(PAIR_ROWS),
    }  # fmt: skip
    for kind, data in shapes.items():
        (tmp_path / f"data-{kind}").write_bytes(data)
        (tmp_path / f"data-{kind}.gz").write_bytes(gzip.compress(data))
        assert input_kind(tmp_path / f"data-{kind}") == kind
        assert input_kind(tmp_path / f"data-{kind}.gz") == kind
    # a name says more than the content: a .csv file is CSV whatever its first line holds
    (tmp_path / "odd.csv").write_bytes(jsonl(PAIR_ROWS))
    assert input_kind(tmp_path / "odd.csv") == "csv"


def test_gold_csv_without_a_suffix_reads_as_the_named_csv(tmp_path: Path) -> None:
    flat = [
        {"question_id": r["question_id"], "task_type": r["task_type"],
         "answer": r["answer"]["value"], "format": r["answer"]["format"]}
        for r in GOLD_ROWS
    ]  # fmt: skip
    (tmp_path / "gold.csv").write_bytes(table(flat, ","))
    (tmp_path / "gold-table").write_bytes(table(flat, "\t"))
    fields = ("id", "answer", "format", "split", "line")
    named = [[getattr(q, f) for f in fields] for q in read_gold([tmp_path / "gold.csv"])]
    bare = [[getattr(q, f) for f in fields] for q in read_gold([tmp_path / "gold-table"])]
    assert bare == named and len(named) == 48
    assert named[0][:3] == [flat[0]["question_id"], str(flat[0]["answer"]), flat[0]["format"]]


def test_predictions_csv_and_json_lines_under_any_name(tmp_path: Path) -> None:
    (tmp_path / "gold.jsonl").write_bytes(jsonl(GOLD_ROWS))
    reference = tmp_path / "ref.json"
    done = assay("eval", "--gold-files", tmp_path / "gold.jsonl", "--predictions", ATLAS,
                 "--output", reference)  # fmt: skip
    assert done.returncode == 0, done.stderr
    records = rows(ATLAS)
    shapes = {"atlas-csv": table(records, ","), "atlas-lines.json": jsonl(records),
              "atlas-array": array(records)}  # fmt: skip
    for name, data in shapes.items():
        (tmp_path / name).write_bytes(data)
        out = tmp_path / f"{name}.out.json"
        done = assay("eval", "--gold-files", tmp_path / "gold.jsonl", "--predictions",
                     tmp_path / name, "--output", out)  # fmt: skip
        assert done.returncode == 0, (name, done.stderr)
        assert scored(out)[0] == scored(reference)[0], name
        got = [(q["question_id"], q["accuracy"]) for q in scored(out)[1]]
        assert got == [(q["question_id"], q["accuracy"]) for q in scored(reference)[1]], name


def one_error(*args: str | Path, stdin: bytes | None = None) -> str:
    done = assay(*args, stdin=stdin)
    lines = done.stderr.decode("utf-8").splitlines()
    assert done.returncode != 0 and len(lines) == 1 and lines[0].startswith("error: "), lines
    return lines[0]


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def test_bad_elements_of_an_array_name_file_line_and_field(tmp_path: Path) -> None:
    bad = [dict(r) for r in GOLD_ROWS[:4]]
    del bad[2]["answer"]
    text = json.dumps(bad, indent=2)
    (tmp_path / "gold.json").write_text(text, "utf-8")
    start = line_of(text, f'"question_id": "{bad[2]["question_id"]}"') - 1  # its "  {" line
    message = one_error("eval", "--gold-files", tmp_path / "gold.json", "--predictions", ATLAS)
    assert message.startswith(f"error: {tmp_path / 'gold.json'}:{start}: field 'answer': missing")

    text = json.dumps([GOLD_ROWS[0], "q2", GOLD_ROWS[1]], indent=2)
    (tmp_path / "mixed.json").write_text(text, "utf-8")
    message = one_error("eval", "--gold-files", tmp_path / "mixed.json", "--predictions", ATLAS)
    assert f"mixed.json:{line_of(text, chr(34) + 'q2')}: element [1] is string" in message
    assert "expected an object" in message

    twice = json.dumps([PAIR_ROWS[0], PAIR_ROWS[1], PAIR_ROWS[0]], indent=1)
    (tmp_path / "pairs.json").write_text(twice, "utf-8")
    lines = [n for n, line in enumerate(twice.splitlines(), 1) if line == " {"]
    message = one_error("score", "-m", "f1", "--file", tmp_path / "pairs.json")
    assert f"pairs.json:{lines[2]}: field 'id': duplicate id" in message
    assert f"(first on line {lines[0]})" in message

    broken = '[\n {"id": "a", "prediction": "x", "targets": ["x"]},\n {"id": "b" "x": 1}\n]'
    message = one_error("score", "-m", "f1", "--file", "-", stdin=broken.encode())
    assert message.startswith("error: <stdin>:3: invalid JSON (Expecting ',' delimiter")

    pairs = [{"id": "a", "prediction": "x", "targets": ["x"]}, {"id": "b", "targets": ["y"]}]
    message = one_error("score", "-m", "f1", "--file", "-", stdin=json.dumps(pairs).encode())
    assert message.startswith("error: <stdin>:1: field 'prediction': missing")


def test_a_jsonl_file_holding_an_array_and_csv_in_json_are_one_clear_line(tmp_path: Path) -> None:
    (tmp_path / "gold.jsonl").write_bytes(array(GOLD_ROWS[:2]))  # JSON Lines by its name
    message = one_error("eval", "--gold-files", tmp_path / "gold.jsonl", "--predictions", ATLAS)
    assert "gold.jsonl:1:" in message and "one complete {...} object per line" in message
    (tmp_path / "pairs.json").write_bytes(table(PAIR_ROWS, ","))
    message = one_error("score", "-m", "f1", "--file", tmp_path / "pairs.json")
    assert "pairs.json:1:" in message and "CSV or TSV" in message and ".csv" in message


def test_a_pipe_of_a_json_array_is_read_once(tmp_path: Path) -> None:
    (tmp_path / "gold.json").write_bytes(array(GOLD_ROWS))
    (tmp_path / "gold.jsonl").write_bytes(jsonl(GOLD_ROWS))
    expected = eval_gold(tmp_path, tmp_path / "gold.jsonl")
    env = {**os.environ, "PYTHONPATH": str(SRC), "COLUMNS": "200"}
    out = tmp_path / "piped.json"
    command = (f'"{sys.executable}" -m assay eval --gold-files <(cat "{tmp_path}/gold.json") '
               f'--predictions "{ATLAS}" --output "{out}"')  # fmt: skip
    done = subprocess.run(["bash", "-c", command], env=env, capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert scored(out) == expected


@pytest.mark.parametrize(
    ("pieces", "expected"),
    [
        (["[", '{"a": "[1, 2]"}', "]"], [2]),
        (["[{}, {}, ", '{"b": ["x,\\n]", {"c": 1}]},', "", '  {"d": "}\\"{"}]'], [1, 1, 2, 4]),
        (["\ufeff  [", "", "  1e5,", '  "s",  null, [[], {}]', "]"], [3, 4, 4, 4]),
        (["[]"], []),
        (["[ ", " ]"], []),
    ],
)
def test_element_lines(pieces: list[str], expected: list[int]) -> None:
    text = "\n".join(pieces)
    assert len(json.loads(text.removeprefix("\ufeff"))) == len(expected)
    assert list(element_lines(text)) == expected


def test_the_reader_functions_take_the_same_arrays(tmp_path: Path) -> None:
    (tmp_path / "pairs").write_bytes(array(PAIR_ROWS))
    (tmp_path / "pairs.jsonl").write_bytes(jsonl(PAIR_ROWS))
    by_array = [(p.id, p.prediction, p.targets) for p in read_pairs(tmp_path / "pairs")]
    by_lines = [(p.id, p.prediction, p.targets) for p in read_pairs(tmp_path / "pairs.jsonl")]
    assert by_array == by_lines and len(by_array) == len(PAIR_ROWS)
    (tmp_path / "empty.json").write_text("[]\n", "utf-8")
    with pytest.raises(InputFileError, match="no rows to score"):
        list(read_pairs(tmp_path / "empty.json"))

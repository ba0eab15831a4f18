"""Issue 27: the classes where assay's xldocbench profile parted from the released file itself.

One named test per class. The ``xldocbench`` side is held to the released evaluator
(``../shared/peers/xldocbench_evaluate.py``, run as a separate process with the same
options: report.json, CSV and stdout bytes and the files written, see
:func:`xl_profiles.released`) and the value the class is about is spelled out by hand;
the ``assay`` side states its own verdict by hand.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import run_captured
from xl_differential import RELEASED, SKIP_REASON
from xl_profiles import both, evaluate, gold_row, jsonl, released, released_fails, run_in

PREDS = jsonl({"question_id": "q1", "prediction": "Paris"})


def bare_row(**keys: Any) -> dict[str, Any]:
    """A gold row with only an id and an answer value, plus ``keys``."""
    return {"question_id": "q1", "answer": {"value": "Paris"}, **keys}


# --- 1. absent keys take the released defaults, present nulls stay null --------------------


def test_absent_labels_are_released_defaults(tmp_path: Path) -> None:
    """No metadata, task_type or format: the released row says unknown/unknown/unknown/Str."""
    xl, mine = both(tmp_path, jsonl(bare_row()), PREDS)
    released(tmp_path, xl)
    row = xl.row()
    assert (row["split"], row["domain"], row["reasoning_type"]) == ("unknown",) * 3
    assert row["answer_format"] == "Str"
    assert list(xl.doc()["breakdowns"]["answer_format"]) == ["unknown"]  # the breakdown twin
    mine_row = mine.row()
    assert (mine_row["split"], mine_row["domain"], mine_row["answer_format"]) == (
        "unknown", "unknown", "Str",
    )  # fmt: skip
    assert list(mine.doc()["breakdowns"]["answer_format"]) == ["Str"]


def test_present_nulls_stay_null(tmp_path: Path) -> None:
    """Keys present with null: the released row keeps null (split: "" from null's text)."""
    row = bare_row(task_type=None, metadata={"domain": None, "reasoning_type": None})
    row["answer"]["format"] = None
    xl, mine = both(tmp_path, jsonl(row), PREDS)
    released(tmp_path, xl)
    got = xl.row()
    assert (got["split"], got["domain"], got["reasoning_type"], got["answer_format"]) == (
        "", None, None, None,
    )  # fmt: skip
    assert xl.doc()["breakdowns"]["domain"] == {"unknown": xl.doc()["overall"]}
    assert mine.row()["domain"] == "unknown" and mine.row()["answer_format"] == "Str"


def test_metadata_null_and_answer_null(tmp_path: Path) -> None:
    """``metadata: null`` reads as {} (absent labels), ``answer: null`` as the value null."""
    row = {"question_id": "q1", "answer": None, "metadata": None}
    xl = evaluate(tmp_path, "xldocbench", jsonl(row), PREDS)
    released(tmp_path, xl)
    got = xl.row()
    assert (got["gold_answer"], got["answer_format"], got["domain"]) == ("", "Str", "unknown")


@pytest.mark.parametrize(("fmt", "kind_text"), [(0, "0"), (False, "False"), (1.5, "1.5")])
def test_falsy_and_number_formats_type_by_their_text(
    tmp_path: Path, fmt: Any, kind_text: str
) -> None:
    """Format ``0``/``false``/``1.5``: typed by its text (not ``Str``), kept raw in the row.

    Unmapped, the numeric rule makes the type numeric: 11.6 is within 5 % of 12 (as
    ``Str``, "12" is no substring of "11.6" and the similarity is 0.25: 0).
    """
    row = bare_row()
    row["answer"].update(format=fmt, value="12", verification_rule="numeric_tolerance")
    preds = jsonl({"question_id": "q1", "prediction": "11.6"})
    xl, mine = both(tmp_path, jsonl(row), preds)
    released(tmp_path, xl)
    assert xl.row()["answer_format"] == fmt and xl.row()["accuracy"] == 1.0
    assert list(xl.doc()["breakdowns"]["answer_format"]) == [kind_text]
    assert mine.code != 0 and len(mine.errors()) == 1, mine.err  # assay: a format is a string


# --- 2. the status is text, everywhere -----------------------------------------------------


@pytest.mark.parametrize(
    ("status", "text"),
    [(0, "0"), (True, "True"), (False, "False"), (1.5, "1.5"), (["x"], '["x"]'), ({}, "{}"),
     ([], "[]"), (None, "success"), ("", "success")],
)  # fmt: skip
def test_status_is_text(tmp_path: Path, status: Any, text: str) -> None:
    """The released row's status is the status's text (an empty text is ``success``)."""
    preds = jsonl({"question_id": "q1", "prediction": "Paris", "status": status})
    xl, mine = both(tmp_path, jsonl(gold_row()), preds)
    released(tmp_path, xl)
    assert xl.row()["status"] == text
    if isinstance(status, (list, dict)):
        assert mine.code != 0 and len(mine.errors()) == 1, mine.err
    else:
        assert mine.row()["status"] == ("success" if status is None else str(status))


@pytest.mark.parametrize(
    "status",
    [["context_overflow"], {"context_overflow": 1}, " context_overflow", "Vision_unsupported"],
)
def test_overflow_check_compares_the_text(tmp_path: Path, status: Any) -> None:
    """Only the exact texts substitute CONTEXT_OVERFLOW: a list holding one does not."""
    preds = jsonl({"question_id": "q1", "prediction": "Paris", "status": status})
    xl = evaluate(tmp_path, "xldocbench", jsonl(gold_row()), preds)
    released(tmp_path, xl)
    assert xl.row()["prediction"] == "Paris" and xl.row()["accuracy"] == 1.0


def test_overflow_status_substitutes(tmp_path: Path) -> None:
    preds = jsonl({"question_id": "q1", "prediction": "Paris", "status": "vision_unsupported"})
    xl, mine = both(tmp_path, jsonl(gold_row()), preds)
    released(tmp_path, xl)
    assert xl.row()["prediction"] == mine.row()["prediction"] == "CONTEXT_OVERFLOW"


# --- 3. stdout is the released summary; 4. no extra files ----------------------------------


RELEASED_STDOUT = (  # by hand: q2 "Bordeaux" vs "Bordeaux wine region": F1 1/2, ANLS 0.4 -> 0
    "XL-DocBench evaluation\n"
    "  gold questions:       2\n"
    "  predictions:          2\n"
    "  evaluated:            2\n"
    "  missing predictions:  0\n"
    "  extra predictions:    0\n"
    "  Accuracy:             100.00\n"
    "  Token F1:             75.00\n"
    "  ANLS:                 50.00\n"
)


def _two_questions() -> tuple[bytes, bytes]:
    gold = jsonl(gold_row(), gold_row(qid="q2", value="Bordeaux"))
    preds = jsonl({"question_id": "q1", "prediction": "Paris"},
                  {"question_id": "q2", "prediction": "Bordeaux wine region"})  # fmt: skip
    return gold, preds


def test_stdout_is_the_released_summary(tmp_path: Path) -> None:
    """The released summary, byte for byte; the ``wrote`` and provenance lines on stderr."""
    gold, preds = _two_questions()
    xl, mine = both(tmp_path, gold, preds)
    released(tmp_path, xl)
    assert xl.out == RELEASED_STDOUT
    assert "wrote " not in xl.out and "sha256" not in xl.out
    assert [line.split()[0] for line in xl.err.splitlines()] == ["profile:", "evaluator", "wrote",
                                                                  "wrote"]  # fmt: skip
    assert mine.out.startswith("Gold questions: 2\nPredictions: 2\n")  # assay's own lines
    assert "Accuracy: 1.000000" in mine.out


def test_no_extra_files(tmp_path: Path) -> None:
    """Only the report and the CSV appear (no provenance sidecar unless asked for)."""
    gold, preds = _two_questions()
    xl, mine = both(tmp_path, gold, preds)
    released(tmp_path, xl)
    assert xl.written() == mine.written() == ["pq.csv", "report.json"]
    assert "assay" in mine.doc() and "assay" not in xl.doc()  # assay keeps it in the report
    again = run_in(tmp_path / "xldocbench", "xldocbench", ["gold.jsonl"], "predictions.jsonl",
                   "--provenance-sidecar")  # fmt: skip
    assert again.written() == ["pq.csv", "report.json", "report.provenance.json"]


# --- 5. empty gold files --------------------------------------------------------------------


@pytest.mark.parametrize("blank", [b"", b"\n\n", b" \t\r\n"])
def test_every_gold_file_empty_is_scored_as_released(tmp_path: Path, blank: bytes) -> None:
    """No gold questions at all: the released script scores 0 questions (exit 0)."""
    gold = {"gold_a.jsonl": blank, "gold_b.jsonl": b""}
    xl, mine = both(tmp_path, gold, PREDS)
    released(tmp_path, xl)
    assert (xl.doc()["gold_count"], xl.doc()["extra_prediction_count"]) == (0, 1)
    assert xl.out.splitlines()[-3:] == ["  Accuracy:             0.00",
                                        "  Token F1:             0.00",
                                        "  ANLS:                 0.00"]  # fmt: skip
    assert [w.split(":")[1].strip() for w in xl.warnings()][:2] == [
        str(tmp_path / "xldocbench" / "gold_a.jsonl"),
        str(tmp_path / "xldocbench" / "gold_b.jsonl"),
    ]  # one warning line per empty gold file
    assert mine.code != 0 and len(mine.errors()) == 1, mine.err


def test_empty_gold_found_by_data_dir(tmp_path: Path) -> None:
    """``--data-dir`` with an empty cross-doc file: xldocbench reads it (warning), assay skips."""
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "qa_single_doc.jsonl").write_bytes(jsonl(gold_row()))
    (folder / "qa_cross_doc.jsonl").write_bytes(b"\n")
    (folder / "p.jsonl").write_bytes(PREDS)
    xl = run_captured("eval", "--profile", "xldocbench", "--data-dir", str(folder),
                      "--predictions", str(folder / "p.jsonl"))  # fmt: skip
    assert xl[0] == 0 and "  gold questions:       1" in xl[1]
    assert "qa_cross_doc.jsonl: gold file without questions" in xl[2]
    mine = run_captured("eval", "--data-dir", str(folder), "--predictions", str(folder / "p.jsonl"))
    assert mine[0] == 0 and "warning" not in mine[2]


# --- 6. breakdown labels from list and object values ---------------------------------------


def test_list_and_object_labels_are_json_text(tmp_path: Path) -> None:
    """Labels from lists/objects are their sorted-key JSON text, as the released keys."""
    row = gold_row(meta_domain={"b": 1, "a": "é"}, meta_evidence_sources={"k": ["v"]},
                   meta_difficulty=[2, "x"], task_type=["s"])  # fmt: skip
    row["answer"]["format"] = ["Int"]
    xl, mine = both(tmp_path, jsonl(row), PREDS)
    released(tmp_path, xl)
    breakdowns = xl.doc()["breakdowns"]
    assert list(breakdowns["domain"]) == ['{"a": "é", "b": 1}']
    assert list(breakdowns["evidence_source"]) == ['{"k": ["v"]}']
    assert list(breakdowns["difficulty"]) == ['[2, "x"]']
    assert list(breakdowns["answer_format"]) == ['["Int"]']
    assert list(breakdowns["split"]) == ['["s"]']
    assert xl.row()["split"] == '["s"]' and xl.row()["answer_format"] == ["Int"]
    assert xl.row()["domain"] == {"b": 1, "a": "é"}  # the row keeps the value as written
    assert mine.code != 0 and len(mine.errors()) == 1, mine.err


def test_falsy_evidence_source_values(tmp_path: Path) -> None:
    rows = [gold_row(qid=f"q{k}", meta_evidence_sources=v)
            for k, v in enumerate([{}, [], [0, False, None, ""], [[]], "  "])]  # fmt: skip
    preds = jsonl(*({"question_id": f"q{k}", "prediction": "Paris"} for k in range(5)))
    xl = evaluate(tmp_path, "xldocbench", jsonl(*rows), preds)
    released(tmp_path, xl)
    labels = xl.doc()["breakdowns"]["evidence_source"]
    assert {k: v["count"] for k, v in labels.items()} == {
        "  ": 1, "0": 1, "False": 1, "[]": 1, "unknown": 4,
    }  # fmt: skip


# --- 7. gold files that are not regular files ------------------------------------------------


def _data_dir(tmp_path: Path, kind: str) -> Path:
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "qa_single_doc.jsonl").write_bytes(jsonl(gold_row()))
    cross = folder / "qa_cross_doc.jsonl"
    if kind == "fifo":
        os.mkfifo(cross)
    elif kind == "directory":
        cross.mkdir()
    elif kind == "loop":
        cross.symlink_to(cross.name)
    else:
        cross.symlink_to("nowhere.jsonl")
    (folder / "p.jsonl").write_bytes(PREDS)
    return folder


KINDS = {"fifo": "a FIFO", "directory": "a directory", "loop": "a symlink loop",
         "dangling": "a symbolic link to a missing file"}  # fmt: skip


@pytest.mark.parametrize("profile", ["xldocbench", "assay"])
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_data_dir_gold_that_is_not_a_file(tmp_path: Path, profile: str, kind: str) -> None:
    """Discovery never scores the other gold file alone: one error line naming the file."""
    folder = _data_dir(tmp_path, kind)
    out = tmp_path / "out"
    code, stdout, err = run_captured(
        "eval", "--profile", profile, "--data-dir", str(folder),
        "--predictions", str(folder / "p.jsonl"), "--output", str(out / "r.json"),
    )  # fmt: skip
    assert code == 3 and stdout == ""
    assert err.count("\n") == 1 and err.startswith("error: "), err
    assert str(folder / "qa_cross_doc.jsonl") in err and KINDS[kind] in err
    assert not out.exists()


@pytest.mark.parametrize("profile", ["xldocbench", "assay"])
@pytest.mark.parametrize("kind", ["directory", "loop", "dangling"])
def test_gold_files_that_are_not_files(tmp_path: Path, profile: str, kind: str) -> None:
    """Named by --gold-files: one error line naming the file; the released script fails too."""
    folder = _data_dir(tmp_path, kind)
    run = run_in(folder, profile, ["qa_single_doc.jsonl", "qa_cross_doc.jsonl"], "p.jsonl")
    assert run.code == 3 and run.out == "" and len(run.errors()) == 1, run.err
    assert str(folder / "qa_cross_doc.jsonl") in run.err
    assert not (folder / "out").exists()
    if profile == "xldocbench":
        assert "qa_cross_doc.jsonl" in released_fails(run)


def _feed(path: Path, data: bytes) -> threading.Thread:
    def write() -> None:
        with open(path, "wb") as handle:
            handle.write(data)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    return writer


@pytest.mark.parametrize("profile", ["xldocbench", "assay"])
def test_gold_fifo_named_is_read_as_released(tmp_path: Path, profile: str) -> None:
    """A FIFO named by --gold-files (with a writer) is read once, as the released script does."""
    folder = _data_dir(tmp_path, "fifo")
    cross = folder / "qa_cross_doc.jsonl"
    data = jsonl(gold_row(qid="q2", value="Lyon"))
    gold = ["qa_single_doc.jsonl", "qa_cross_doc.jsonl"]
    writer = _feed(cross, data)
    run = run_in(folder, profile, gold, "p.jsonl")
    writer.join(10)
    assert run.code == 0, run.err
    assert run.doc()["gold_count"] == 2 and run.doc()["missing_prediction_count"] == 1
    if profile == "xldocbench" and RELEASED is not None:
        writer = _feed(cross, data)
        done = subprocess.run([sys.executable, str(RELEASED), *run.args], capture_output=True,
                              timeout=60)  # fmt: skip
        writer.join(10)
        assert done.returncode == 0, done.stderr
        assert run.report == (folder / "released" / "report.json").read_bytes()
        assert run.out.encode() == done.stdout


def test_released_evaluator_is_there() -> None:
    """The oracle the tests above compare with (skipped, with the reason, without it)."""
    if RELEASED is None:
        pytest.skip(SKIP_REASON)
    assert json.loads(json.dumps(str(RELEASED))).endswith("xldocbench_evaluate.py")

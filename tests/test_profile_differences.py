"""Every difference between the ``xldocbench`` and ``assay`` profiles, one named test each.

Issue 9 lists the classes in which the released XL-DocBench evaluator and assay's own
rules part ways. Each test below feeds one small input to ``assay eval`` under both
profiles and asserts both verdicts:

- the ``xldocbench`` side against the literal reference re-implementation of the
  released rules (``tests/xl_reference.py``, which imports nothing from assay): the
  report.json and per-question CSV bytes must be identical, and the specific value the
  class is about is also spelled out by hand;
- the ``assay`` side against the value assay's stricter rules give, stated by hand.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import xl_reference as ref
from cli_helpers import run_captured


@dataclass
class Run:
    """One ``assay eval`` run: exit code, streams and the written report (if any)."""

    code: int
    out: str
    err: str
    report: bytes | None
    csv: bytes | None

    def row(self, index: int = 0) -> dict[str, Any]:
        """The per-question row ``index`` of the written report."""
        assert self.report is not None, self.err
        row: dict[str, Any] = json.loads(self.report)["per_question"][index]
        return row

    def doc(self) -> dict[str, Any]:
        """The whole written report."""
        assert self.report is not None, self.err
        doc: dict[str, Any] = json.loads(self.report)
        return doc

    def warnings(self) -> list[str]:
        """The ``warning:`` lines on stderr."""
        return [line for line in self.err.splitlines() if line.startswith("warning:")]

    def errors(self) -> list[str]:
        """The ``error:`` lines on stderr."""
        return [line for line in self.err.splitlines() if line.startswith("error:")]


def gold_row(qid: Any = "q1", value: Any = "Paris", **changes: Any) -> dict[str, Any]:
    """A gold row; ``changes`` replace top-level keys, ``meta_*`` replace metadata keys."""
    row: dict[str, Any] = {
        "question_id": qid,
        "task_type": "single_doc",
        "question": "?",
        "answer": {"value": value, "format": "Str", "verification_rule": "casefold_exact_match"},
        "metadata": {
            "domain": "d",
            "reasoning_type": "r",
            "evidence_sources": ["text"],
            "is_unanswerable": False,
        },
    }
    for key, new in changes.items():
        if key.startswith("meta_"):
            row["metadata"][key[5:]] = new
        else:
            row[key] = new
    return row


def jsonl(*rows: Any) -> bytes:
    """JSON Lines bytes of ``rows``."""
    return "".join(json.dumps(row) + "\n" for row in rows).encode()


def evaluate(
    tmp_path: Path,
    profile: str,
    gold: bytes | dict[str, bytes],
    predictions: bytes,
    *extra: str,
    prediction_name: str = "predictions.jsonl",
) -> Run:
    """Write the files under ``tmp_path/profile`` and run ``assay eval`` in-process."""
    folder = tmp_path / profile
    folder.mkdir()
    golds = gold if isinstance(gold, dict) else {"gold.jsonl": gold}
    for name, data in golds.items():
        (folder / name).write_bytes(data)
    (folder / prediction_name).write_bytes(predictions)
    report, csv = folder / "out" / "report.json", folder / "out" / "pq.csv"
    args = ["eval", "--profile", profile, "--gold-files", *(str(folder / g) for g in golds),
            "--predictions", str(folder / prediction_name),
            "--output", str(report), "--per-question-csv", str(csv), *extra]  # fmt: skip
    code, out, err = run_captured(*args)
    written = report.read_bytes() if code == 0 and report.exists() else None
    table = csv.read_bytes() if code == 0 and csv.exists() else None
    return Run(code, out, err, written, table)


def released(tmp_path: Path, run: Run, field: str | None = None) -> None:
    """Assert the xldocbench run wrote exactly the reference's report.json and CSV bytes."""
    folder = tmp_path / "xldocbench"
    gold = sorted(str(p) for p in folder.iterdir() if p.name.lower().startswith("gold"))
    preds = next(p for p in folder.iterdir() if p.name.startswith("predictions"))
    expected = ref.evaluate(gold, str(preds), field, False)
    assert run.code == 0, run.err
    assert run.report == ref.report_bytes(expected)
    assert run.csv == ref.csv_bytes(expected)


def both(tmp_path: Path, gold: Any, predictions: bytes, *extra: str, **kw: Any) -> tuple[Run, Run]:
    """The same input under ``xldocbench`` and under ``assay``."""
    return (
        evaluate(tmp_path, "xldocbench", gold, predictions, *extra, **kw),
        evaluate(tmp_path, "assay", gold, predictions, *extra, **kw),
    )


NUMBER_GOLD = {"format": "Int", "verification_rule": "numeric_tolerance"}


@pytest.mark.parametrize(
    ("gold_value", "fmt", "prediction", "xl_accuracy", "assay_accuracy"),
    [
        ("5", "Int", "No. 5", 0.0, 1.0),  # released: "no.5" → 0.5 ≠ 5
        ("12", "Int", "p. 12", 0.0, 1.0),  # released: ".12"
        ("0.5", "Float", "approx. 5", 1.0, 0.0),  # released: ".5" matches 0.5
        ("0.5", "Float", ".5", 1.0, 1.0),
        ("-0.5", "Float", "-.5", 1.0, 1.0),
    ],
)
def test_class1_numbers_after_a_dot(
    tmp_path: Path,
    gold_value: str,
    fmt: str,
    prediction: str,
    xl_accuracy: float,
    assay_accuracy: float,
) -> None:
    """Class 1: the released number reader deletes spaces first, so ``No. 5`` is 0.5."""
    row = gold_row(value=gold_value)
    row["answer"].update(NUMBER_GOLD, format=fmt)
    preds = jsonl({"question_id": "q1", "prediction": prediction})
    xl, mine = both(tmp_path, jsonl(row), preds)
    released(tmp_path, xl)
    assert xl.row()["accuracy"] == xl_accuracy
    assert mine.row()["accuracy"] == assay_accuracy


def test_class2_prediction_field_holding_an_object(tmp_path: Path) -> None:
    """Class 2: ``--prediction-field answer`` on an object scores its JSON text (released)."""
    preds = jsonl({"question_id": "q1", "answer": {"value": "Paris"}})
    xl, mine = both(tmp_path, jsonl(gold_row()), preds, "--prediction-field", "answer")
    released(tmp_path, xl, field="answer")
    assert xl.row()["prediction"] == '{"value": "Paris"}'
    assert xl.row()["anls"] == 0.0
    assert mine.row()["prediction"] == "Paris"
    assert mine.row()["accuracy"] == 1.0


def test_class3_mapping_keys_used_as_written(tmp_path: Path) -> None:
    """Class 3: a mapping key ``" q1 "`` is not ``q1`` for the released script."""
    preds = json.dumps({" q1 ": "Paris"}).encode()
    xl, mine = both(tmp_path, jsonl(gold_row()), preds, prediction_name="predictions.json")
    released(tmp_path, xl)
    assert (xl.doc()["missing_prediction_count"], xl.doc()["extra_prediction_count"]) == (1, 1)
    assert xl.row()["status"] == "missing"
    assert (mine.doc()["missing_prediction_count"], mine.doc()["extra_prediction_count"]) == (0, 0)
    assert mine.row()["accuracy"] == 1.0


def test_class4_empty_status_is_success(tmp_path: Path) -> None:
    """Class 4: status ``""`` is reported as ``success`` by the released script."""
    preds = jsonl({"question_id": "q1", "prediction": "Paris", "status": ""})
    xl, mine = both(tmp_path, jsonl(gold_row()), preds)
    released(tmp_path, xl)
    assert xl.row()["status"] == "success"
    assert mine.row()["status"] == ""


@pytest.mark.parametrize(
    ("changes", "key", "xl_value", "assay_value"),
    [
        ({"task_type": None}, "split", "", "unknown"),
        ({"task_type": ""}, "split", "", "unknown"),
        ({"meta_domain": None}, "domain", None, "unknown"),
        ({"meta_reasoning_type": None}, "reasoning_type", None, "unknown"),
        ({"meta_domain": "  "}, "domain", "  ", "unknown"),
        ({"meta_domain": 7}, "domain", 7, "7"),
        ({"meta_reasoning_type": True}, "reasoning_type", True, "True"),
    ],
)
def test_class5_per_question_labels(
    tmp_path: Path, changes: dict[str, Any], key: str, xl_value: Any, assay_value: Any
) -> None:
    """Class 5: per-question labels are kept raw (null, blank, number, bool) as released."""
    preds = jsonl({"question_id": "q1", "prediction": "Paris"})
    xl, mine = both(tmp_path, jsonl(gold_row(**changes)), preds)
    released(tmp_path, xl)
    assert xl.row()[key] == xl_value
    assert mine.row()[key] == assay_value


@pytest.mark.parametrize(
    ("fmt", "xl_row", "xl_breakdown"),
    [(None, None, "unknown"), ("", "", "unknown")],
)
def test_class6_answer_format(tmp_path: Path, fmt: Any, xl_row: Any, xl_breakdown: str) -> None:
    """Class 6: a null or empty format stays raw in rows and is ``unknown`` in the breakdown."""
    row = gold_row()
    row["answer"]["format"] = fmt
    preds = jsonl({"question_id": "q1", "prediction": "Paris"})
    xl, mine = both(tmp_path, jsonl(row), preds)
    released(tmp_path, xl)
    assert xl.row()["answer_format"] == xl_row
    assert list(xl.doc()["breakdowns"]["answer_format"]) == [xl_breakdown]
    assert mine.row()["answer_format"] == "Str"
    assert list(mine.doc()["breakdowns"]["answer_format"]) == ["Str"]


def test_class6_non_object_answer_is_unknown_format(tmp_path: Path) -> None:
    """Class 6: a bare-string answer is ``unknown`` (released), its own ``Str`` value (assay)."""
    row = gold_row()
    row["answer"] = "Paris"
    preds = jsonl({"question_id": "q1", "prediction": "Paris"})
    xl, mine = both(tmp_path, jsonl(row), preds)
    released(tmp_path, xl)
    assert list(xl.doc()["breakdowns"]["answer_format"]) == ["unknown"]
    assert list(mine.doc()["breakdowns"]["answer_format"]) == ["Str"]
    assert mine.row()["accuracy"] == 1.0


@pytest.mark.parametrize(("sources", "assay_label"), [(0, "0"), (False, "False")])
def test_class7_falsy_evidence_sources(tmp_path: Path, sources: Any, assay_label: str) -> None:
    """Class 7: evidence sources ``0`` / ``false`` are ``unknown`` for the released script."""
    preds = jsonl({"question_id": "q1", "prediction": "Paris"})
    xl, mine = both(tmp_path, jsonl(gold_row(meta_evidence_sources=sources)), preds)
    released(tmp_path, xl)
    xl_labels = list(xl.doc()["breakdowns"]["evidence_source"])
    assert xl_labels == ["unknown"]
    assert list(mine.doc()["breakdowns"]["evidence_source"]) == [assay_label]


def test_class7_blank_breakdown_label_kept(tmp_path: Path) -> None:
    """Class 7: a blank label is its own breakdown group under the released rules."""
    preds = jsonl({"question_id": "q1", "prediction": "Paris"})
    xl, mine = both(tmp_path, jsonl(gold_row(meta_domain="  ")), preds)
    released(tmp_path, xl)
    assert list(xl.doc()["breakdowns"]["domain"]) == ["  "]
    assert list(mine.doc()["breakdowns"]["domain"]) == ["unknown"]


def test_class8_report_has_no_final_newline(tmp_path: Path) -> None:
    """Class 8: the released report.json ends without a newline; assay's ends with one."""
    preds = jsonl({"question_id": "q1", "prediction": "Paris"})
    xl, mine = both(tmp_path, jsonl(gold_row()), preds)
    released(tmp_path, xl)
    assert xl.report is not None and not xl.report.endswith(b"\n")
    assert mine.report is not None and mine.report.endswith(b"\n")


def _with_status(value: Any) -> bytes:
    return jsonl({"question_id": "q1", "prediction": "Paris", "status": value})


GOOD_GOLD = jsonl(gold_row())
GOOD_PREDS = jsonl({"question_id": "q1", "prediction": "Paris"})
NO_VALUE = gold_row()
del NO_VALUE["answer"]["value"]
NO_ANSWER = gold_row()
del NO_ANSWER["answer"]
NUMERIC_FORMAT = gold_row()
NUMERIC_FORMAT["answer"]["format"] = 3

# Inputs the released script scores and the assay profile refuses: (gold, predictions).
ODDITIES: dict[str, tuple[Any, bytes]] = {
    "list_status": (GOOD_GOLD, _with_status(["ok"])),
    "object_status": (GOOD_GOLD, _with_status({"s": 1})),
    "gold_without_answer": (jsonl(NO_ANSWER), GOOD_PREDS),
    "answer_without_value": (jsonl(NO_VALUE), GOOD_PREDS),
    "non_string_format": (jsonl(NUMERIC_FORMAT), GOOD_PREDS),
    "list_label": (jsonl(gold_row(meta_domain=["a", "b"])), GOOD_PREDS),
    "object_evidence_source": (jsonl(gold_row(meta_evidence_sources=[{"t": 1}])), GOOD_PREDS),
    "non_object_metadata": (jsonl(gold_row(metadata="none")), GOOD_PREDS),
    "non_bool_unanswerable": (jsonl(gold_row(meta_is_unanswerable="no")), GOOD_PREDS),
    "bool_id": (jsonl(gold_row(qid=True)), jsonl({"question_id": "True", "prediction": "Paris"})),
    "list_id": (jsonl(gold_row(qid=[1])), jsonl({"question_id": "[1]", "prediction": "Paris"})),
    "nan_value": (GOOD_GOLD.replace(b'"Paris"', b"NaN"), GOOD_PREDS),
    "duplicate_key": (
        GOOD_GOLD.replace(b'{"question_id"', b'{"question_id": "x", "question_id"'),
        GOOD_PREDS,
    ),  # fmt: skip
    "cr_only_line_ends": (jsonl(gold_row(), gold_row(qid="q2")).replace(b"\n", b"\r"), GOOD_PREDS),
    "trailing_nbsp": (GOOD_GOLD.replace(b"\n", "\u00a0\n".encode()), GOOD_PREDS),
    "trailing_form_feed": (GOOD_GOLD.replace(b"\n", b"\f\n"), GOOD_PREDS),
}


@pytest.mark.parametrize("kind", sorted(ODDITIES))
def test_class9_released_scores_what_assay_refuses(tmp_path: Path, kind: str) -> None:
    """Class 9: xldocbench scores as released with one warning; the assay profile refuses."""
    gold, preds = ODDITIES[kind]
    xl, mine = both(tmp_path, gold, preds)
    released(tmp_path, xl)
    assert len(xl.warnings()) >= 1, xl.err
    assert "Traceback" not in xl.err
    assert mine.code != 0
    assert len(mine.errors()) == 1, mine.err
    assert "Traceback" not in mine.err


def test_class9_empty_gold_file_among_several(tmp_path: Path) -> None:
    """Class 9: an empty gold file among several is scored as released, with a warning."""
    gold = {"gold_a.jsonl": GOOD_GOLD, "gold_b.jsonl": b""}
    xl = evaluate(tmp_path, "xldocbench", gold, GOOD_PREDS)
    released(tmp_path, xl)
    assert any("gold_b.jsonl" in line for line in xl.warnings()), xl.err


def test_class9_capital_suffix(tmp_path: Path) -> None:
    """Class 9: a ``.JSONL`` suffix in capitals is read as JSON Lines by the released rules."""
    xl = evaluate(
        tmp_path, "xldocbench", GOOD_GOLD, GOOD_PREDS, prediction_name="predictions.JSONL"
    )
    released(tmp_path, xl)
    assert xl.row()["accuracy"] == 1.0


def test_class9_prediction_field_no_row_has(tmp_path: Path) -> None:
    """Class 9: a ``--prediction-field`` no row has is a warning (released), an error (assay)."""
    xl, mine = both(tmp_path, GOOD_GOLD, GOOD_PREDS, "--prediction-field", "text")
    released(tmp_path, xl, field="text")
    assert xl.warnings(), xl.err
    assert xl.row()["prediction"] == ""
    assert mine.code != 0 and len(mine.errors()) == 1, mine.err


@pytest.mark.parametrize(
    ("kind", "gold", "preds", "name"),
    [
        ("utf8_bom", b"\xef\xbb\xbf" + GOOD_GOLD, GOOD_PREDS, "predictions.jsonl"),
        (
            "lone_surrogate",
            GOOD_GOLD.replace(b'"d"', b'"\\ud800"'),
            GOOD_PREDS,
            "predictions.jsonl",
        ),
        ("empty_mapping_key", GOOD_GOLD, b'{"": "x", "q1": "Paris"}', "predictions.json"),
    ],
)
def test_class9_released_fails_assay_scores(
    tmp_path: Path, kind: str, gold: bytes, preds: bytes, name: str
) -> None:
    """Inputs only the released script fails on: assay keeps scoring them (documented)."""
    folder = tmp_path / "reference"
    folder.mkdir()
    (folder / "gold.jsonl").write_bytes(gold)
    (folder / name).write_bytes(preds)
    with pytest.raises((ref.Failed, UnicodeEncodeError)):
        report = ref.evaluate([str(folder / "gold.jsonl")], str(folder / name), None, False)
        ref.report_bytes(report), ref.csv_bytes(report)
    xl = evaluate(tmp_path, "xldocbench", gold, preds, prediction_name=name)
    assert xl.code == 0, xl.err
    assert xl.row()["accuracy"] == 1.0
    assert len(xl.warnings()) == 1, xl.err

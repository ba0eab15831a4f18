"""Every difference between the ``xldocbench`` and ``assay`` profiles, one named test each.

Issues 9 and 27 list the classes in which the released XL-DocBench evaluator and
assay's own rules part ways. Each test below feeds one small input to ``assay eval``
under both profiles and asserts both verdicts:

- the ``xldocbench`` side against the released evaluator itself
  (``../shared/peers/xldocbench_evaluate.py``, run as a separate process with the same
  options): the report.json, per-question CSV and stdout bytes and the set of files
  written must be identical, and the specific value the class is about is also spelled
  out by hand (so without ``../shared/`` the hand-stated verdicts still run);
- the ``assay`` side against the value assay's stricter rules give, stated by hand.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from xl_profiles import both, evaluate, gold_row, jsonl, released, released_fails

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
    xl = evaluate(tmp_path, "xldocbench", gold, preds, prediction_name=name)
    assert xl.code == 0, xl.err
    assert xl.row()["accuracy"] == 1.0
    assert len(xl.warnings()) == 1, xl.err
    error = released_fails(xl)
    assert error.startswith("ERROR: ") or "UnicodeEncodeError" in error, error

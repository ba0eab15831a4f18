"""Issue 15: numbers Python cannot hold, and saved reports with mistyped counts.

Each class from the issue has its own test: integer literals past Python's
4,300-digit limit and float literals past the float range in every JSON/JSONL
input (one ``error:`` line naming file, line and field); huge exponents and
fractions inside predictions under the ``assay`` profile (scored, never an
exception); saved reports whose counts have the wrong type read by ``compare``
and ``report``.
"""

from __future__ import annotations

import json
import shutil
from fractions import Fraction
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.errors import InputFileError
from assay.evaluation.assay_rules import numeric_rule
from assay.io.jsonl import loads_strict
from assay.io.oddities import Oddities
from assay.numbers import first_number
from cli_helpers import run

HUGE_INT = "1" + "0" * 5000  # 5,001 digits: past Python's default limit of 4,300
GOLD = (
    '{"question_id": "q1", "answer": {"value": "Paris", "format": "Str"}}\n'
    '{"question_id": "q2", "answer": {"value": "42", "format": "Int", '
    '"verification_rule": "numeric_tolerance"}}\n'
)
PRED = '{"question_id": "q1", "prediction": "Paris"}\n{"question_id": "q2", "prediction": "42"}\n'


def _one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith("error: ")
    assert "Traceback" not in err[0]
    return err[0]


def test_huge_integer_literal_names_file_line_and_field() -> None:
    text = '{"id": "a", "meta": {"n": [1, ' + HUGE_INT + "]}}"
    with pytest.raises(InputFileError) as caught:
        loads_strict(text, "x.jsonl", 7)
    error = caught.value
    assert (error.path, error.line, error.field) == ("x.jsonl", 7, "meta.n[1]")
    assert "5,001 digits" in error.problem and "string" in error.problem


def test_huge_integer_in_whole_document_gets_its_line() -> None:
    text = "{\n\n" + '"a": ' + HUGE_INT + "\n}"
    with pytest.raises(InputFileError) as caught:
        loads_strict(text, "doc.json", None)
    assert (caught.value.line, caught.value.field) == (3, "a")


def test_huge_integer_refused_in_released_reading_too() -> None:
    with pytest.raises(InputFileError) as caught:
        loads_strict('{"a": ' + HUGE_INT + "}", "x.jsonl", 1, Oddities())
    assert caught.value.field == "a"


@pytest.mark.parametrize("literal", ["1e999", "-2.5E+400", "1" + "0" * 400 + ".0"])
def test_float_literal_past_the_range_is_refused(literal: str) -> None:
    with pytest.raises(InputFileError) as caught:
        loads_strict('{"score": ' + literal + "}", "s.jsonl", 2)
    assert caught.value.field == "score"
    assert "infinity" in caught.value.problem


def test_float_literal_past_the_range_is_read_as_released() -> None:
    # the released evaluator calls plain json.loads, which reads 1e999 as inf
    assert loads_strict('{"a": 1e999}', "x.jsonl", 1, Oddities()) == {"a": float("inf")}


def test_longest_allowed_integer_still_reads() -> None:
    literal = "9" * 4300
    assert loads_strict('{"a": ' + literal + "}", "x.jsonl", 1)["a"] == 10**4300 - 1


@pytest.mark.parametrize("which", ["gold", "predictions"])
def test_eval_huge_integer_in_gold_or_predictions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], which: str
) -> None:
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold.write_text(GOLD)
    pred.write_text(PRED)
    target = gold if which == "gold" else pred
    lines = target.read_text().splitlines()
    lines[1] = lines[1][:-1] + ', "extra": ' + HUGE_INT + "}"
    target.write_text("\n".join(lines) + "\n")
    code = run("eval", "--gold-files", str(gold), "--predictions", str(pred))
    line = _one_error_line(capsys)
    assert code == 3
    assert f"{target}:2: field 'extra':" in line


# A number the hook refuses before the parser reaches the invalid text after it: the line
# is invalid JSON, named with its column and the field whose value is broken.
INVALID_AFTER_HUGE = [  # (line, field, the number): the error is at the character after it
    ('{"question_id": 1e999.0}', "question_id", "1e999"),
    ('{"question_id": "q1", "prediction": -1e400e5}', "prediction", "-1e400"),
    ('{"question_id": "q1", "meta": {"n": [1, ' + HUGE_INT + "x]}}", "meta.n[1]", HUGE_INT),
    ('{"question_id": "q1", "prediction": "a", "x": 1E+999', "x", "1E+999"),
]


@pytest.mark.parametrize(("text", "field", "number"), INVALID_AFTER_HUGE)
def test_invalid_json_after_a_huge_number_is_one_error(text: str, field: str, number: str) -> None:
    column = text.index(number) + len(number) + 1
    with pytest.raises(InputFileError) as caught:
        loads_strict(text, "x.jsonl", 4)
    error = caught.value
    assert (error.path, error.line, error.field) == ("x.jsonl", 4, field)
    assert error.problem.startswith("invalid JSON (Expecting ")
    assert f"at column {column}); fix or remove the line" in error.problem


def test_invalid_json_after_a_huge_integer_in_released_reading() -> None:
    text = '{"question_id": "q1", "prediction": ' + HUGE_INT + " x}"
    with pytest.raises(InputFileError) as caught:
        loads_strict(text, "x.jsonl", 1, Oddities())
    assert caught.value.field == "prediction"
    assert "invalid JSON" in caught.value.problem


def test_invalid_whole_document_after_a_huge_number_gets_its_line() -> None:
    with pytest.raises(InputFileError) as caught:
        loads_strict('{\n"a": 1,\n"b": 1e999.0\n}', "doc.json", None)
    assert (caught.value.line, caught.value.field) == (3, "b")


@pytest.mark.parametrize("profile", ["assay", "xldocbench"])
@pytest.mark.parametrize("row", ['{"question_id": 1e999.0}', '{"question_id": ' + HUGE_INT + " x}"])
def test_eval_invalid_json_after_a_huge_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], profile: str, row: str
) -> None:
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold.write_text(GOLD)
    pred.write_text(PRED + row + "\n")
    args = ["eval", "--profile", profile, "--gold-files", str(gold), "--predictions", str(pred)]
    code = run(*args)
    line = _one_error_line(capsys)
    assert code == 3
    # read as released, 1e999 is infinity (plain json.loads): only the '.0' after it is wrong
    field = "" if "1e999" in row and profile == "xldocbench" else "field 'question_id': "
    assert line.startswith(f"error: {pred}:3: {field}invalid JSON (Expecting ")
    assert line.endswith("; fix or remove the line")


def test_score_file_huge_integer_in_pairs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text('{"id": ' + HUGE_INT + ', "prediction": "a", "targets": ["a"]}\n')
    assert run("score", "exact_match", "--file", str(pairs)) == 3
    assert f"{pairs}:1: field 'id':" in _one_error_line(capsys)


def test_check_huge_integer_in_saved_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    release = tmp_path / "release"
    assert run("demo", "--out", str(release)) == 0
    scores = next(release.rglob("scores.jsonl"))
    lines = scores.read_text().splitlines()
    lines[0] = lines[0][:-1] + ', "n": ' + HUGE_INT + "}"
    scores.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    code = run("check", str(scores.parent.parent))
    out = capsys.readouterr()
    assert code != 0
    assert "Traceback" not in out.err
    assert f"{scores}:1: field 'n':" in out.out + out.err


def test_report_huge_integer_in_saved_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = _saved_report(tmp_path, capsys)
    text = report.read_text().replace('"gold_count": 2', '"gold_count": ' + HUGE_INT, 1)
    report.write_text(text)
    assert run("report", str(report), "--format", "md", "--output", str(tmp_path / "r.md")) == 3
    assert "field 'gold_count':" in _one_error_line(capsys)


# -- the assay profile's number reader ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10^" + "9" * 5000, float("inf")),
        ("2e" + "9" * 5000, float("inf")),
        ("2e-" + "9" * 5000, 0.0),
        ("0×10^" + "9" * 5000, 0.0),  # zero times anything: not inf·0 = nan
        ("0.5^" + "9" * 5000, 0.0),
        ("1^" + "9" * 5000, 1.0),
        ("1.5**400000", float("inf")),
    ],
)
def test_huge_exponents_read_without_exception(text: str, expected: float) -> None:
    number = first_number(text)
    assert number is not None and number.value == expected


def test_fraction_with_309_nines_is_exact() -> None:
    # 1 / (10**309 - 1) computed exactly with fractions, then rounded once to a float
    number = first_number("1/" + "9" * 309)
    assert number is not None
    assert number.value == float(Fraction(1, 10**309 - 1))
    assert number.value > 0.0


def test_fraction_with_a_denominator_past_the_int_limit() -> None:
    number = first_number("3/" + "9" * 5000)
    assert number is not None and number.value == 0.0  # 3e-5000 underflows to 0.0


def test_numeric_rule_huge_prediction_scores_zero_not_crash() -> None:
    assert numeric_rule("10^" + "9" * 5000, "42") == 0.0
    assert numeric_rule("1/" + "9" * 309, "42") == 0.0


def test_numeric_rule_non_finite_falls_back_to_the_text() -> None:
    huge = "2e" + "9" * 5000
    assert numeric_rule(huge, huge) == 1.0  # same text: the entity rule matches it
    assert numeric_rule(huge, "2e" + "8" * 5000) == 0.0  # both inf, different answers


def test_eval_assay_profile_scores_huge_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold.write_text(GOLD)
    rows = [("q1", "Paris"), ("q2", "10^" + "9" * 5000)]
    pred.write_text(
        "".join(json.dumps({"question_id": i, "prediction": p}) + "\n" for i, p in rows)
    )
    out = tmp_path / "r.json"
    code = run("eval", "--gold-files", str(gold), "--predictions", str(pred), "--output", str(out))
    assert code == 0, capsys.readouterr().err
    per_question = {
        r["question_id"]: r["accuracy"] for r in json.loads(out.read_text())["per_question"]
    }
    assert per_question == {"q1": 1.0, "q2": 0.0}


# -- saved reports whose counts have the wrong type ------------------------------------------


def _saved_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold.write_text(GOLD)
    pred.write_text(PRED)
    report = tmp_path / "report.json"
    code = run(
        "eval", "--gold-files", str(gold), "--predictions", str(pred), "--output", str(report)
    )
    assert code == 0
    capsys.readouterr()
    return report


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("missing_prediction_count", [1]),
        ("prediction_count", "2"),
        ("extra_prediction_count", True),
        ("gold_count", -1),
        ("gold_count", 1.5),
    ],
)
@pytest.mark.parametrize("command", ["report", "compare"])
def test_saved_report_with_mistyped_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, value: object, command: str
) -> None:
    report = _saved_report(tmp_path, capsys)
    document = json.loads(report.read_text())
    document[field] = value
    report.write_text(json.dumps(document))
    if command == "report":
        args = ["report", str(report), "--format", "md", "--output", str(tmp_path / "r.md")]
    else:
        args = ["compare", str(report)]
    assert run(*args) == 3
    line = _one_error_line(capsys)
    assert f"{report}: field {field!r}:" in line


@pytest.mark.parametrize(
    ("where", "value", "field"),
    [
        ("accuracy", "1", "per_question[0].accuracy"),
        ("accuracy", 7, "per_question[0].accuracy"),
        ("question_id", {"a": 1}, "per_question[0].question_id"),
    ],
)
def test_saved_report_with_mistyped_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str, value: object, field: str
) -> None:
    report = _saved_report(tmp_path, capsys)
    document = json.loads(report.read_text())
    document["per_question"][0][where] = value
    report.write_text(json.dumps(document))
    assert run("compare", str(report)) == 3
    assert f"field {field!r}:" in _one_error_line(capsys)


def test_saved_result_document_with_mistyped_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = Path(str(resources.files("assay") / "data" / "xlsample"))
    shutil.copytree(data, tmp_path / "data")
    result = tmp_path / "result.json"
    args = ["eval", "--data-dir", str(tmp_path / "data"), "--result-json", str(result)]
    assert run(*args, "--predictions", str(tmp_path / "data" / "predictions")) == 0
    document = json.loads(result.read_text())
    document["systems"][0]["missing_prediction_count"] = [1]
    result.write_text(json.dumps(document))
    capsys.readouterr()
    assert run("report", str(result), "--format", "md", "--output", str(tmp_path / "r.md")) == 3
    assert "field 'systems[0].missing_prediction_count':" in _one_error_line(capsys)


def test_invalid_string_after_a_huge_number_names_its_field() -> None:
    text = '{"question_id": 1e999, "prediction": "x\ty"}'  # a raw TAB inside the string
    with pytest.raises(InputFileError) as caught:
        loads_strict(text, "x.jsonl", 2)
    assert caught.value.field == "prediction"
    assert caught.value.problem == (
        "invalid JSON (Invalid control character at column 40); fix or remove the line"
    )


def test_control_character_line_says_at_once() -> None:
    with pytest.raises(InputFileError) as caught:
        loads_strict('{"prediction": "a\tb"}', "x.jsonl", 1)
    assert caught.value.problem.startswith("invalid JSON (Invalid control character at column 18)")


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(
    value=st.dictionaries(st.text(max_size=5), _JSON_VALUES, min_size=1, max_size=4),
    cut=st.integers(0, 10_000),
    junk=st.sampled_from(
        ["1e999", "1e999.0", "-1e400x", "1e999\t", HUGE_INT + "x", '"\t', "\\",
         '1e999, "a\tb"', '1e999, "k": "\x01"', HUGE_INT + ', "\n']
    ),  # fmt: skip
    released=st.booleans(),
)
def test_any_line_with_a_huge_number_is_read_or_one_error(
    value: dict[str, object], cut: int, junk: str, released: bool
) -> None:
    text = json.dumps(value, ensure_ascii=False)
    at = cut % (len(text) + 1)
    line = text[:at] + junk + text[at:]
    try:
        loads_strict(line, "x.jsonl", 1, Oddities() if released else None)
    except InputFileError as error:
        assert error.line == 1 and "\n" not in str(error)

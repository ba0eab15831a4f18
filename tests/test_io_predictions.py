import json
from pathlib import Path

import pytest

from assay.errors import InputFileError
from assay.io.predictions import iter_predictions


def rows(path: Path, field: str | None = None) -> list[tuple[str, str, str, str | None]]:
    return [(r.id, r.text, r.status, r.field) for r in iter_predictions(path, field)]


def test_jsonl_blank_lines_and_line_numbers(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text(
        '{"id": "a", "prediction": "x"}\n\n   \n{"id": "b", "prediction": 3.0}\n', "utf-8"
    )
    read = list(iter_predictions(path))
    assert [(r.id, r.text, r.line) for r in read] == [("a", "x", 1), ("b", "3.0", 4)]
    assert read[0].status == "success"


def test_jsonl_bad_json_names_line(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text('{"id": "a", "prediction": "x"}\n{"id": "b", prediction: 1}\n', "utf-8")
    with pytest.raises(InputFileError) as info:
        list(iter_predictions(path))
    assert info.value.line == 2 and "p.jsonl:2" in str(info.value)


def test_jsonl_non_object_line(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text('["a", "x"]\n', "utf-8")
    with pytest.raises(InputFileError, match="expected a JSON object"):
        list(iter_predictions(path))


def test_missing_id_names_file_line_field(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text('{"id": "a", "prediction": "x"}\n{"prediction": "y"}\n', "utf-8")
    with pytest.raises(InputFileError) as info:
        list(iter_predictions(path))
    assert (info.value.line, info.value.field) == (2, "id")


def test_json_list(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(
        json.dumps(
            [
                {"question_id": "a", "model_answer": "x"},
                {"global_id": "b", "output": "y", "status": "error"},
            ]
        ),
        "utf-8",
    )
    assert rows(path) == [("a", "x", "success", "model_answer"), ("b", "y", "error", "output")]


def test_json_items_mapping(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(
        json.dumps({"items": {"a": {"prediction": "x"}, "b": "plain", "c": None}}), "utf-8"
    )
    assert rows(path) == [
        ("a", "x", "success", "prediction"),
        ("b", "plain", "success", None),
        ("c", "", "success", None),
    ]


def test_json_plain_mapping(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"a": "x", "b": {"response": "y"}, "c": 12}), "utf-8")
    assert rows(path) == [
        ("a", "x", "success", None),
        ("b", "y", "success", "response"),
        ("c", "12", "success", None),
    ]


def test_json_bad_document_names_line(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text('{\n  "a": "x",\n  "b": \n}\n', "utf-8")
    with pytest.raises(InputFileError) as info:
        list(iter_predictions(path))
    assert info.value.line == 4


def test_field_precedence(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    lines = [
        {
            "id": "1",
            "output": "o",
            "response": "r",
            "answer": "a",
            "model_answer": "m",
            "prediction": "p",
        },
        {"id": "2", "output": "o", "response": "r", "answer": "a", "model_answer": "m"},
        {"id": "3", "output": "o", "response": "r", "answer": "a"},
        {"id": "4", "output": "o", "response": "r"},
        {"id": "5", "output": "o"},
        {"id": "6"},
    ]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), "utf-8")
    assert [r[1] for r in rows(path)] == ["p", "m", "a", "r", "o", ""]


def test_present_but_null_counts(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps({"id": "1", "prediction": None, "answer": "later"}) + "\n", "utf-8")
    assert rows(path) == [("1", "", "success", "prediction")]


def test_answer_object_value(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text(
        json.dumps({"id": "1", "answer": {"value": 42, "format": "Int"}}) + "\n", "utf-8"
    )
    assert rows(path) == [("1", "42", "success", "answer")]


def test_explicit_field(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text(
        json.dumps({"id": "1", "prediction": "p", "final": "f"})
        + "\n"
        + json.dumps({"id": "2", "prediction": "p"})
        + "\n",
        "utf-8",
    )
    assert rows(path, "final") == [("1", "f", "success", "final"), ("2", "", "success", None)]


def test_duplicates_are_all_streamed(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text('{"id": "a", "prediction": "1"}\n{"id": "a", "prediction": "2"}\n', "utf-8")
    assert [r[1] for r in rows(path)] == ["1", "2"]


def test_mapping_key_is_the_id(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(
        json.dumps({" a ": {"id": "other", "prediction": "x", "status": "context_overflow"}}),
        "utf-8",
    )
    assert rows(path) == [("a", "x", "context_overflow", "prediction")]

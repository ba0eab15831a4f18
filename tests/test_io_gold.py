import json
from pathlib import Path

import pytest

from assay.errors import InputFileError
from assay.io.gold import iter_gold, read_gold, value_to_text


def write(path: Path, rows: list) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, ""),
        ("Paris", "Paris"),
        (True, "True"),
        (False, "False"),
        (3, "3"),
        (3.0, "3.0"),
        (0.1, "0.1"),
        ([2, "é"], '[2, "é"]'),
        ({"b": 1, "a": 2}, '{"a": 2, "b": 1}'),
    ],
)
def test_value_to_text(value: object, text: str) -> None:
    assert value_to_text(value) == text


def test_id_fields_and_defaults(tmp_path: Path) -> None:
    path = write(
        tmp_path / "g.jsonl",
        [
            {"question_id": " ", "global_qa_id": 7, "answer": {"value": 3.0, "format": "Float"}},
            {
                "global_id": " g2 ",
                "answer": "Oslo",
                "task_type": "single_doc",
                "metadata": {"domain": "geo", "evidence_sources": "table", "reasoning_type": ""},
            },
            {
                "id": "g3",
                "answer": {"value": "x", "format": ""},
                "metadata": {"evidence_sources": []},
            },
        ],
    )
    q1, q2, q3 = iter_gold(path)
    assert (q1.id, q1.answer, q1.format, q1.line) == ("7", "3.0", "Float", 1)
    assert (q2.id, q2.answer, q2.format) == ("g2", "Oslo", "Str")  # non-object answer is the value
    assert (q2.split, q2.domain, q2.reasoning_type) == ("single_doc", "geo", "unknown")
    assert q2.evidence_sources == ("table",)  # scalar wrapped
    assert q1.evidence_sources == ("unknown",) and q3.evidence_sources == ("unknown",)
    assert q3.format == "Str"  # empty format means Str
    assert q1.split == "unknown"


def test_documents_refs(tmp_path: Path) -> None:
    path = write(
        tmp_path / "g.jsonl",
        [
            {"id": "a", "answer": "x", "document": {"document_id": "D1", "evidence_pages": [2, 3]}},
            {
                "id": "b",
                "answer": "x",
                "documents": [
                    {"document_id": "D1", "evidence_pages": [1]},
                    {"document_id": "D2", "evidence_pages": []},
                ],
            },
        ],
    )
    a, b = iter_gold(path)
    assert [(d.document_id, d.evidence_pages) for d in a.documents] == [("D1", (2, 3))]
    assert [d.document_id for d in b.documents] == ["D1", "D2"]


def test_missing_id_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path / "g.jsonl", [{"id": "a", "answer": "x"}, {"answer": "y"}])
    with pytest.raises(InputFileError) as info:
        list(iter_gold(path))
    assert info.value.line == 2 and info.value.field == "id" and "g.jsonl:2" in str(info.value)


def test_duplicate_across_gold_files_names_id(tmp_path: Path) -> None:
    one = write(tmp_path / "one.jsonl", [{"id": "a", "answer": "x"}])
    two = write(tmp_path / "two.jsonl", [{"id": "b", "answer": "x"}, {"id": "a", "answer": "y"}])
    with pytest.raises(InputFileError, match="duplicate question id 'a'") as info:
        read_gold([one, two])
    assert "two.jsonl:2" in str(info.value) and "one.jsonl:1" in str(info.value)


def test_bad_json_line(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text('{"id": "a", "answer": "x"}\n\n{"id": "b",\n', "utf-8")
    with pytest.raises(InputFileError) as info:
        list(iter_gold(path))
    assert info.value.line == 3

"""Streaming JSONL loaders: errors name file, line and field."""

from pathlib import Path

import pytest

from assay.errors import InputFileError
from assay.io.jsonl import iter_jsonl
from assay.io.pairs import read_pairs


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "pairs.jsonl"
    path.write_text(text, encoding="utf-8")
    return path


def test_blank_lines_skipped_and_line_numbers_kept(tmp_path: Path) -> None:
    path = write(tmp_path, '{"a": 1}\n\n   \n{"a": 2}\n')
    assert list(iter_jsonl(path)) == [(1, {"a": 1}), (4, {"a": 2})]


def test_bad_json_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, '{"a": 1}\n{"a": \n')
    with pytest.raises(InputFileError) as info:
        list(iter_jsonl(path))
    assert info.value.line == 2 and info.value.path == str(path)
    assert str(info.value).startswith(f"{path}:2: invalid JSON")


def test_non_object_line(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match=r":1: expected a JSON object, got list"):
        list(iter_jsonl(write(tmp_path, "[1, 2]\n")))


def test_missing_file() -> None:
    with pytest.raises(InputFileError, match="cannot open file"):
        list(iter_jsonl("/nonexistent/pairs.jsonl"))


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.jsonl"
    path.write_bytes('{"a": "caf\xe9"}\n'.encode("latin-1"))
    with pytest.raises(InputFileError, match="not UTF-8"):
        list(iter_jsonl(path))


def test_pairs_accept_a_string_target(tmp_path: Path) -> None:
    path = write(tmp_path, '{"id": 7, "prediction": "a", "targets": "b"}\n')
    (pair,) = read_pairs(path)
    assert (pair.id, pair.prediction, pair.targets, pair.line) == ("7", "a", ("b",), 1)


@pytest.mark.parametrize(
    ("row", "field"),
    [
        ('{"targets": ["a"]}', "prediction"),
        ('{"prediction": 3, "targets": ["a"]}', "prediction"),
        ('{"prediction": "a"}', "targets"),
        ('{"prediction": "a", "targets": []}', "targets"),
        ('{"prediction": "a", "targets": ["a", 1]}', "targets"),
    ],
)
def test_pair_field_errors(tmp_path: Path, row: str, field: str) -> None:
    path = write(tmp_path, '{"prediction": "ok", "targets": ["ok"]}\n' + row + "\n")
    with pytest.raises(InputFileError) as info:
        list(read_pairs(path))
    assert (info.value.line, info.value.field) == (2, field)
    assert f"{path}:2: field {field!r}:" in str(info.value)

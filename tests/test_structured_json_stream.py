"""The streamed structured JSON writer gives json.dumps(indent=2)'s exact text and bytes."""

from __future__ import annotations

import dataclasses
import datetime
import enum
import json
import math
import uuid
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.cli.main import main as cli
from assay.report.structured.files import render_structured_json
from assay.report.structured.json_stream import (
    FACT_SHAPE,
    FORMAT_SHAPE,
    ITEM_SHAPE,
    REFERENCE_SHAPE,
    _orjson_records,
    record_pieces,
    render_structured_json_fast,
    structured_json_chunks,
    write_structured_json,
)
from assay.structured.example import score_bundled_example


def reference(report: Any) -> str:
    """The standard library's pure-Python indented encoder: the independent oracle."""
    return json.dumps(report, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


texts = st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from('"\\\n\t/<>{}[],: '))
keys = texts | st.sampled_from(["field", "value", "rule", "items", "claims", "", "a b"])
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | texts
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=12,
)


def shaped(shape: dict[str, Any]) -> st.SearchStrategy[Any]:
    """A dict with the shape's keys (sub-shapes, lists of dicts), or now and then any value."""
    fields = {}
    for key, child in shape.items():
        if isinstance(child, dict):
            fields[key] = shaped(child)
        elif child is None:
            fields[key] = values
        else:  # a list of dicts: mostly dicts of scalars, some nested, some not dicts
            member = st.dictionaries(keys, scalars, max_size=5) | st.dictionaries(keys, values)
            fields[key] = st.lists(member | values, max_size=5) | values
    exact = st.fixed_dictionaries(fields)
    extra = st.fixed_dictionaries(fields, optional={"extra": values})
    fewer = st.dictionaries(st.sampled_from(sorted(shape)), values, max_size=len(shape))
    return st.one_of(exact, exact, exact, extra, fewer, values)


reports = st.fixed_dictionaries(
    {"items": st.lists(shaped(ITEM_SHAPE), max_size=12) | values},
    optional={"identity": values, "kind": texts, "llm_judge": values, "zz": values},
)


@settings(max_examples=400, deadline=None)
@given(reports)
def test_random_reports_are_json_dumps_text(report: dict[str, Any]) -> None:
    assert render_structured_json_fast(report) == reference(report)


@settings(max_examples=150, deadline=None)
@given(st.lists(shaped(ITEM_SHAPE), min_size=1, max_size=9), st.integers(1, 4))
def test_chunk_boundaries_do_not_change_the_text(items: list[Any], per_chunk: int) -> None:
    report = {"a": 1, "items": items, "z": [1, {"b": None}]}
    chunks = list(structured_json_chunks(report, per_chunk))
    assert len(chunks) == math.ceil(len(items) / per_chunk) + 1  # the last one: the tail
    assert "".join(chunks) == reference(report)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(shaped(ITEM_SHAPE), max_size=9), st.data(), st.integers(1, 4), st.integers(1, 4)
)
def test_records_written_later_are_the_text_of_one_list(
    items: list[Any], data: st.DataObject, per_chunk: int, later_per_chunk: int
) -> None:
    """Records split between the report and record_pieces: the text of the whole list."""
    cut = data.draw(st.integers(0, len(items)))
    report = {"a": 1, "items": items, "z": [1, {"b": None}]}
    later = record_pieces(items[cut:], later_per_chunk)
    assert later is not None
    text = "".join(structured_json_chunks({**report, "items": items[:cut]}, per_chunk, later))
    assert text == reference(report)


def test_records_written_later_reach_the_file(tmp_path: Path) -> None:
    report = score_bundled_example().to_dict()
    items = report["items"] * 40
    later = record_pieces(items[700:])
    assert later is not None
    path = write_structured_json(tmp_path / "r.json", {**report, "items": items[:700]}, None, later)
    assert path.read_bytes() == reference({**report, "items": items}).encode("utf-8")


def test_records_written_later_need_an_items_list() -> None:
    later = record_pieces([{"id": "a"}])
    assert later is not None
    with pytest.raises(ValueError, match="need an items list"):
        "".join(structured_json_chunks({"items": None}, 500, later))


def test_the_shapes_are_the_keys_to_dict_writes() -> None:
    """Every key of a real report's records is in the writer's shapes, and vice versa."""
    report = score_bundled_example().to_dict()
    for item in report["items"]:
        assert set(item) == set(ITEM_SHAPE)
        assert set(item["fact"]) == set(FACT_SHAPE)
        assert set(item["format"]) == set(FORMAT_SHAPE)
        if item["reference"] is not None:
            assert set(item["reference"]) == set(REFERENCE_SHAPE)


@pytest.mark.parametrize("wrapped", [False, True])
def test_bundled_reports_many_times_over(wrapped: bool) -> None:
    """The real report (every bucket, verdict and reason), repeated past one chunk."""
    report = score_bundled_example(read_facts_from_wrapped=wrapped).to_dict()
    assert render_structured_json(report) == reference(report)
    report["items"] = report["items"] * 40  # 1,200 records: three chunks
    assert render_structured_json(report) == reference(report)


def test_written_file_is_the_whole_text_encoded(tmp_path: Path) -> None:
    report = score_bundled_example().to_dict()
    report["items"][0]["response"] = "lone \ud800 surrogate, é, \u2028"
    report["items"] = report["items"] * 25
    target = tmp_path / "out" / "report.json"
    assert write_structured_json(target, report, "--output") == target
    assert target.read_bytes() == reference(report).encode("utf-8", "backslashreplace")
    assert b"lone \\ud800 surrogate" in target.read_bytes()  # the escape, as write_file does
    back = json.loads(target.read_text("utf-8"))["items"][0]["response"]
    assert back == "lone \ud800 surrogate, é, \u2028"


def test_a_failure_part_way_leaves_the_old_file(tmp_path: Path) -> None:
    """A value JSON cannot hold in the third chunk: nothing half-written replaces the file."""
    target = tmp_path / "report.json"
    target.write_text("old\n", "utf-8")
    report = score_bundled_example().to_dict()
    report["items"] = [dict(item) for item in report["items"] * 40]
    report["items"][1100]["response"] = {1j}
    with pytest.raises(TypeError):
        json.dumps(report)
    with pytest.raises(TypeError):
        write_structured_json(target, report, "--output")
    assert target.read_text("utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_cli_output_is_json_dumps_of_what_it_holds(tmp_path: Path) -> None:
    """``assay structured --output``: the file is json.dumps(indent=2) of its own content."""
    out = tmp_path / "report.json"
    cli(["structured", "--example", "--output", str(out)])
    text = out.read_text("utf-8")
    assert text == reference(json.loads(text))
    assert text == reference(score_bundled_example().to_dict())


# --- the orjson path: kept only where its text is provably json.dumps's ---------------

orjson = pytest.importorskip("orjson")  # a declared dependency: installed by make test


class _Colour(enum.Enum):
    RED = "red"


class _Number(enum.IntEnum):
    ONE = 1


class _Key(str):
    pass


@dataclasses.dataclass
class _Point:
    x: int


def _deep(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = [value]
    return value


HAZARDS = [
    float("nan"), float("inf"), -float("inf"), 1e-05, -1.5e-07, 5e-324, 9.99e-05,
    2**64, -(2**63) - 1, "lone \ud800", {_Key("k"): 1}, {1: "int key"}, _Number.ONE,
    _deep(300),
]  # fmt: skip
UNWRITABLE = [_Colour.RED, _Point(1), uuid.UUID(int=7), datetime.date(2024, 1, 2), {1, 2},
              b"bytes", 1j]  # fmt: skip


def _records(value: Any) -> list[Any]:
    report = score_bundled_example().to_dict()
    records = [dict(item) for item in report["items"]]
    records[3] = {**records[3], "response": value}
    return records


@pytest.mark.parametrize("value", HAZARDS, ids=repr)
def test_orjson_is_refused_where_its_text_could_differ(value: Any) -> None:
    """Each value orjson writes otherwise (or not at all) sends its chunk to the stdlib writer."""
    records = _records(value)
    assert _orjson_records(records) is None
    assert _orjson_records(_records("plain")) is not None  # the check's control
    report = {"items": records, "kind": "x"}
    assert render_structured_json_fast(report) == reference(report)


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
@pytest.mark.parametrize("shared", [False, True])
def test_a_non_finite_float_held_once_or_twice_is_refused(literal: str, shared: bool) -> None:
    """A float marshal writes plainly (held once) or with a reference flag (held twice)."""
    records = _records("plain")
    value = float(literal)  # a fresh float object: only the records hold it
    records[5] = {**records[5], "response": [1.5, value, value] if shared else value}
    del value
    assert _orjson_records(records) is None
    report = {"items": records}
    assert render_structured_json_fast(report) == reference(report)


@pytest.mark.parametrize("value", UNWRITABLE, ids=repr)
def test_values_json_cannot_write_still_fail(value: Any) -> None:
    """orjson would write an Enum or a dataclass; json.dumps refuses them, so does the writer."""
    report = {"items": _records(value)}
    assert _orjson_records(report["items"]) is None
    with pytest.raises((TypeError, ValueError)):
        reference(report)
    with pytest.raises((TypeError, ValueError)):
        render_structured_json_fast(report)


finite = st.floats(allow_nan=False, allow_infinity=False)
plain_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | finite | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=16,
)


@settings(max_examples=500, deadline=None)
@given(st.lists(plain_values, min_size=1, max_size=6))
def test_orjson_text_when_kept_is_json_dumps_text(records: list[Any]) -> None:
    """Any value orjson's text is kept for gives json.dumps's text at the records' depth."""
    text = _orjson_records(records)
    expected = reference({"items": records}).split("\n", 2)[2]  # after '{' and '  "items": ['
    expected = expected[4 : expected.rindex("\n  ]")]
    if text is not None:
        assert text.decode("utf-8") == expected


def test_a_tuple_is_a_list_to_both() -> None:
    report = {"items": _records((1, 2.5, "x"))}
    assert _orjson_records(report["items"]) is not None
    assert render_structured_json_fast(report) == reference(report)


def test_the_bench_like_report_goes_through_orjson() -> None:
    """Real records (every bucket, verdict and reason) take the fast path, same bytes."""
    report = score_bundled_example(read_facts_from_wrapped=True).to_dict()
    assert _orjson_records(report["items"]) is not None
    report["items"] = report["items"] * 40
    assert render_structured_json_fast(report) == reference(report)

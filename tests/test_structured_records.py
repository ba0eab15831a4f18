"""score_structured takes in-memory items and references: dicts, generators, DataFrames."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import assay
from assay.errors import InputFileError, InvalidTypeError
from assay.structured.example import bundled_example_paths


@pytest.fixture(scope="module")
def example() -> Iterator[Any]:
    with bundled_example_paths() as paths:
        yield paths


def rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def without_lines(document: dict[str, Any]) -> dict[str, Any]:
    """The report minus what names the input files (digests, items' line numbers)."""
    items = [{k: v for k, v in item.items() if k != "line"} for item in document["items"]]
    return {**document, "inputs": None, "items": items}


def forms(path: Path) -> dict[str, Any]:
    data = rows(path)
    return {
        "list": data,
        "tuple": tuple(data),
        "generator": (row for row in data),
        "frame": pd.read_json(path, lines=True, dtype=False),
    }


@pytest.mark.parametrize("form", ["list", "tuple", "generator", "frame"])
def test_records_score_as_the_files(example: Any, form: str) -> None:
    by_files = assay.score_structured(example.items, example.schema, references=example.references)
    items, references = forms(example.items)[form], forms(example.references)[form]
    in_memory = assay.score_structured(items, example.schema, references=references).to_dict()
    assert in_memory["inputs"] == {"items": None, "references": None}
    assert without_lines(in_memory) == without_lines(by_files.to_dict())
    assert len(in_memory["items"]) == 30


def test_a_frame_with_claims_and_inline_references(example: Any) -> None:
    references = {row["id"]: row["reference"] for row in rows(example.references)}
    data = rows(example.items)
    inline = [{**row, "reference": references.get(row["id"])} for row in data]
    expected = assay.score_structured(example.items, example.schema, references=example.references)
    frame = pd.DataFrame(inline)  # the one item without a reference is a None cell
    got = assay.score_structured(frame, example.schema).to_dict()
    assert without_lines(got) == without_lines(expected.to_dict())
    with_claims = [
        {**inline[0], "claims": ["The lamp costs 49.90 EUR.", "It is green."]},
        {k: v for k, v in inline[1].items() if k != "claims"},
    ]
    from_frame = assay.score_structured(pd.DataFrame(with_claims), example.schema).to_dict()
    from_dicts = assay.score_structured(with_claims, example.schema).to_dict()
    assert from_frame == from_dicts
    free_text = [c for c in from_frame["items"][0]["fact"]["claims"] if c["free_text"]]
    assert [c["field"] for c in free_text] == ["claims.0", "claims.1"]


def test_a_missing_response_cell_is_the_empty_response(example: Any) -> None:
    frame = pd.DataFrame([{"id": "a", "response": "{}"}, {"id": "b", "response": None}])
    items = assay.score_structured(frame, example.schema).to_dict()["items"]
    as_json_null = assay.score_structured(
        [{"id": "a", "response": "{}"}, {"id": "b", "response": None}], example.schema
    ).to_dict()["items"]
    assert items == as_json_null and items[1]["bucket"] == "empty"


def message(call: Any) -> str:
    with pytest.raises(InputFileError) as caught:
        call()
    return str(caught.value)


def test_bad_rows_name_the_row_index_with_the_files_message(example: Any, tmp_path: Path) -> None:
    data = rows(example.items)
    broken = [*data[:3], {"id": "x1"}, *data[3:]]
    file = tmp_path / "responses.jsonl"
    file.write_text("".join(json.dumps(r) + "\n" for r in broken), "utf-8")
    from_file = message(lambda: assay.score_structured(file, example.schema))
    for form in ("list", "generator"):
        got = message(lambda f=form: assay.score_structured(forms(file)[f], example.schema))
        assert got.startswith("items records[3]: field 'response': missing")
        assert got.removeprefix("items records[3]") == from_file.removeprefix(f"{file}:4")
    # a frame has a cell for every row: without a response column the first row says so
    frame = pd.DataFrame(broken).drop(columns="response")
    got = message(lambda: assay.score_structured(frame, example.schema))
    assert got.removeprefix("items records[0]") == from_file.removeprefix(f"{file}:4")
    unknown = pd.DataFrame(broken).astype(object)
    unknown.loc[5, "id"] = None
    got = message(lambda: assay.score_structured(unknown, example.schema))
    assert got == "items records[5]: field 'id': missing; give every row an id"


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        ({"response": "{}"}, "items records[1]: field 'id': missing; give every row an id"),
        ({"id": True, "response": "{}"}, "items records[1]: field 'id': must be a string or"),
        ({"id": "b", "response": 7}, "items records[1]: field 'response': must be a string, got 7"),
        ({"id": "b", "response": "{}", "claims": "x"}, "items records[1]: field 'claims': must"),
        ({"id": "a", "response": "{}"}, "items records[1]: field 'id': duplicate id 'a' (first "
         "at items records[0]); ids must be unique"),
        ({"id": "b", "response": "{}", "reference": [1]}, "items records[1]: field 'reference'"),
        ("not a row", "items records[1]: expected a dict, got str"),
    ],
)  # fmt: skip
def test_each_bad_item_row(example: Any, row: Any, expected: str) -> None:
    items = ({"id": "a", "response": "{}"}, row)
    assert message(lambda: assay.score_structured(iter(items), example.schema)).startswith(expected)


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        ({"reference": {"sku": "x"}}, "references records[1]: field 'id': missing"),
        ({"id": "zz", "reference": {"sku": "x"}}, "references records[1]: field 'id': id 'zz' "
         "is not in the items; fix or remove the row"),
        ({"id": "p01", "reference": {"sku": "x"}}, "references records[1]: field 'id': duplicate "
         "id 'p01' (first at references records[0])"),
        ({"id": "p02", "reference": 5}, "references records[1]: field 'reference': must be a JSON "
         "object, got int"),
        (3, "references records[1]: expected a dict, got int"),
    ],
)  # fmt: skip
def test_each_bad_reference_row(example: Any, row: Any, expected: str) -> None:
    references = pd.DataFrame([{"id": "p01", "reference": {"sku": "x"}}]).to_dict("records")
    call = lambda: assay.score_structured(  # noqa: E731
        example.items, example.schema, references=[*references, row]
    )
    assert message(call).startswith(expected)


def test_a_reference_for_an_item_with_an_inline_one_names_both(example: Any) -> None:
    items = [{"id": "a", "response": "{}", "reference": {"sku": "x"}}]
    references = pd.DataFrame([{"id": "a", "reference": {"sku": "y"}}])
    got = message(lambda: assay.score_structured(items, example.schema, references=references))
    assert got == (
        "references records[0]: field 'id': item 'a' already has an inline reference "
        "(items records[0]); give it in one place only"
    )


@pytest.mark.parametrize("bad", [42, {"id": "a", "response": "{}"}, b"items.jsonl", None])
def test_something_that_is_not_rows_is_a_type_error(example: Any, bad: Any) -> None:
    with pytest.raises(InvalidTypeError, match="items: expected a file path, an iterable of dicts"):
        assay.score_structured(bad, example.schema)
    with pytest.raises(InvalidTypeError, match="references: expected a file path"):
        assay.score_structured(example.items, example.schema, references=7)


def test_a_structured_report_shows_its_headlines_in_a_notebook(example: Any) -> None:
    report = assay.score_structured(example.items, example.schema, references=example.references)
    html = report._repr_html_()
    headlines = report.to_dict()["headlines"]
    assert html.startswith("<table><caption>StructuredReport: 30 items; structured|")
    assert html.count("<tr>") == len(headlines) + 1
    for h in headlines:
        assert f"<td>{h['k']}/{h['n']}</td>" in html

"""The contract: check_schema first, format asserted, keyword errors with JSON pointers."""

import json
from importlib import metadata
from pathlib import Path

import pytest

from assay.errors import InputFileError
from assay.structured.contract import contract_from_schema, json_pointer, load_contract

SCHEMA = {
    "type": "object",
    "required": ["sku", "released", "variants"],
    "additionalProperties": False,
    "properties": {
        "sku": {"type": "string", "pattern": "^LO-[0-9]{4}$"},
        "released": {"type": "string", "format": "date"},
        "category": {"enum": ["lighting", "kitchen"]},
        "price": {"type": "number"},
        "variants": {
            "type": "array",
            "items": {"type": "object", "required": ["code"], "properties": {"code": {}}},
        },
        "a/b~c": {"type": "integer"},
    },
}


def errors(instance: object) -> list[tuple[str, str, str]]:
    return [(e.pointer, e.keyword, e.field) for e in contract_from_schema(SCHEMA).check(instance)]


def test_valid_instance_has_no_errors() -> None:
    assert errors({"sku": "LO-1001", "released": "2024-02-29", "variants": []}) == []


@pytest.mark.parametrize("bad", ["2024-02-30", "2023-02-29", "14/03/2024", "2024-3-14", "20240314"])
def test_date_format_is_asserted(bad: str) -> None:
    # Draft 2020-12 treats format as an annotation unless a checker is given
    assert errors({"sku": "LO-1001", "released": bad, "variants": []}) == [
        ("/released", "schema.format", "/released")
    ]


def test_keyword_errors_point_at_fields_sorted() -> None:
    instance = {
        "sku": "lo-1",
        "category": "garden",
        "price": "12",
        "variants": [{"code": 1}, {}],
        "extra": 1,
        "a/b~c": 1.5,
    }
    assert errors(instance) == [
        ("/a~1b~0c", "schema.type", "/a~1b~0c"),
        ("/category", "schema.enum", "/category"),
        ("/extra", "schema.additionalProperties", "/extra"),
        ("/price", "schema.type", "/price"),
        ("/released", "schema.required", "/released"),
        ("/sku", "schema.pattern", "/sku"),
        ("/variants/1/code", "schema.required", "/variants/*/code"),
    ]


def test_root_type_error_points_at_root() -> None:
    assert errors([1]) == [("", "schema.type", "/")]


def test_json_pointer_escapes() -> None:
    assert json_pointer(["a/b", "m~n", 0]) == "/a~1b/m~0n/0"
    assert json_pointer([]) == ""


def test_invalid_schema_is_an_error_naming_file_and_location(tmp_path: Path) -> None:
    path = tmp_path / "contract.json"
    path.write_text(json.dumps({"type": "object", "properties": {"sku": {"type": "strin"}}}))
    with pytest.raises(InputFileError) as info:
        load_contract(path)
    assert info.value.path == str(path)
    assert info.value.field == "/properties/sku/type"
    assert "invalid JSON Schema" in str(info.value)


def test_contract_file_that_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "contract.json"
    path.write_text('{\n  "type": "object",\n  oops\n}\n')
    with pytest.raises(InputFileError) as info:
        load_contract(path)
    assert info.value.line == 3 and str(path) in str(info.value)


def test_missing_contract_file(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match="cannot open"):
        load_contract(tmp_path / "nope.json")


def test_contract_records_versions_and_digest(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps(SCHEMA))
    record = load_contract(path).to_dict()
    assert record["jsonschema_version"] == metadata.version("jsonschema")
    assert record["source"] == "c.json" and record["draft"] == "2020-12"
    assert len(record["sha256"]) == 64


def test_formats_without_a_checker_are_listed_not_assumed() -> None:
    contract = contract_from_schema(
        {"properties": {"d": {"format": "date"}, "u": {"format": "uri-reference"}}}
    )
    assert contract.formats_asserted == ("date",)
    assert contract.formats_not_asserted == ("uri-reference",)


def test_unresolvable_ref_is_a_clear_error() -> None:
    # refused when the contract is built, before any response is checked
    with pytest.raises(InputFileError) as info:
        contract_from_schema({"$ref": "https://example.invalid/other.json"}, "c.json")
    assert info.value.path == "c.json" and info.value.field == "/$ref"
    assert "'https://example.invalid/other.json'" in str(info.value)


def test_invalid_schema_error_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "contract.json"
    path.write_text(
        '{\n  "type": "object",\n  "properties": {\n    "sku": {"type": "string"},\n'
        '    "price": {\n      "type": "nmber"\n    }\n  }\n}\n'
    )
    with pytest.raises(InputFileError) as info:
        load_contract(path)
    assert (info.value.line, info.value.field) == (6, "/properties/price/type")
    assert str(info.value).startswith(f"{path}:6: field '/properties/price/type':")

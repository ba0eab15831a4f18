"""The compiled contract check gives exactly jsonschema's field errors (jsonschema is the oracle).

``Contract.check`` runs the schema compiled by :mod:`assay.structured.schema_compiled`
when it covers the schema; ``Contract.check_with_jsonschema`` is the jsonschema path
it replaces. Every comparison below is of the full error tuples (pointer, keyword,
field, message), not only of the verdicts.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assay.io.bundled import data_path
from assay.structured.contract import Contract, contract_from_schema, load_contract
from assay.structured.schema_compiled import compile_schema
from assay.structured.schema_formats import format_checker

SUITE = Path(__file__).parent / "data" / "json_schema_test_suite" / "draft2020-12"


def suite_groups() -> list[tuple[str, dict[str, Any]]]:
    found = []
    for path in sorted(SUITE.rglob("*.json")):
        for group in json.loads(path.read_text("utf-8")):
            found.append((path.relative_to(SUITE).as_posix(), group))
    return found


def agree(contract: Contract, instance: Any) -> bool:
    return contract.check(instance) == contract.check_with_jsonschema(instance)


def test_suite_cases_give_jsonschema_errors_exactly() -> None:
    compiled = checked = refused = 0
    wrong = []
    for name, group in suite_groups():
        if "localhost:1234" in json.dumps(group["schema"]):
            continue
        try:
            contract = contract_from_schema(group["schema"], name)
        except Exception:  # noqa: BLE001 - groups assay refuses at load are not run here
            refused += 1
            continue
        if contract._compiled is None:
            continue
        compiled += 1
        for case in group["tests"]:
            checked += 1
            if not agree(contract, case["data"]):
                wrong.append(f"{name}: {group['description']} / {case['description']}")
    assert wrong == []
    # most of the suite is covered by the compiled form (the rest runs through jsonschema)
    assert compiled >= 300 and checked >= 1200, (compiled, checked, refused)


def test_schemas_outside_the_compiled_subset_are_left_to_jsonschema() -> None:
    checker = format_checker()
    left = [
        {"unevaluatedProperties": False},
        {"items": {"unevaluatedItems": False}},
        {"$defs": {"a": {"$id": "http://example.com/a", "type": "string"}}},
        {"$dynamicRef": "#meta"},
        {"$defs": {"a": {"$anchor": "x"}}, "$ref": "#x"},
        {"$schema": "https://json-schema.org/draft/2020-12/schema", "items": {"$ref": "#"}},
        {"$schema": "http://json-schema.org/draft-07/schema#"},
        {"$ref": "#/%24defs/a", "$defs": {"a": {}}},
    ]
    for schema in left:
        assert compile_schema(schema, checker) is None, schema
    kept = [True, False, {}, {"$ref": "#/$defs/a", "$defs": {"a": {"type": "integer"}}}]
    for schema in kept:
        assert compile_schema(schema, checker) is not None, schema


def bundled_contract() -> Contract:
    return load_contract(data_path("structured") / "product.schema.json")


def bundled_objects() -> list[dict[str, Any]]:
    rows = (data_path("structured") / "responses.jsonl").read_text("utf-8").splitlines()
    found = []
    for row in rows:
        try:
            value = json.loads(json.loads(row)["response"])
        except ValueError:
            continue
        if isinstance(value, dict):
            found.append(value)
    return found


REPLACEMENTS: list[Any] = [
    None, True, False, 0, -1, 1.5, -0.5, 10**30, "", "text", "LO-1234", "LO-12345",
    "2024-02-30", "2024-02-29", "lighting", [], ["a"], ["a", "b", "c", "d", "e"], [1], {}, {"a": 1},
]  # fmt: skip


def test_every_field_of_the_bundled_responses_mutated_gives_the_same_errors() -> None:
    contract = bundled_contract()
    assert contract._compiled is not None
    cases = 0
    for value in bundled_objects():
        fields = list(value) + ["extra_field"]
        for name in fields:
            dropped = {k: v for k, v in value.items() if k != name}
            assert agree(contract, dropped), dropped
            for replacement in REPLACEMENTS:
                changed = {**value, name: replacement}
                assert agree(contract, changed), changed
                cases += 1
    assert cases > 2000


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(-5, 5, allow_nan=False)
    | st.sampled_from(["", "a", "LO-1001", "2024-03-14", "x@example.com", "lighting", "1"]),
    lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.sampled_from(["a", "b", "sku", "name", "n", "x-1", "list"]), inner,
                      max_size=5),
    max_leaves=12,
)  # fmt: skip

KEYWORD_SCHEMA = {
    "$defs": {
        "node": {"type": "object", "properties": {"a": {"$ref": "#/$defs/node"}}},
        "small": {"type": "integer", "minimum": -2, "exclusiveMaximum": 3, "multipleOf": 2},
    },
    "anyOf": [
        {
            "type": "object",
            "required": ["a"],
            "properties": {
                "a": {"oneOf": [{"type": "string", "minLength": 1}, {"$ref": "#/$defs/small"}]},
                "b": {"not": {"type": "null"}},
                "list": {"type": "array", "prefixItems": [{"const": 1}], "items": False},
                "n": {"$ref": "#/$defs/node"},
            },
            "patternProperties": {"^x-": {"type": "number"}},
            "additionalProperties": {"type": ["string", "boolean"]},
            "propertyNames": {"maxLength": 4},
            "dependentRequired": {"b": ["a", "n"]},
            "dependentSchemas": {"sku": {"maxProperties": 2}},
            "minProperties": 1,
        },
        {
            "type": "array",
            "contains": {"type": "integer"},
            "maxContains": 2,
            "uniqueItems": True,
            "maxItems": 4,
            "items": {
                "if": {"type": "string"},
                "then": {"format": "date"},
                "else": {"enum": [1, None, [1], {"a": 1}]},
            },
        },
        {"type": "string", "pattern": "^LO-[0-9]{4}$", "format": "email"},
        {"allOf": [{"type": "number"}, {"maximum": 4.5}, {"minimum": -4.5}]},
    ],
}  # fmt: skip


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=json_values)
def test_random_responses_give_jsonschema_errors_exactly(value: Any) -> None:
    assert agree(KEYWORD_SCHEMA_CONTRACT, value)
    assert agree(BUNDLED, value)


KEYWORD_SCHEMA_CONTRACT = contract_from_schema(KEYWORD_SCHEMA, "keywords")
BUNDLED = bundled_contract()


def test_a_pattern_past_its_time_limit_is_decided_by_jsonschema() -> None:
    contract = Contract({"type": "string", "pattern": "^(a|aa)+$"}, pattern_timeout=0.05)
    assert contract._compiled is not None
    text = "a" * 40 + "!"
    errors = contract.check(text)
    assert errors == contract.check_with_jsonschema(text)
    assert [e.keyword for e in errors] == ["schema.pattern_timeout"]


def test_a_response_too_deep_for_the_compiled_check_is_decided_by_jsonschema() -> None:
    contract = contract_from_schema({"$defs": {"n": {"items": {"$ref": "#/$defs/n"}}},
                                     "$ref": "#/$defs/n"})  # fmt: skip
    deep: Any = []
    for _ in range(5000):
        deep = [deep]
    assert [e.keyword for e in contract.check(deep)] == ["nested_too_deep"]

"""Every format reason code of the raw-response reader, and that nothing is repaired."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.structured.parse import PARSE_REASONS, parse_response

OBJ = '{"sku": "LO-1001", "price_eur": 49.9}'
VALUE = {"sku": "LO-1001", "price_eur": 49.9}


@pytest.mark.parametrize(
    ("response", "reasons", "inner"),
    [
        ("", ("empty",), None),
        ("   \n\t", ("empty",), None),
        ("I could not find that product.", ("not_json",), None),
        ("I like {braces} and [brackets].", ("not_json",), None),
        ("```python\nprint(1)\n```", ("not_json",), None),
        ("NaN", ("not_json",), None),
        ('Here: {"code": "```x```"}', ("json_with_prose",), {"code": "```x```"}),
        (f"```json\n{OBJ}\n```", ("fenced_json",), VALUE),
        (f"```\n{OBJ}\n```", ("fenced_json",), VALUE),
        (f"Here it is:\n```json\n{OBJ}\n```\nThanks!", ("fenced_json", "json_with_prose"), VALUE),
        (f"Sure! {OBJ} Hope this helps.", ("json_with_prose",), VALUE),
        (f"{OBJ}\n{OBJ}", ("multiple_json_values",), None),
        (f"{OBJ}, {OBJ}", ("multiple_json_values",), None),
        (
            f"```json\n{OBJ}\n```\n```json\n{OBJ}\n```",
            ("fenced_json", "multiple_json_values"),
            None,
        ),
        ('{"sku": "LO-1001", "price_eur": 4', ("truncated_json",), None),
        ('{"sku": "LO-10', ("truncated_json",), None),
        ('[{"sku": "LO-1001"}, {"sku":', ("truncated_json",), None),
        ('The record: {"sku": "LO-1001",', ("json_with_prose", "truncated_json"), None),
        ('```json\n{"sku": "LO-1001",', ("fenced_json", "truncated_json"), None),
    ],
)
def test_reason_codes(response: str, reasons: tuple[str, ...], inner: object) -> None:
    parsed = parse_response(response)
    assert parsed.reasons == reasons
    assert not parsed.ok
    assert parsed.value is None  # never repaired into a value
    assert parsed.inner == inner
    assert parsed.has_inner == (inner is not None)


@pytest.mark.parametrize(
    ("response", "value"),
    [
        (OBJ, VALUE),
        (f"  \n{OBJ}\n ", VALUE),  # surrounding whitespace is not prose
        ("[1, 2]", [1, 2]),
        ('"just a string"', "just a string"),
        ("null", None),
    ],
)
def test_one_json_value_parses(response: str, value: object) -> None:
    parsed = parse_response(response)
    assert parsed.ok and parsed.reasons == () and parsed.value == value


def test_reason_code_order_is_documented_order() -> None:
    assert PARSE_REASONS == (
        "empty",
        "not_json",
        "fenced_json",
        "json_with_prose",
        "multiple_json_values",
        "truncated_json",
        "nested_too_deep",
        "number_too_long",
    )


_leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=6))
_objects = st.dictionaries(
    st.text(max_size=5), st.one_of(_leaf, st.lists(_leaf, max_size=3)), max_size=4
)
_prose = st.text(
    alphabet=st.characters(blacklist_characters='{}[]`"', blacklist_categories=("Cs",)),
    min_size=1,
    max_size=12,
).filter(str.strip)


@settings(max_examples=80, deadline=None)
@given(_objects, _prose)
def test_wrapping_never_changes_the_inner_value(value: dict, prose: str) -> None:
    text = json.dumps(value)
    assert parse_response(text).value == value
    fenced = parse_response(f"```json\n{text}\n```")
    assert fenced.reasons == ("fenced_json",) and fenced.inner == value
    wrapped = parse_response(f"{prose} {text} {prose}")
    assert wrapped.reasons == ("json_with_prose",) and wrapped.inner == value
    cut = parse_response(text[:-1])
    assert cut.reasons == ("truncated_json",) and cut.value is None

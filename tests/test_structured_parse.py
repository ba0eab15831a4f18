"""Every format reason code of the raw-response reader, and that nothing is repaired."""

import pytest

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
    )

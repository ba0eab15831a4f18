"""Claims, the two reference forms, comparison rules, and the free-text judge."""

from collections.abc import Sequence

import pytest

from assay.errors import InputFileError
from assay.structured.claims import Claim, extract_claims, parse_reference
from assay.structured.verdicts import (
    NormalizedMatchJudge,
    judge_claims,
    judge_field,
    judge_text,
)


def test_claims_are_leaves_in_document_order() -> None:
    value = {"name": "Lamp", "dims": {"w": 10, "h": None}, "tags": ["a", "b"], "v": [{"sku": "X"}]}
    assert [(c.field, c.pointer, c.value) for c in extract_claims(value)] == [
        ("name", "/name", "Lamp"),
        ("dims.w", "/dims/w", 10),
        ("tags", "/tags", ["a", "b"]),
        ("v.0.sku", "/v/0/sku", "X"),
    ]


@pytest.mark.parametrize("value", [{}, {"a": None}, 42, "text", None])
def test_no_claims(value: object) -> None:
    assert extract_claims(value) == ()


def test_plain_form_uses_default_rules_and_requires_every_field() -> None:
    ref = parse_reference({"price": 12, "name": "Lamp", "ok": True, "dims": {"w": 3}})
    assert [(f.field, f.rule) for f in ref.fields] == [
        ("dims.w", "number"),
        ("name", "casefold"),
        ("ok", "exact"),
        ("price", "number"),
    ]
    assert ref.required == ("dims.w", "name", "ok", "price") and ref.form == "plain"


def test_full_form() -> None:
    ref = parse_reference(
        {
            "fields": {
                "price": {"value": 12.5, "rule": "number", "tolerance": 0.01},
                "name": {"value": "Desk Lamp", "aliases": ["Lamp, desk"]},
                "sku": "DL-1",
            },
            "required": ["name"],
            "statements": ["it ships with a bulb"],
        }
    )
    assert ref.form == "full" and ref.required == ("name",)
    assert ref.get("price") is not None and ref.get("price").tolerance == 0.01  # type: ignore[union-attr]
    assert ref.get("name").aliases == ("Lamp, desk",)  # type: ignore[union-attr]
    assert ref.statements == ("it ships with a bulb",)


def verdict(rule_spec: dict, value: object) -> str:
    ref = parse_reference({"fields": {"f": rule_spec}})
    return judge_field(Claim("f", value), ref.get("f")).verdict


@pytest.mark.parametrize(
    ("spec", "value", "expected"),
    [
        ({"value": "Desk Lamp", "rule": "exact"}, "Desk Lamp", "supported"),
        ({"value": "Desk Lamp", "rule": "exact"}, "desk lamp", "contradicted"),
        ({"value": 1, "rule": "exact"}, True, "contradicted"),  # JSON: true is not 1
        ({"value": 1, "rule": "exact"}, 1.0, "supported"),
        ({"value": "Desk  Lamp", "rule": "casefold"}, " desk lamp ", "supported"),
        ({"value": "Straße", "rule": "casefold"}, "STRASSE", "supported"),
        ({"value": "Desk Lamp", "rule": "casefold"}, 5, "judge_failed"),
        ({"value": 12.5, "rule": "number", "tolerance": 0.01}, 12.51, "supported"),
        ({"value": 12.5, "rule": "number", "tolerance": 0.01}, 12.52, "contradicted"),
        ({"value": 12.5, "rule": "number"}, "12.50", "supported"),
        ({"value": 12.5, "rule": "number"}, "twelve", "judge_failed"),
        ({"value": 12, "rule": "number"}, True, "judge_failed"),
        ({"value": "2024-03-14", "rule": "date"}, "2024-03-14", "supported"),
        ({"value": "2024-03-14", "rule": "date"}, "2024-03-15", "contradicted"),
        ({"value": "2024-03-14", "rule": "date"}, "14 March 2024", "judge_failed"),
        ({"value": ["red", "crimson"], "rule": "one_of"}, "Crimson", "supported"),
        ({"value": ["red", "crimson"], "rule": "one_of"}, "blue", "contradicted"),
        ({"value": [1, 2], "rule": "one_of"}, 2, "supported"),
        ({"value": "Desk Lamp", "aliases": ["Lamp"]}, "lamp", "supported"),
        ({"value": 10, "aliases": [11]}, 11, "supported"),
    ],
)
def test_rules(spec: dict, value: object, expected: str) -> None:
    assert verdict(spec, value) == expected


def test_field_without_reference_is_insufficient() -> None:
    result = judge_claims(
        [Claim("colour", "red")], parse_reference({"name": "x"}), NormalizedMatchJudge()
    )
    assert [v.verdict for v in result] == ["insufficient"]


@pytest.mark.parametrize(
    ("reference", "field", "needle"),
    [
        (
            {"fields": {"price": {"value": 1, "rule": "fuzzy"}}},
            "reference.fields.price.rule",
            "fuzzy",
        ),
        (
            {"fields": {"price": {"value": "x", "rule": "number"}}},
            "reference.fields.price.value",
            "number",
        ),
        (
            {"fields": {"d": {"value": "2024-02-30", "rule": "date"}}},
            "reference.fields.d.value",
            "date",
        ),
        (
            {"fields": {"c": {"value": "red", "rule": "one_of"}}},
            "reference.fields.c.value",
            "one_of",
        ),
        ({"fields": {"p": {"value": 1, "tolerance": -1}}}, "reference.fields.p.tolerance", ">= 0"),
        (
            {"fields": {"p": {"value": "a", "tolerance": 1}}},
            "reference.fields.p.tolerance",
            "only the number",
        ),
        ({"fields": {"p": {"rule": "exact"}}}, "reference.fields.p", '"value"'),
        ({"fields": {"p": {"value": 1, "weight": 2}}}, "reference.fields.p.weight", "unknown key"),
        ({"fields": {"p": 1}, "required": "p"}, "reference.required", "list of strings"),
        ({"fields": {"p": 1}, "required": ["p", "p"]}, "reference.required", "twice"),
        ({"fields": []}, "reference.fields", "object"),
    ],
)
def test_bad_reference_names_file_line_field(reference: dict, field: str, needle: str) -> None:
    with pytest.raises(InputFileError) as info:
        parse_reference(reference, path="refs.jsonl", line=7)
    error = info.value
    assert (error.path, error.line, error.field) == ("refs.jsonl", 7, field)
    assert needle in str(error) and str(error).startswith("refs.jsonl:7:")


def test_unknown_rule_lists_the_known_rules() -> None:
    with pytest.raises(InputFileError, match="casefold, date, exact, number, one_of"):
        parse_reference({"fields": {"price": {"value": 1, "rule": "fuzzy"}}})


REF = parse_reference(
    {"statements": ["The lamp ships with a bulb."], "contradictions": ["The lamp is cordless."]}
)


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        (
            "the lamp ships with a bulb",
            "supported",
        ),  # SQuAD normalisation: case, punctuation, articles
        ("A lamp ships with the bulb!", "supported"),
        ("The lamp is cordless", "contradicted"),
        ("The lamp was designed in Lisbon.", "insufficient"),
    ],
)
def test_builtin_judge(claim: str, expected: str) -> None:
    assert (
        judge_text(Claim("claims.0", claim, free_text=True), REF, NormalizedMatchJudge()).verdict
        == expected
    )


def test_builtin_judge_fails_when_reference_disagrees_with_itself() -> None:
    ref = parse_reference({"statements": ["it is red"], "contradictions": ["It is red."]})
    assert (
        judge_text(
            Claim("claims.0", "it is red", free_text=True), ref, NormalizedMatchJudge()
        ).verdict
        == "judge_failed"
    )


class BrokenJudge:
    name = "broken"

    def judge(self, claim: str, statements: Sequence[str], contradictions: Sequence[str]) -> str:
        if "raise" in claim:
            raise RuntimeError("model timed out")
        return "maybe"


@pytest.mark.parametrize(
    ("claim", "detail"), [("raise please", "model timed out"), ("x", "'maybe'")]
)
def test_judge_that_cannot_decide_yields_judge_failed(claim: str, detail: str) -> None:
    result = judge_text(Claim("claims.0", claim, free_text=True), REF, BrokenJudge())
    assert result.verdict == "judge_failed" and detail in result.detail and result.rule == "broken"


def test_free_text_without_reference_statements_is_insufficient() -> None:
    ref = parse_reference({"name": "x"})
    assert (
        judge_text(Claim("claims.0", "anything", free_text=True), ref, BrokenJudge()).verdict
        == "insufficient"
    )


def test_field_specs_without_the_fields_wrapper_read_as_full_form() -> None:
    ref = parse_reference({"date": {"value": "2024-03-14", "rule": "date"}, "sku": "DL-1"})
    assert ref.form == "full" and ref.required == ("date", "sku")
    assert ref.get("date").rule == "date"  # type: ignore[union-attr]
    # The date rule decides, not a flattened "date.value" field: 15 ≠ 14 March.
    assert judge_field(Claim("date", "2024-03-15"), ref.get("date")).verdict == "contradicted"


def test_unknown_rule_without_the_fields_wrapper_is_an_error() -> None:
    with pytest.raises(InputFileError, match="unknown comparison rule 'fuzzy'") as caught:
        parse_reference({"date": {"value": "x", "rule": "fuzzy"}}, path="refs.jsonl", line=3)
    assert caught.value.line == 3 and caught.value.field is not None
    assert caught.value.field.endswith("date.rule")


def test_ordinary_nested_objects_stay_plain() -> None:
    # {"value": 3} alone and {"w": 3} are data, not specs: flattened like claims.
    ref = parse_reference({"dims": {"w": 3}, "box": {"value": 3}})
    assert ref.form == "plain"
    assert [f.field for f in ref.fields] == ["box.value", "dims.w"]

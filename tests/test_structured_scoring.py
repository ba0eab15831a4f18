"""Both axes end to end: buckets, identity, headlines, cross-tab, fallback, determinism."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay import score_structured
from assay.errors import InputFileError
from assay.report.structured.files import render_structured_json
from assay.stats.intervals import wilson_interval
from assay.structured.contract import contract_from_schema
from assay.structured.example import score_bundled_example

SCHEMA = {
    "type": "object",
    "required": ["sku", "released"],
    "additionalProperties": False,
    "properties": {
        "sku": {"type": "string", "pattern": "^LO-[0-9]{4}$"},
        "released": {"type": "string", "format": "date"},
        "price": {"type": "number"},
    },
}
CONTRACT = contract_from_schema(SCHEMA)
GOOD = {"sku": "LO-1001", "released": "2024-03-14", "price": 49.9}
REFERENCE = {
    "fields": {
        "sku": {"value": "LO-1001", "rule": "exact"},
        "released": {"value": "2024-03-14", "rule": "date"},
        "price": {"value": 49.9, "rule": "number", "tolerance": 0.01},
    },
    "required": ["sku", "released", "price"],
}


def run(
    response: str, reference: object = REFERENCE, claims: object = None, **options: bool
) -> dict:
    row: dict = {"id": "a", "response": response, "reference": reference}
    if claims is not None:
        row["claims"] = claims
    report = score_structured([row], CONTRACT, **options).to_dict()
    return report["items"][0]


def test_clean_answer_passes_both_axes() -> None:
    item = run(json.dumps(GOOD))
    assert item["bucket"] == "format_pass" and item["fact"]["all_supported"]
    assert item["end_to_end_pass"] and item["fact"]["counts"]["supported"] == 3


def test_date_valid_in_pattern_but_wrong_in_fact() -> None:
    item = run(json.dumps({**GOOD, "released": "2024-03-15"}))
    assert item["format"]["verdict"] == "pass" and item["bucket"] == "format_pass"
    released = next(c for c in item["fact"]["claims"] if c["field"] == "released")
    assert released["verdict"] == "contradicted" and released["rule"] == "date"
    assert not item["end_to_end_pass"]


def test_impossible_date_fails_format() -> None:
    item = run(json.dumps({**GOOD, "released": "2024-02-30"}))
    assert item["format"]["reasons"] == ["schema.format"]
    assert item["format"]["field_errors"][0]["pointer"] == "/released"


def test_fenced_json_would_pass_if_unwrapped_but_is_never_a_pass() -> None:
    report = score_structured(
        [{"id": "a", "response": f"```json\n{json.dumps(GOOD)}\n```", "reference": REFERENCE}],
        CONTRACT,
    ).to_dict()
    item = report["items"][0]
    assert item["format"]["verdict"] == "fail" and item["bucket"] == "format_fail"
    assert item["format"]["reasons"] == ["fenced_json"]
    assert item["format"]["would_pass_if_unwrapped"] is True
    assert report["format"]["would_pass_if_unwrapped"] == 1
    compliance = report["headlines"][0]
    assert (compliance["key"], compliance["k"], compliance["n"]) == ("format_compliance", 0, 1)


def test_wrapped_json_that_breaks_the_contract_would_not_pass() -> None:
    item = run("Sure: " + json.dumps({"sku": "bad"}))
    assert item["format"]["would_pass_if_unwrapped"] is False
    assert {e["keyword"] for e in item["format"]["unwrapped_field_errors"]} == {
        "schema.pattern",
        "schema.required",
    }


@pytest.mark.parametrize("response", ["", "  \n"])
def test_empty_responses_have_their_own_bucket(response: str) -> None:
    item = run(response)
    assert item["bucket"] == "empty" and item["format"]["reasons"] == ["empty"]
    assert item["response"] == response
    assert (item["fact"]["status"], item["fact"]["reason"]) == ("unscorable", "format_unparseable")


def test_null_response_is_empty() -> None:
    # A model that delivered nothing (JSON null) lands in the empty bucket, read as "".
    report = score_structured([{"id": "a", "response": None, "reference": REFERENCE}], CONTRACT)
    item = report.to_dict()["items"][0]
    assert item["bucket"] == "empty" and item["format"]["reasons"] == ["empty"]
    assert item["response"] == ""


def test_no_claim_answer_is_never_a_perfect_fact_score() -> None:
    schema = {"type": "object"}
    report = score_structured([{"id": "a", "response": "{}", "reference": REFERENCE}], schema)
    data = report.to_dict()
    item = data["items"][0]
    assert item["bucket"] == "format_pass"
    assert (item["fact"]["status"], item["fact"]["reason"]) == ("unscorable", "no_claims")
    assert item["fact"]["all_supported"] is False and item["end_to_end_pass"] is False
    subset = next(
        h for h in data["headlines"] if h["name"] == "fact score on the format-pass subset"
    )
    assert (subset["k"], subset["n"], subset["extra"]["subset_size"]) == (0, 1, 1)


def test_no_reference() -> None:
    item = run(json.dumps(GOOD), reference=None)
    assert (item["fact"]["status"], item["fact"]["reason"]) == ("unscorable", "no_reference")


def test_missing_required_item_blocks_fact_pass() -> None:
    item = run(json.dumps({"sku": "LO-1001", "released": "2024-03-14"}))
    assert item["bucket"] == "format_pass" and item["fact"]["status"] == "scorable"
    assert item["fact"]["missing_required"] == ["price"]
    assert not item["fact"]["all_supported"]


@pytest.mark.parametrize(
    "response",
    [f"```json\n{json.dumps(GOOD)}\n```", f"Here you go: {json.dumps(GOOD)} Enjoy."],
)
def test_fallback_off_and_on(response: str) -> None:
    off = run(response)
    assert off["format"]["verdict"] == "fail"
    assert (off["fact"]["status"], off["fact"]["reason"]) == ("unscorable", "format_unparseable")
    on = run(response, read_facts_from_wrapped=True)
    assert on["format"] == off["format"]  # the format failure is kept either way
    assert on["bucket"] == "format_fail" and on["fact"]["source"] == "unwrapped"
    assert on["fact"]["status"] == "scorable" and on["fact"]["all_supported"]
    assert on["end_to_end_pass"] is False


def test_fallback_is_declared_in_the_report() -> None:
    rows = [{"id": "a", "response": "x"}]
    assert score_structured(rows, CONTRACT).to_dict()["options"]["read_facts_from_wrapped"] is False
    on = score_structured(rows, CONTRACT, read_facts_from_wrapped=True).to_dict()
    assert on["options"]["read_facts_from_wrapped"] is True and "fallback:yes" in on["signature"]


def test_free_text_claims_are_judged() -> None:
    reference = {"statements": ["It ships with a bulb."], "contradictions": ["It is cordless."]}
    item = run(
        "It ships with a bulb and is cordless.",
        reference,
        ["it ships with a bulb", "It is cordless"],
    )
    assert item["format"]["reasons"] == ["not_json"]
    assert item["fact"]["source"] == "claims"
    assert [c["verdict"] for c in item["fact"]["claims"]] == ["supported", "contradicted"]


HAND_ROWS = [
    # id, response, expectation in words
    ("p1", json.dumps(GOOD)),  # format pass, all supported
    ("p2", json.dumps({**GOOD, "price": 59.9})),  # format pass, one contradicted
    ("p3", f"```json\n{json.dumps(GOOD)}\n```"),  # format fail, unscorable (no fallback)
    ("p4", json.dumps({**GOOD, "sku": "x"})),  # format fail (pattern), facts read: sku contradicted
    ("p5", ""),  # empty
    ("p6", json.dumps({"sku": "LO-1001", "released": "2024-03-14"})),  # pass, coverage 2/3
]


def hand_report() -> dict:
    rows = [{"id": i, "response": r, "reference": REFERENCE} for i, r in HAND_ROWS]
    return score_structured(rows, CONTRACT).to_dict()


def test_hand_counted_identity_headlines_and_cross_tab() -> None:
    data = hand_report()
    ident = data["identity"]
    assert (ident["total"], ident["empty"], ident["format_fail"], ident["format_pass"]) == (
        6,
        1,
        2,
        3,
    )
    assert (ident["format_pass_scorable"], ident["format_pass_unscorable"]) == (3, 0)
    assert ident["equations"][0] == "total = empty + format_fail + format_pass: 6 = 1 + 2 + 3"
    heads = {h["key"]: h for h in data["headlines"]}
    # format pass: p1 p2 p6 -> 3/6
    assert (heads["format_compliance"]["k"], heads["format_compliance"]["n"]) == (3, 6)
    # scorable: p1 p2 p4 p6 -> 4/6
    assert (heads["scorable_coverage"]["k"], heads["scorable_coverage"]["n"]) == (4, 6)
    # claims read: p1 3 + p2 3 + p4 3 + p6 2 = 11; contradicted: p2 price, p4 sku -> supported 9
    claim = heads["claim_support"]
    assert (claim["k"], claim["n"], claim["extra"]["contradicted"]) == (9, 11, 2)
    # required: 3 per item x 6 = 18; stated: p1 3, p2 3, p4 3, p6 2 = 11
    assert (heads["required_coverage"]["k"], heads["required_coverage"]["n"]) == (11, 18)
    # end to end: p1 only
    assert (heads["end_to_end_pass"]["k"], heads["end_to_end_pass"]["n"]) == (1, 6)
    subset = heads["fact_score_format_pass_subset"]
    assert (subset["name"], subset["k"], subset["n"]) == (
        "fact score on the format-pass subset",
        1,
        3,
    )
    rows = data["cross_tab"]["rows"]
    assert rows["format_pass"] == {"all_supported": 1, "not_all_supported": 2, "total": 3}
    assert rows["format_fail"] == {"all_supported": 0, "not_all_supported": 1, "total": 1}
    assert rows["unscorable"] == {"format_pass": 0, "format_fail": 1, "total": 1}
    assert rows["empty"] == {"total": 1}
    for h in data["headlines"]:
        interval = wilson_interval(h["k"], h["n"])
        assert h["definition"] and h["ci95"] == [interval.lower, interval.upper]


def test_report_is_byte_identical_for_identical_inputs() -> None:
    first = render_structured_json(score_bundled_example().to_dict())
    second = render_structured_json(score_bundled_example().to_dict())
    assert first == second
    assert render_structured_json(hand_report()) == render_structured_json(hand_report())


def test_bundled_example_shows_every_reason_code_and_verdict() -> None:
    data = score_bundled_example().to_dict()
    reasons = data["format"]["reason_counts"]
    for code in (
        "empty",
        "not_json",
        "fenced_json",
        "json_with_prose",
        "multiple_json_values",
        "truncated_json",
        "schema.required",
        "schema.additionalProperties",
        "schema.type",
        "schema.format",
        "schema.pattern",
        "schema.enum",
    ):
        assert reasons.get(code, 0) >= 1, code
    assert all(n >= 1 for n in data["fact"]["claim_verdicts"].values())
    unscorable = data["fact"]["unscorable_reasons"]
    assert all(unscorable[r] >= 1 for r in ("format_unparseable", "no_claims", "no_reference"))
    assert data["format"]["would_pass_if_unwrapped"] >= 1
    assert 25 <= data["identity"]["total"] <= 40


def test_duplicate_ids_in_rows_are_an_error() -> None:
    with pytest.raises(InputFileError, match="duplicate id"):
        score_structured([{"id": "a", "response": ""}, {"id": "a", "response": ""}], CONTRACT)


# --- property test: the identity holds for any mix of responses --------------------------

_json_obj = st.fixed_dictionaries(
    {},
    optional={
        "sku": st.sampled_from(["LO-1001", "LO-1002", "bad", 7]),
        "released": st.sampled_from(["2024-03-14", "2024-02-30", "2024-03-15"]),
        "price": st.one_of(
            st.floats(allow_nan=False, allow_infinity=False, width=32), st.text(max_size=3)
        ),
        "extra": st.integers(),
    },
)


@st.composite
def responses(draw: st.DrawFn) -> str:
    body = json.dumps(draw(_json_obj))
    shape = draw(
        st.sampled_from(["clean", "fence", "prose", "two", "cut", "empty", "text", "array"])
    )
    return {
        "clean": body,
        "fence": f"```json\n{body}\n```",
        "prose": f"Answer: {body} ok",
        "two": f"{body}\n{body}",
        "cut": body[: max(1, len(body) // 2)],
        "empty": draw(st.sampled_from(["", " ", "\n"])),
        "text": draw(st.text(max_size=20)),
        "array": f"[{body}]",
    }[shape]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(responses(), st.booleans(), st.lists(st.text(max_size=8), max_size=2)),
        max_size=12,
    ),
    st.booleans(),
)
def test_identity_holds_on_random_inputs(rows: list, fallback: bool) -> None:
    items = [
        {"id": str(i), "response": r, "reference": REFERENCE if has_ref else None, "claims": claims}
        for i, (r, has_ref, claims) in enumerate(rows)
    ]
    data = score_structured(items, CONTRACT, read_facts_from_wrapped=fallback).to_dict()
    ident = data["identity"]
    assert ident["holds"] and ident["total"] == len(items)
    assert ident["total"] == ident["empty"] + ident["format_fail"] + ident["format_pass"]
    assert ident["format_pass"] == ident["format_pass_scorable"] + ident["format_pass_unscorable"]
    assert sum(row["total"] for row in data["cross_tab"]["rows"].values()) == len(items)
    heads = {h["key"]: h for h in data["headlines"]}
    assert (
        heads["end_to_end_pass"]["k"] == data["cross_tab"]["rows"]["format_pass"]["all_supported"]
    )
    assert heads["end_to_end_pass"]["k"] <= heads["format_compliance"]["k"]
    for h in data["headlines"]:
        assert 0 <= h["k"] <= h["n"]
    for item in data["items"]:
        wrapped = item["format"]["would_pass_if_unwrapped"]
        assert not (wrapped and item["bucket"] == "format_pass")
        assert item["response"] == items[int(item["id"])]["response"]


def test_items_file_errors_name_file_line_field(tmp_path: Path) -> None:
    path = tmp_path / "items.jsonl"
    path.write_text('{"id": "a", "response": "{}"}\n{"id": "b", "response": 5}\n')
    with pytest.raises(InputFileError) as info:
        score_structured(path, CONTRACT)
    assert (info.value.line, info.value.field) == (2, "response")


def test_references_from_a_mapping_and_from_bare_rows(tmp_path: Path) -> None:
    rows = [{"id": "a", "response": json.dumps(GOOD)}]
    from_mapping = score_structured(rows, CONTRACT, references={"a": REFERENCE}).to_dict()
    path = tmp_path / "refs.jsonl"
    path.write_text(json.dumps({"id": "a", **REFERENCE}) + "\n")
    from_file = score_structured(rows, CONTRACT, references=path).to_dict()
    assert from_mapping["items"] == from_file["items"]
    assert from_file["items"][0]["end_to_end_pass"] is True
    assert from_file["inputs"]["references"]["name"] == "refs.jsonl"


def test_bare_reference_row_errors_name_the_field(tmp_path: Path) -> None:
    path = tmp_path / "refs.jsonl"
    path.write_text(
        json.dumps({"id": "a", "fields": {"price": {"value": 1, "rule": "near"}}}) + "\n"
    )
    with pytest.raises(InputFileError) as info:
        score_structured([{"id": "a", "response": "{}"}], CONTRACT, references=path)
    assert (info.value.line, info.value.field) == (1, "fields.price.rule")


def test_reference_given_twice_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "refs.jsonl"
    path.write_text(json.dumps({"id": "a", "reference": {"sku": "x"}}) + "\n")
    rows = [{"id": "a", "response": "{}", "reference": {"sku": "x"}}]
    with pytest.raises(InputFileError, match="one place only"):
        score_structured(rows, CONTRACT, references=path)


def test_bundled_example_counts_match_its_design() -> None:
    # Counted by hand from the "note" of each row in data/structured/responses.jsonl:
    # p01-p11 are clean JSON (format pass), p19-p20 empty, the other 17 fail format.
    # p10 has no reference (the only unscorable format pass). End-to-end passes:
    # p01-p05 (p06 date, p07 price, p08 stock+colours wrong; p09 misses colours;
    # p11 has an unreferenced field). Fenced/prose that would pass: p12, p13, p14.
    data = score_bundled_example().to_dict()
    ident = data["identity"]
    assert (ident["total"], ident["empty"], ident["format_fail"], ident["format_pass"]) == (
        30,
        2,
        17,
        11,
    )
    assert (ident["format_pass_scorable"], ident["format_pass_unscorable"]) == (10, 1)
    passed = [i["id"] for i in data["items"] if i["end_to_end_pass"]]
    assert passed == ["p01", "p02", "p03", "p04", "p05"]
    wrapped = [i["id"] for i in data["items"] if i["format"]["would_pass_if_unwrapped"]]
    assert wrapped == ["p12", "p13", "p14"]
    p06 = next(i for i in data["items"] if i["id"] == "p06")
    assert p06["format"]["verdict"] == "pass"
    assert [c["field"] for c in p06["fact"]["claims"] if c["verdict"] == "contradicted"] == [
        "release_date"
    ]


def test_identity_names_the_format_pass_split_plainly() -> None:
    identity = score_bundled_example().to_dict()["identity"]
    # Bundled example, from its notes: 11 format passes, of which p10 has no
    # reference (no_reference) -> 10 scorable + 1 unscorable.
    assert (identity["format_pass"], identity["scorable"], identity["unscorable"]) == (11, 10, 1)
    assert (
        identity["total"] == identity["empty"] + identity["format_fail"] + identity["format_pass"]
    )


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["supported", "contradicted", "insufficient", "judge_failed"])),
    st.sampled_from(["scorable", "unscorable"]),
    st.lists(st.sampled_from(["sku", "name"]), max_size=2),
    st.sampled_from(["format_pass", "format_fail", "empty"]),
)
def test_record_counts_and_passes_match_their_definitions(
    verdicts: list[str], status: str, missing: list[str], bucket: str
) -> None:
    """The record's counts are a plain tally; all_supported and end_to_end_pass as defined."""
    from assay.structured.claims import Claim
    from assay.structured.items import StructuredItem
    from assay.structured.scoring import FactResult, FormatResult, ItemResult
    from assay.structured.verdicts import VERDICTS, ClaimVerdict

    claims = tuple(ClaimVerdict(Claim(f"f{n}", n, f"/f{n}"), v) for n, v in enumerate(verdicts))
    fact = FactResult(status, None, "response", claims, ("sku", "name"), tuple(missing))
    record = fact.to_dict()
    assert record["counts"] == {v: verdicts.count(v) for v in VERDICTS}
    assert list(record["counts"]) == list(VERDICTS)  # the order the report always had
    expected = status == "scorable" and set(verdicts) <= {"supported"} and not missing
    assert record["all_supported"] is expected is fact.all_supported
    item = StructuredItem("x", "{}", line=1)
    result = ItemResult(item, bucket, FormatResult("pass", (), ()), fact)
    assert result.to_dict()["end_to_end_pass"] is (bucket == "format_pass" and expected)
    assert result.to_dict()["end_to_end_pass"] is result.end_to_end_pass

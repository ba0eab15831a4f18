"""Issue 15, structured side: hostile contracts and responses give a verdict or one error line.

Each class has its own test: strict schema decoding, boolean schemas, user patterns
(ECMA-262 dialect, time limit, ``schema.pattern_timeout``), the ``$ref`` policy (a real
HTTP server on 127.0.0.1 is never contacted), deep nesting and ``$ref`` cycles, huge
numbers under the ``number`` rule, and the ``email``/``uuid`` formats.
"""

from __future__ import annotations

import http.server
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from assay.cli.main import main
from assay.errors import InputFileError
from assay.structured import score_structured
from assay.structured.claims import Claim, FieldReference
from assay.structured.contract import contract_from_schema, load_contract
from assay.structured.scoring import check_format
from assay.structured.verdicts import CONTRADICTED, JUDGE_FAILED, SUPPORTED, judge_field

# ---------------------------------------------------------------- helpers


def write_items(folder: Path, responses: list[str], references: list[object] | None = None) -> Path:
    path = folder / "items.jsonl"
    rows = []
    for index, response in enumerate(responses):
        row: dict[str, object] = {"id": f"q{index}", "response": response}
        if references is not None:
            row["reference"] = references[index]
        rows.append(json.dumps(row))
    path.write_text("\n".join(rows) + "\n")
    return path


def write_schema(folder: Path, text: str) -> Path:
    path = folder / "schema.json"
    path.write_text(text)
    return path


def one_error_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code not in (0, None)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: "), err
    assert "Traceback" not in err
    return err


def structured_argv(items: Path, schema: Path, *extra: str) -> list[str]:
    output = [] if "--output" in extra else ["--output", str(items.parent / "r.json")]
    return ["structured", "--items", str(items), "--schema", str(schema), *output, *extra]


# ---------------------------------------------------------------- 1. strict schema decoder


def test_schema_file_duplicate_key_is_refused_with_file_line_field(tmp_path: Path) -> None:
    schema = write_schema(
        tmp_path,
        '{\n  "type": "object",\n  "properties": {"a": {"type": "string"}},\n'
        '  "type": "array"\n}\n',
    )
    with pytest.raises(InputFileError) as info:
        load_contract(schema)
    error = info.value
    assert Path(error.path) == schema and error.line == 4 and error.field == "type"
    assert "appears twice" in str(error)


def test_schema_file_nan_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    schema = write_schema(tmp_path, '{"type": "number", "maximum": NaN}')
    items = write_items(tmp_path, ["1"])
    err = one_error_line(structured_argv(items, schema), capsys)
    assert "schema.json" in err and "NaN" in err


# ---------------------------------------------------------------- 2. boolean schemas


def test_boolean_schemas_at_the_top_level(tmp_path: Path) -> None:
    items = write_items(tmp_path, ['{"a": 1}', "[1, 2]", "not json"])
    for text, passes in (("true", 2), ("false", 0)):
        report = score_structured(items, write_schema(tmp_path, text)).to_dict()
        passed = [i["format"]["verdict"] == "pass" for i in report["items"]]
        assert sum(passed) == passes, (text, report["format"])
    assert check_format("1", contract_from_schema(False))[0].reasons == ("schema.false",)


def test_boolean_schemas_inside(tmp_path: Path) -> None:
    contract = contract_from_schema(
        {"type": "object", "properties": {"free": True, "banned": False}}
    )
    assert contract.check({"free": [1, {"x": None}]}) == ()
    errors = contract.check({"banned": 0})
    assert [(e.pointer, e.keyword) for e in errors] == [("/banned", "schema.false")]


# ---------------------------------------------------------------- 3. user patterns


def test_catastrophic_pattern_does_not_hang(tmp_path: Path) -> None:
    # Python's re needs minutes for this; the regex package decides it at once
    schema = write_schema(tmp_path, '{"type": "string", "pattern": "^(a+)+$"}')
    items = write_items(tmp_path, [json.dumps("a" * 40 + "!"), json.dumps("a" * 40)])
    started = time.monotonic()
    report = score_structured(items, schema).to_dict()
    assert time.monotonic() - started < 60
    verdicts = [item["format"]["verdict"] for item in report["items"]]
    assert verdicts == ["fail", "pass"]
    assert report["items"][0]["format"]["reasons"] == ["schema.pattern"]


def test_pattern_timeout_is_a_counted_format_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # (a|aa)+ backtracks exponentially in the regex package too: it must hit the time limit
    schema = write_schema(
        tmp_path, '{"type": "object", "properties": {"s": {"pattern": "^(a|aa)+$"}}}'
    )
    slow = json.dumps({"s": "a" * 40 + "!"})
    items = write_items(tmp_path, [slow, '{"s": "aa"}', '{"s": "b"}'])
    out = tmp_path / "r.json"
    started = time.monotonic()
    assert main(structured_argv(items, schema, "--output", str(out))) in (0, None)
    assert time.monotonic() - started < 120
    printed = capsys.readouterr().out
    assert "schema.pattern_timeout" in printed  # the terminal view counts it
    report = json.loads(out.read_text())
    assert report["format"]["reason_counts"]["schema.pattern_timeout"] == 1
    first = report["items"][0]["format"]
    assert first["verdict"] == "fail" and first["reasons"] == ["schema.pattern_timeout"]
    assert first["field_errors"][0]["pointer"] == "/s"
    assert [i["format"]["verdict"] for i in report["items"][1:]] == ["pass", "fail"]
    assert report["contract"]["pattern_timeout_seconds"] == 0.5


def test_pattern_timeout_inside_not_still_fails() -> None:
    # `not` swallows the inner error; the timeout must not turn into a pass
    contract = contract_from_schema({"not": {"pattern": "^(a|aa)+$"}}, pattern_timeout=0.05)
    errors = contract.check("a" * 40 + "!")
    assert [e.keyword for e in errors] == ["schema.pattern_timeout"]


def test_unicode_property_patterns_in_the_ecma_dialect() -> None:
    contract = contract_from_schema(
        {
            "type": "object",
            "properties": {"name": {"pattern": "^\\p{Letter}+$"}, "n": {"pattern": "^\\d+$"}},
            "patternProperties": {"^\\p{Lu}": {"type": "integer"}},
        }
    )
    assert contract.check({"name": "Zoë", "n": "42", "Élan": 1}) == ()
    errors = contract.check({"name": "Zoë2", "n": "٤٢", "Élan": "x"})  # Arabic-Indic digits
    assert {(e.pointer, e.keyword) for e in errors} == {
        ("/name", "schema.pattern"),
        ("/n", "schema.pattern"),  # ECMA \d is ASCII only
        ("/Élan", "schema.type"),
    }
    assert contract.check({"name": "abc\n"}) != ()  # ECMA $ does not match before a final \n


def test_python_only_pattern_syntax_is_refused_naming_the_field(tmp_path: Path) -> None:
    schema = write_schema(tmp_path, '{\n  "type": "string",\n  "pattern": "(?P<x>a)"\n}\n')
    with pytest.raises(InputFileError) as info:
        load_contract(schema)
    assert info.value.field == "/pattern" and info.value.line == 3


def test_contract_pickles_with_its_pattern_limit() -> None:
    # Dask ships the contract to workers: the rebuilt one must judge the same way
    import pickle

    contract = contract_from_schema(
        {"not": {"pattern": "^(a|aa)+$"}}, "c.json", pattern_timeout=0.05
    )
    again = pickle.loads(pickle.dumps(contract))
    assert again.pattern_timeout == 0.05 and again.sha256 == contract.sha256
    assert [e.keyword for e in again.check("a" * 40 + "!")] == ["schema.pattern_timeout"]


# ---------------------------------------------------------------- 4. no network


class _Recorder(http.server.BaseHTTPRequestHandler):
    seen: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 - http.server's spelling
        type(self).seen.append(self.path)
        body = b'{"type": "integer"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture()
def local_server() -> Iterator[tuple[http.server.HTTPServer, list[str]]]:
    _Recorder.seen = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server, _Recorder.seen
    finally:
        server.shutdown()
        server.server_close()


def _never_contacted(server: http.server.HTTPServer, seen: list[str]) -> None:
    assert seen == []
    server.socket.setblocking(False)
    with pytest.raises(BlockingIOError):  # no connection waiting in the backlog either
        server.socket.accept()


@pytest.mark.parametrize("scheme", ["http", "https"])
def test_remote_ref_is_never_fetched(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    local_server: tuple[http.server.HTTPServer, list[str]],
    scheme: str,
) -> None:
    server, seen = local_server
    port = server.server_address[1]
    # the server is real and answers: a plain GET gets the schema
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/probe.json", timeout=10) as answer:
        assert json.loads(answer.read()) == {"type": "integer"}
    assert seen == ["/probe.json"]
    seen.clear()
    ref = f"{scheme}://127.0.0.1:{port}/item.json"
    schema = write_schema(
        tmp_path, json.dumps({"type": "object", "properties": {"n": {"$ref": ref}}}, indent=1)
    )
    items = write_items(tmp_path, ['{"n": 1}'])
    err = one_error_line(structured_argv(items, schema), capsys)
    assert ref in err and "schema.json" in err and "/properties/n/$ref" in err
    assert not (tmp_path / "r.json").exists()
    _never_contacted(server, seen)


def test_ref_to_an_embedded_id_resolves_without_fetching(
    local_server: tuple[http.server.HTTPServer, list[str]],
) -> None:
    server, seen = local_server
    base = f"http://127.0.0.1:{server.server_address[1]}"
    contract = contract_from_schema(
        {
            "$id": f"{base}/root.json",
            "properties": {"n": {"$ref": f"{base}/int.json"}},
            "$defs": {"int": {"$id": f"{base}/int.json", "type": "integer"}},
        }
    )
    assert contract.check({"n": 1}) == ()
    assert [e.keyword for e in contract.check({"n": "x"})] == ["schema.type"]
    _never_contacted(server, seen)


# ---------------------------------------------------------------- 5. recursion


def test_schema_nested_over_1000_levels_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    depth = 1500
    schema = write_schema(tmp_path, '{"not": ' * depth + "{}" + "}" * depth)
    err = one_error_line(structured_argv(write_items(tmp_path, ["1"]), schema), capsys)
    assert "schema.json" in err and "nested too deeply" in err


def test_schema_nested_deep_enough_to_break_the_checker_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # parses (under the JSON reader's limit) but is too deep for the schema checker
    depth = 400
    schema = write_schema(tmp_path, '{"items": ' * depth + "{}" + "}" * depth)
    err = one_error_line(structured_argv(write_items(tmp_path, ["1"]), schema), capsys)
    assert "schema.json" in err and "nested too deeply" in err


@pytest.mark.parametrize(
    "schema",
    [
        {"$ref": "#"},
        {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"},
        {"$defs": {"a": {"anyOf": [{"$ref": "#/$defs/a"}]}}, "items": {"$ref": "#/$defs/a"}},
    ],
    ids=["self", "two-step", "through-anyOf"],
)
def test_ref_cycle_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], schema: dict[str, object]
) -> None:
    path = write_schema(tmp_path, json.dumps(schema))
    err = one_error_line(structured_argv(write_items(tmp_path, ['{"x": 1}']), path), capsys)
    assert "$ref cycle" in err and "schema.json" in err


def test_recursive_schema_that_consumes_the_instance_is_fine() -> None:
    tree = {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#"}}}}
    contract = contract_from_schema(tree)
    assert contract.check({"kids": [{"kids": []}, {"kids": [{}]}]}) == ()
    assert contract.check({"kids": [{"kids": 3}]})[0].pointer == "/kids/0/kids"


@pytest.mark.parametrize("depth", [300, 5000])
def test_deeply_nested_response_is_a_counted_format_reason(tmp_path: Path, depth: int) -> None:
    schema = write_schema(tmp_path, '{"type": "array", "items": {"$ref": "#"}}')
    deep = "[" * depth + "]" * depth
    items = write_items(tmp_path, [deep, "[[]]"], [{"x": 1}, {"x": 1}])
    report = score_structured(items, schema).to_dict()
    first, second = report["items"]
    assert first["format"]["verdict"] == "fail"
    assert first["format"]["reasons"] == ["nested_too_deep"]
    assert second["format"]["verdict"] == "pass"
    assert report["format"]["reason_counts"] == {"nested_too_deep": 1}
    assert report["identity"]["total"] == 2  # nothing lost
    json.dumps(report)  # the report itself can be written


# ---------------------------------------------------------------- 6. huge numbers


def _number(claim: object, expected: object, tolerance: float = 0) -> str:
    reference = FieldReference("n", expected, "number", (), tolerance)
    return judge_field(Claim("n", claim), reference).verdict


def test_huge_numbers_under_the_number_rule_are_compared_exactly() -> None:
    big = 10**400  # float(big) raises OverflowError
    assert _number(big, big) == SUPPORTED
    assert _number(big + 1, big) == CONTRADICTED  # a float comparison would call these equal
    assert _number(big + 1, big, tolerance=1) == SUPPORTED
    assert _number(str(big), big) == SUPPORTED
    assert _number("1e400", big) == SUPPORTED
    assert _number(2**64 + 1, 2**64) == CONTRADICTED  # equal as doubles, not as numbers
    assert _number("0.1", 0.1) == SUPPORTED  # the decimal it is written as
    assert _number(0.1 + 0.2, 0.3) == CONTRADICTED  # 0.30000000000000004 is not 0.3
    assert _number(12.51, 12.5, tolerance=0.01) == SUPPORTED  # |0.01| <= 0.01 exactly


def test_unrepresentable_numbers_get_a_clear_verdict() -> None:
    assert _number(float("inf"), 1) == JUDGE_FAILED  # 1e400 parses as inf
    assert _number("1e99999999", 1) == JUDGE_FAILED  # refused before building 10**99999999


def test_huge_numbers_end_to_end(tmp_path: Path) -> None:
    big = "9" * 1000
    schema = write_schema(tmp_path, '{"type": "object"}')
    responses = [f'{{"n": {big}}}', f'{{"n": {big}1}}', '{"n": 1e400}', '{"n": ' + "7" * 5000 + "}"]
    items = tmp_path / "items.jsonl"
    items.write_text(
        "".join(json.dumps({"id": f"q{i}", "response": r}) + "\n" for i, r in enumerate(responses))
    )
    references = tmp_path / "refs.jsonl"
    references.write_text(
        "".join(f'{{"id": "q{i}", "reference": {{"n": {big}}}}}\n' for i in range(4))
    )
    report = score_structured(items, schema, references=references).to_dict()
    verdicts = [[c["verdict"] for c in item["fact"]["claims"]] for item in report["items"]]
    assert verdicts == [[SUPPORTED], [CONTRADICTED], [JUDGE_FAILED], []]
    assert report["items"][3]["format"]["reasons"] == ["number_too_long"]
    json.dumps(report)


# ---------------------------------------------------------------- 7. formats


@pytest.mark.parametrize(
    "value",
    [
        "@example.com",
        "te..st@example.com",
        "joe bloggs@example.com",
        ".test@example.com",
        "joe.bloggs@",
        "joe.bloggs@[127.0.0.300]",
    ],
)
def test_email_format_rejects_what_rfc_5321_rejects(value: str) -> None:
    contract = contract_from_schema({"format": "email"})
    assert "email" in contract.formats_asserted
    assert [e.keyword for e in contract.check(value)] == ["schema.format"]


@pytest.mark.parametrize(
    "value",
    ["joe.bloggs@example.com", '"joe bloggs"@example.com', "te~st@example.com", "a@[IPv6:::1]"],
)
def test_email_format_accepts_valid_mailboxes(value: str) -> None:
    assert contract_from_schema({"format": "email"}).check(value) == ()


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        ("2eb8aa08-aa98-11ea-b4aa-73b441d16380", True),
        ("2EB8AA08-AA98-11EA-B4AA-73B441D16380", True),
        ("2eb8aa08-aa98-11ea-b4aa-73b441d1_380", False),
        ("2eb8aa08-aa98-11ea-b4aa-73b441d16380-", False),
        ("2eb8aa08aa9811eab4aa73b441d16380", False),
        ("urn:uuid:2eb8aa08-aa98-11ea-b4aa-73b441d16380", False),
    ],
)
def test_uuid_format_is_asserted_properly(value: str, valid: bool) -> None:
    contract = contract_from_schema({"format": "uuid"})
    assert "uuid" in contract.formats_asserted
    assert (contract.check(value) == ()) is valid


def test_formats_without_a_sound_checker_are_reported_not_asserted() -> None:
    contract = contract_from_schema({"properties": {"h": {"format": "idn-hostname"}}})
    assert contract.formats_asserted == () and contract.formats_not_asserted == ("idn-hostname",)
    assert contract.check({"h": "example.com."}) == ()  # annotation only, as reported

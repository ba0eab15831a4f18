"""The official JSON-Schema-Test-Suite (Draft 2020-12) agrees with assay's FORMAT verdicts.

The suite's JSON data files are vendored under ``tests/data/json_schema_test_suite/``
with their licence (see the README there for the upstream commit). Every case is run
the way assay scores a response: the case's data is written as JSON text, parsed by
:func:`assay.structured.parse.parse_response` and checked against the contract built
from the case's schema; the FORMAT verdict ``pass`` must equal the case's ``valid``.

Set aside, each for a stated reason:

* remote-reference cases: groups whose schema names the suite's remote server
  (``http://localhost:1234``, per the suite's README). assay never fetches; these
  must each load and agree, or be refused at load with one clean error naming the
  reference (checked in :func:`test_remote_reference_groups_are_refused_cleanly`);
* ``format.json`` cases "... is only an annotation by default" for formats assay
  asserts: assay asserts formats on purpose (the contract says which), so those are
  checked instead by the suite's own format-assertion files under ``optional/format``;
* ``optional/dependencies-compatibility.json``: the pre-2019 ``dependencies`` keyword,
  which Draft 2020-12 dropped.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from assay.errors import InputFileError
from assay.structured.contract import Contract, contract_from_schema
from assay.structured.scoring import check_format

SUITE = Path(__file__).parent / "data" / "json_schema_test_suite" / "draft2020-12"
REMOTE = "localhost:1234"


def groups(folder: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    for path in sorted(folder.glob("*.json")):
        for group in json.loads(path.read_text("utf-8")):
            yield path.relative_to(SUITE).as_posix(), group


def is_remote(group: dict[str, Any]) -> bool:
    return REMOTE in json.dumps(group["schema"])


def verdict(contract: Contract, data: Any) -> bool:
    result, _ = check_format(json.dumps(data), contract)
    return result.verdict == "pass"


def run(cases: list[tuple[str, dict[str, Any]]], skip: Any = None) -> tuple[int, list[str]]:
    """(cases run, disagreements as readable lines)."""
    ran, wrong = 0, []
    for name, group in cases:
        contract = contract_from_schema(group["schema"], name)
        for case in group["tests"]:
            if skip is not None and skip(name, contract, case):
                continue
            ran += 1
            if verdict(contract, case["data"]) is not case["valid"]:
                wrong.append(f"{name}: {group['description']} / {case['description']}")
    return ran, wrong


def annotation_only_case(name: str, contract: Contract, case: dict[str, Any]) -> bool:
    return (
        name == "format.json"
        and "only an annotation by default" in case["description"]
        and bool(contract.formats_asserted)
    )


def test_vendored_suite_is_complete() -> None:
    assert (SUITE.parent / "LICENSE").is_file()
    main = list(groups(SUITE))
    total = sum(len(g["tests"]) for _, g in main)
    assert total == 1299 and len({n for n, _ in main}) == 46  # upstream 44401e0, main folder


def test_main_suite_agrees_with_format_verdicts(capsys: pytest.CaptureFixture[str]) -> None:
    cases = [(n, g) for n, g in groups(SUITE) if not is_remote(g)]
    ran, wrong = run(cases, skip=annotation_only_case)
    assert wrong == []
    # 1,242 local cases less one "annotation by default" case for each of the 9 asserted formats
    assert ran == 1242 - 9
    with capsys.disabled():
        print(f"\nJSON-Schema-Test-Suite 2020-12 main: {ran - len(wrong)} of {ran} agree")


def test_optional_regex_and_number_cases_agree() -> None:
    names = ("ecmascript-regex.json", "non-bmp-regex.json", "bignum.json", "float-overflow.json")
    optional = [(n, g) for n, g in groups(SUITE / "optional") if n.split("/")[-1] in names]
    optional += _file_groups(SUITE / "optional" / "format" / "ecmascript-regex.json")
    ran, wrong = run(optional)
    assert wrong == [] and ran == 74 + 12 + 12 + 9 + 1


def test_optional_other_local_cases_agree() -> None:
    done = {"ecmascript-regex.json", "non-bmp-regex.json", "bignum.json", "float-overflow.json"}
    skip = done | {"dependencies-compatibility.json"}
    optional = [
        (n, g)
        for n, g in groups(SUITE / "optional")
        if not is_remote(g) and n.split("/")[-1] not in skip
    ]
    ran, wrong = run(optional)
    assert wrong == [] and ran > 0


def test_every_asserted_format_agrees_with_the_format_suite() -> None:
    asserted, not_asserted = set(), set()
    for path in sorted((SUITE / "optional" / "format").glob("*.json")):
        name = path.stem
        if name in ("unknown", "ecmascript-regex"):
            continue
        contract = contract_from_schema({"format": name})
        if name in contract.formats_asserted:
            asserted.add(name)
            ran, wrong = run(_file_groups(path))
            assert wrong == [], wrong
        else:
            assert contract.formats_not_asserted == (name,)  # reported, never silently weak
            not_asserted.add(name)
    assert asserted == {
        "date",
        "date-time",
        "email",
        "idn-email",
        "ipv4",
        "ipv6",
        "regex",
        "time",
        "uuid",
    }
    assert "idn-hostname" in not_asserted


def _file_groups(path: Path) -> list[tuple[str, dict[str, Any]]]:
    name = path.relative_to(SUITE).as_posix()
    return [(name, g) for g in json.loads(path.read_text("utf-8"))]


def test_remote_reference_groups_are_refused_cleanly() -> None:
    refused = agreed = 0
    for folder in (SUITE, SUITE / "optional"):
        for name, group in groups(folder):
            if not is_remote(group):
                continue
            try:
                contract = contract_from_schema(group["schema"], name)
            except InputFileError as error:
                assert "$ref" in str(error) or "$dynamicRef" in str(error), str(error)
                assert "never fetches" in str(error)
                refused += 1
                continue
            agreed += sum(verdict(contract, c["data"]) is c["valid"] for c in group["tests"])
    assert refused > 0 and agreed > 0

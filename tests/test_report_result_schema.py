"""The compiled schema check agrees with jsonschema on every field the schemas name.

``check_saved_document`` trusts the compiled validator (fastjsonschema) when it
accepts a document, so it must never accept what jsonschema (the reference
implementation of the schema language) rejects. Each field the schemas list is
deleted or given a value of every JSON type in turn, in a small saved result and in
a saved structured report; both validators must reach the same verdict.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from assay.cli.main import main
from assay.errors import InputFileError
from assay.report.result.schema import SCHEMAS, check_saved_document, passes_compiled

VALUES: list[Any] = [None, True, -1, 0, 2, 1.5, "text", [], {}]


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("demo")
    try:
        main(["demo", "--out", str(out)])
    except SystemExit as done:
        assert not done.code
    document = json.loads((out / "assay-result.json").read_text("utf-8"))
    document["items"] = document["items"][:2]
    document["structured"]["items"] = document["structured"]["items"][:2]
    return dict(document)


def _paths(document: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Every key of the objects the schemas describe (top level, a system, an item...)."""
    structured = document["structured"]
    first = next(iter(document["items"][0]["results"]))
    roots: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
        ((), document),
        (("systems", 0), document["systems"][0]),
        (("items", 0), document["items"][0]),
        (("items", 0, "results", first), document["items"][0]["results"][first]),
        (("comparison",), document["comparison"]),
        (("statistics",), document["statistics"]),
        (("slices",), document["slices"]),
        (("structured",), structured),
        (("structured", "items", 0), structured["items"][0]),
    ]
    return [(*prefix, key) for prefix, node in roots for key in node]


def _mutations(
    document: dict[str, Any], paths: list[tuple[Any, ...]]
) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in paths:
        for value in [*VALUES, "<delete>"]:
            changed = copy.deepcopy(document)
            node = changed
            for step in path[:-1]:
                node = node[step]
            if value == "<delete>":
                del node[path[-1]]
            else:
                node[path[-1]] = value
            out.append((f"{path} = {value!r}", changed))
    return out


def _jsonschema_valid(document: dict[str, Any]) -> bool:
    schema = SCHEMAS[document["kind"]]
    return next(iter(Draft202012Validator(schema).iter_errors(document)), None) is None


def test_compiled_check_agrees_with_jsonschema_on_every_listed_field(
    saved: dict[str, Any],
) -> None:
    assert passes_compiled("assay.result", saved) and _jsonschema_valid(saved)
    report = saved["structured"]
    assert passes_compiled("assay.structured", report) and _jsonschema_valid(report)
    mutations = _mutations(saved, _paths(saved))
    alone = [(key,) for key in report] + [("items", 0, key) for key in report["items"][0]]
    mutations += _mutations(report, alone)
    rejected = 0
    for name, document in mutations:
        if not isinstance(document.get("kind"), str) or document["kind"] not in SCHEMAS:
            continue  # a changed kind is the caller's business
        expected = _jsonschema_valid(document)
        assert passes_compiled(document["kind"], document) == expected, name
        rejected += not expected
    assert rejected > 300  # the mutations do break the schema, often


def test_a_rejected_document_still_gets_jsonschemas_message(saved: dict[str, Any]) -> None:
    broken = copy.deepcopy(saved)
    first = next(iter(broken["items"][1]["results"]))
    broken["items"][1]["results"][first]["anls"] = "0.5"
    with pytest.raises(InputFileError) as raised:
        check_saved_document(broken, Path("r.json"))
    text = str(raised.value)
    assert f"items[1].results.{first}.anls" in text and "must be number, got string" in text
    del broken["comparison"]
    with pytest.raises(InputFileError, match="comparison"):
        check_saved_document(broken, Path("r.json"))

"""References read before the fork and parsed by each part: the in-line records and errors.

The oracle is the in-line loading (``prepare_structured`` without ``defer_references``,
which is ``score_structured``'s): the same per-item records when the file is good, and
the same first error (type and message) for files with bad lines, bad ids, repeated
or unknown ids, items with an inline reference and bad references, in any mix and order,
whichever part meets its error first.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assay.errors import InputFileError
from assay.io.bundled import data_path
from assay.structured.api import PreparedRun, prepare_structured
from assay.structured.deferred_references import read_deferred
from assay.structured.items import read_items

SCHEMA = data_path("structured") / "product.schema.json"
N_ITEMS = 8
GOOD = {"fields": {"sku": "LO-1001", "name": {"value": "Lamp", "rule": "casefold"}}}
# one faulty row of each kind, for item ``i``
FAULTS = {
    "bad_json": lambda i: f'{{"id": "x{i}", "reference": ',
    "not_object": lambda i: "[1, 2]",
    "bad_id": lambda i: json.dumps({"id": True, "reference": GOOD}),
    "unknown_id": lambda i: json.dumps({"id": f"nobody{i}", "reference": GOOD}),
    "bad_rule": lambda i: json.dumps(
        {"id": f"x{i}", "reference": {"fields": {"sku": {"value": "A", "rule": "near"}}}}
    ),
    "bad_date": lambda i: json.dumps(
        {"id": f"x{i}", "reference": {"fields": {"d": {"value": "2024-02-30", "rule": "date"}}}}
    ),
    "not_a_dict": lambda i: json.dumps({"id": f"x{i}", "reference": [1]}),
    "inline": lambda i: json.dumps({"id": "x0", "reference": GOOD}),  # x0 has one inline
}

BAD_REFERENCES = {"bad_rule", "bad_date", "not_a_dict"}  # in place of the item's good row


def _items(folder: Path) -> Path:
    path = folder / "items.jsonl"
    rows = []
    for i in range(N_ITEMS):
        row: dict[str, Any] = {"id": f"x{i}", "response": json.dumps({"sku": "LO-1001"})}
        if i == 0:
            row["reference"] = GOOD  # an inline reference
        rows.append(json.dumps(row))
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def _references(folder: Path, lines: list[str]) -> Path:
    path = folder / "references.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def _in_line(items: Path, references: Path) -> Any:
    """The records, or ``(type, message)`` of the first error, loading everything first."""
    try:
        run = prepare_structured(items, SCHEMA, references=references)
        return run.report_dict([run.part(0, N_ITEMS)])["items"]
    except InputFileError as exc:
        return type(exc), str(exc)


def _deferred(items: Path, references: Path, cut: int, second_first: bool) -> Any:
    """The same from the deferred loading, scored in two parts (either one first)."""
    try:
        run = prepare_structured(items, SCHEMA, references=references, defer_references=True)
    except InputFileError as exc:
        return type(exc), str(exc)
    assert isinstance(run, PreparedRun) and run.references is not None
    bounds = [(0, cut), (cut, N_ITEMS)]
    parts: list[Any] = [None, None]
    for n in (1, 0) if second_first else (0, 1):
        try:
            parts[n] = run.part(*bounds[n])
        except InputFileError as exc:
            return type(exc), str(exc)
    return run.report_dict(parts)["items"]


def test_good_references_give_the_in_line_records(tmp_path: Path) -> None:
    items = _items(tmp_path)
    lines = [  # file order unlike item order; x3 in the plain form
        json.dumps({"id": "x3", "sku": "LO-1001"} if i == 3 else {"id": f"x{i}", "reference": GOOD})
        for i in range(N_ITEMS - 1, 0, -1)
    ]
    references = _references(tmp_path, lines)
    expected = _in_line(items, references)
    assert isinstance(expected, list) and sum(r["reference"] is not None for r in expected) == 8
    for cut in range(N_ITEMS + 1):
        assert _deferred(items, references, cut, False) == expected
        assert _deferred(items, references, cut, True) == expected


def test_no_reference_rows(tmp_path: Path) -> None:
    items, references = _items(tmp_path), _references(tmp_path, [])
    assert _deferred(items, references, 3, True) == _in_line(items, references)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    faults=st.lists(
        st.tuples(st.sampled_from(sorted(FAULTS)), st.integers(1, N_ITEMS - 1)), max_size=2
    )
    | st.lists(
        st.tuples(st.sampled_from(sorted(BAD_REFERENCES)), st.integers(1, N_ITEMS - 1)),
        max_size=3,
    ),
    duplicate=st.none() | st.integers(1, N_ITEMS - 1),
    order=st.permutations(range(1, N_ITEMS)),
    positions=st.lists(st.integers(0, N_ITEMS), min_size=4, max_size=4),
    cut=st.integers(0, N_ITEMS),
    second_first=st.booleans(),
)
def test_the_first_error_is_the_in_line_one(
    tmp_path: Path,
    faults: list[tuple[str, int]],
    duplicate: int | None,
    order: list[int],
    positions: list[int],
    cut: int,
    second_first: bool,
) -> None:
    bad = {i: FAULTS[kind](i) for kind, i in faults if kind in BAD_REFERENCES}
    lines = [bad.get(i, json.dumps({"id": f"x{i}", "reference": GOOD})) for i in order]
    extra = [FAULTS[kind](i) for kind, i in faults if kind not in BAD_REFERENCES]
    if duplicate is not None:
        extra.append(json.dumps({"id": f"x{duplicate}", "reference": GOOD}))
    for line, at in zip(extra, positions, strict=False):
        lines.insert(min(at, len(lines)), line)
    items, references = _items(tmp_path), _references(tmp_path, lines)
    expected = _in_line(items, references)
    assert _deferred(items, references, cut, second_first) == expected


def test_a_scoring_error_comes_after_a_bad_reference_in_the_other_part(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    items = _items(tmp_path)
    lines = [json.dumps({"id": f"x{i}", "reference": GOOD}) for i in range(1, N_ITEMS)]
    lines[-1] = FAULTS["bad_rule"](7)  # item 7: in the second part
    references = _references(tmp_path, lines)
    expected = _in_line(items, references)
    assert expected[0] is InputFileError and "near" in expected[1]
    run = prepare_structured(items, SCHEMA, references=references, defer_references=True)

    def broken(*_: Any) -> Any:
        raise RuntimeError("a scoring bug")

    monkeypatch.setattr(type(run.task), "__call__", broken)
    with pytest.raises(InputFileError) as caught:
        run.part(0, 4)
    assert str(caught.value) == expected[1]
    good = [json.dumps({"id": f"x{i}", "reference": GOOD}) for i in range(1, N_ITEMS)]
    run = prepare_structured(
        items, SCHEMA, references=_references(tmp_path, good), defer_references=True
    )
    with pytest.raises(RuntimeError, match="a scoring bug"):
        run.part(0, 4)  # no bad reference: the scoring error itself


def test_read_deferred_parses_nothing(tmp_path: Path) -> None:
    items = read_items(_items(tmp_path))
    lines = [FAULTS["bad_rule"](i) for i in range(1, N_ITEMS)]
    deferred = read_deferred(items, _references(tmp_path, lines))
    assert [row.id for row in deferred.rows] == [f"x{i}" for i in range(1, N_ITEMS)]
    with pytest.raises(InputFileError, match="near"):
        deferred.attach(items[5:6])
    assert deferred.attach(items[:1]) == items[:1]  # x0 has no row: nothing to parse


@pytest.mark.parametrize("second_first", [False, True])
@pytest.mark.parametrize("cut", [0, 2, 4, 5, 8])
def test_two_bad_references_in_two_parts(tmp_path: Path, cut: int, second_first: bool) -> None:
    lines = [json.dumps({"id": f"x{i}", "reference": GOOD}) for i in range(1, N_ITEMS)]
    lines[5] = FAULTS["bad_date"](6)  # item 6 (second part), earlier in the file
    lines[6] = FAULTS["bad_rule"](1)  # item 1 (first part), later
    lines[0] = json.dumps({"id": "x7", "reference": GOOD})
    items, references = _items(tmp_path), _references(tmp_path, lines)
    expected = _in_line(items, references)
    assert expected[0] is InputFileError and "2024-02-30" in expected[1]
    assert _deferred(items, references, cut, second_first) == expected

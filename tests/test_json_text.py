"""dumps_indented: the text of ``json.dumps(obj, indent=2)`` byte for byte, at C speed."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assay.io.json_text import dumps_indented
from cli_helpers import run
from compare_helpers import GOLD_DIR, write_predictions

SCALARS = (
    st.none() | st.booleans() | st.integers() | st.text()
    | st.floats(allow_nan=True, allow_infinity=True)
)  # fmt: skip
KEYS = st.text(max_size=6) | st.sampled_from(["a", "b", "é", "日本", "\u2028", "\ud800"])
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(KEYS, inner, max_size=5)
    ),
    max_leaves=40,
)


def _reference(obj: Any, sort_keys: bool, ensure_ascii: bool) -> str:
    return json.dumps(obj, indent=2, sort_keys=sort_keys, ensure_ascii=ensure_ascii)


@given(VALUES, st.booleans(), st.booleans())
def test_same_text_as_json_dumps(obj: Any, sort_keys: bool, ensure_ascii: bool) -> None:
    assert dumps_indented(obj, sort_keys=sort_keys, ensure_ascii=ensure_ascii) == _reference(
        obj, sort_keys, ensure_ascii
    )


def test_edge_values_and_non_string_keys() -> None:
    cases: list[Any] = [
        {}, [], (), {"a": {}}, {"a": []}, [[]], [{}], 0, "x", None, math.nan,
        {1: 2, "x": [1]}, {True: 1, None: [{}]}, {2.5: {"a": [1, -0.0, 1e300]}},
        {"deep": [{"k": [1, {"z": math.inf}]}, (1, 2)]}, ["\ud800", "é\x01\"\\"],
        {"b": 1, "a": {"d": [3], "c": 2}}, 10**40,
    ]  # fmt: skip
    for obj in cases:
        for sort_keys in (False, True):
            for ensure_ascii in (False, True):
                try:
                    expected = _reference(obj, sort_keys, ensure_ascii)
                except TypeError:  # mixed key types cannot be sorted
                    with pytest.raises(TypeError):
                        dumps_indented(obj, sort_keys=sort_keys, ensure_ascii=ensure_ascii)
                    continue
                got = dumps_indented(obj, sort_keys=sort_keys, ensure_ascii=ensure_ascii)
                assert got == expected, obj


def test_what_json_refuses_is_refused_alike() -> None:
    for obj in ({1: 1, "a": 2}, {"a": object()}, [1, {2, 3}]):
        with pytest.raises(TypeError):
            _reference(obj, True, False)
        with pytest.raises(TypeError):
            dumps_indented(obj, sort_keys=True)


def test_written_reports_equal_the_standard_encoder(tmp_path: Path) -> None:
    write_predictions(tmp_path / "pred")
    out = tmp_path / "out"
    code = run(
        "eval", "--data-dir", str(GOLD_DIR), "--predictions", str(tmp_path / "pred"),
        "--output", str(out / "report.json"), "--results-dir", str(out),
        "--result-json", str(out / "r.json"), "--trials", "100",
    )  # fmt: skip
    assert code == 0
    result = (out / "r.json").read_text("utf-8")
    document = json.loads(result)
    assert result == json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    report = (out / "report.json").read_text("utf-8")
    expected = json.dumps(json.loads(report), indent=2, ensure_ascii=False) + "\n"
    assert report == expected
    summary = (out / "results" / "summary.json").read_text("utf-8")
    assert (
        summary
        == json.dumps(json.loads(summary), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    )


# Lists and dicts whose members are all dicts of scalars are written from one C encoder
# call and cut apart at the dict boundaries: strings full of the text around a boundary
# (braces, commas, newlines, indents, quotes) must not be mistaken for one.
TRICKY = st.sampled_from(["}", "{", "},\n  {", '"}, {"', ",\n    ", "\\", '"', "\n", ""])
LEAF_TEXT = st.lists(TRICKY | st.text(max_size=4), max_size=4).map("".join)
LEAF_DICT = st.dictionaries(LEAF_TEXT | st.integers(), SCALARS | LEAF_TEXT, max_size=4)
LEAF_DICTS = st.lists(LEAF_DICT, max_size=6)
NESTED_LEAVES = st.recursive(
    LEAF_DICTS | st.dictionaries(LEAF_TEXT, LEAF_DICT, max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
    max_leaves=12,
)


@given(NESTED_LEAVES, st.booleans(), st.booleans())
def test_runs_of_scalar_dicts_are_cut_at_their_boundaries(
    obj: Any, sort_keys: bool, ensure_ascii: bool
) -> None:
    try:
        expected = _reference(obj, sort_keys, ensure_ascii)
    except TypeError:  # int and str keys in one dict cannot be sorted
        with pytest.raises(TypeError):
            dumps_indented(obj, sort_keys=sort_keys, ensure_ascii=ensure_ascii)
        return
    assert dumps_indented(obj, sort_keys=sort_keys, ensure_ascii=ensure_ascii) == expected


def test_scalar_dict_runs_by_hand() -> None:
    rows = [{"a": "},\n    {", "b": 1.5}, {"a": "}", "b": math.nan}, {"c": None}]
    nested = {"x": {"s": "{", "t": True}, "y": {"u": -0.0}, "z": {"v": "\u2028"}}
    for obj in (rows, nested, {"rows": rows, "n": 3}, [rows, [nested]], [{}, {"a": 1}]):
        for sort_keys in (False, True):
            for ensure_ascii in (False, True):
                expected = _reference(obj, sort_keys, ensure_ascii)
                assert dumps_indented(obj, sort_keys=sort_keys, ensure_ascii=ensure_ascii) == (
                    expected
                )

"""orjson's text is kept only where it is json.dumps's, byte for byte (assay.io.orjson_text).

The reference is always :func:`json.dumps` itself; the orjson path must be taken for
plain data (a control in each test) and refused for everything it writes otherwise.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import marshal
import math
import struct
import uuid
from collections import OrderedDict
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.io import json_text
from assay.io.json_text import ORJSON_MIN_ITEMS, dumps_indented
from assay.io.orjson_text import (
    _non_finite,
    _small_float,
    compact,
    indented_member_bytes,
    indented_members,
)

orjson = pytest.importorskip("orjson")  # a declared dependency

SCALARS = (
    st.none() | st.booleans() | st.integers() | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True, allow_infinity=True) | st.floats(-2e-4, 2e-4)
    | st.text() | st.text(st.sampled_from("aé\x00\x1f\x7f\u2028\ud800\"\\\n\t0.e-"))
)  # fmt: skip
KEYS = st.text(max_size=5) | st.sampled_from(["a", "b", "é", "日本", "\u2028", "\U0001f600"])
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(KEYS, inner, max_size=4)
    ),
    max_leaves=12,
)
LONG = st.lists(VALUES, min_size=ORJSON_MIN_ITEMS, max_size=ORJSON_MIN_ITEMS + 40)


def _reference(obj: Any, sort_keys: bool) -> str:
    return json.dumps(obj, indent=2, sort_keys=sort_keys, ensure_ascii=False)


def _record(k: int) -> dict[str, Any]:
    """A per-item record like a result document's (nested, scores, text)."""
    return {
        "question_id": f"q{k:05d}", "gold": "Decline Schedule", "sources": ["image", "text"],
        "results": {f"s{j}": {"accuracy": (k * j) % 2 * 1.0, "token_f1": 1 / (k + j + 3),
                              "prediction": f"answer {k} é\n\"{j}\"", "n": k}
                    for j in range(3)},
    }  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(LONG, st.booleans(), st.integers(0, 3))
def test_long_lists_are_json_dumps_text(values: list[Any], sort_keys: bool, depth: int) -> None:
    document: Any = values
    for _ in range(depth):
        document = {"k": document, "z": [1, {"a": None}]}
    try:
        expected = _reference(document, sort_keys)
    except (TypeError, ValueError):  # unsortable keys: the writer must raise too
        with pytest.raises((TypeError, ValueError)):
            dumps_indented(document, sort_keys=sort_keys, ensure_ascii=False)
        return
    assert dumps_indented(document, sort_keys=sort_keys, ensure_ascii=False) == expected


@pytest.mark.parametrize("sort_keys", [False, True])
@pytest.mark.parametrize("depth", [0, 1, 3])
def test_records_take_the_orjson_path_and_keep_the_text(sort_keys: bool, depth: int) -> None:
    records = [_record(k) for k in range(700)]  # three chunks, the last one short
    assert indented_members(records[:50], depth, sort_keys) is not None  # the path is taken
    document: Any = records
    for _ in range(depth):
        document = {"items": document, "kind": "x"}
    assert dumps_indented(document, sort_keys=sort_keys, ensure_ascii=False) == _reference(
        document, sort_keys
    )


def _members(values: list[Any], depth: int, sort_keys: bool) -> str:
    """The members' text at ``depth`` cut from json.dumps of the list inside ``depth`` dicts."""
    document: Any = values
    for _ in range(depth):
        document = {"k": document}
    text = _reference(document, sort_keys)
    opening = "[\n" + "  " * (depth + 1)
    start = text.index(opening) + len(opening)
    end = text.rindex("\n" + "  " * depth + "]")
    return text[start:end]


@given(st.lists(VALUES, min_size=1, max_size=6), st.integers(0, 4), st.booleans())
@settings(max_examples=150, deadline=None)
def test_members_when_kept_equal_the_cut_json_dumps_text(
    values: list[Any], depth: int, sort_keys: bool
) -> None:
    text = indented_members(values, depth, sort_keys)
    if text is not None:
        assert text == _members(values, depth, sort_keys)


def test_members_of_records_at_each_depth() -> None:
    records = [_record(k) for k in range(40)]
    for depth in (0, 1, 2, 5):
        for sort_keys in (False, True):
            assert indented_members(records, depth, sort_keys) == _members(
                records, depth, sort_keys
            )


class Colour(enum.Enum):
    RED = "red"


class Text(str):
    pass


@dataclasses.dataclass
class Point:
    x: int


REFUSED = [
    math.nan, math.inf, -math.inf, 1e-5, -3e-7, 5e-324, 9.99e-5, 2**64, -(2**63) - 1, "\ud800",
    {1: "non-string key"}, Colour.RED, uuid.UUID(int=7), Text("sub"), OrderedDict(a=1),
    Point(1), {"a"}, b"bytes", 1j, (1, math.nan),
]  # fmt: skip


@pytest.mark.parametrize("value", REFUSED, ids=repr)
def test_values_orjson_writes_otherwise_are_refused(value: Any) -> None:
    records = [_record(k) for k in range(3)]
    assert indented_members(records, 1, True) is not None  # the control
    records[1]["results"]["s1"]["odd"] = value
    assert indented_members(records, 1, True) is None
    assert compact(records) is None
    try:
        expected = _reference({"items": records * 12}, True)
    except (TypeError, ValueError):
        with pytest.raises((TypeError, ValueError)):
            dumps_indented({"items": records * 12}, sort_keys=True, ensure_ascii=False)
        return
    assert dumps_indented({"items": records * 12}, sort_keys=True, ensure_ascii=False) == expected


def test_ascii_output_never_uses_orjson(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    monkeypatch.setattr(json_text, "indented_members", lambda *a: calls.append(a))
    records = [_record(k) for k in range(40)]
    expected = json.dumps(records, indent=2, ensure_ascii=True)
    assert dumps_indented(records, ensure_ascii=True) == expected and not calls


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_every_float_orjson_writes_otherwise_is_caught(value: float) -> None:
    text = orjson.dumps(value)
    if text != float.__repr__(value).encode():
        assert _small_float(text)
    assert (compact([value]) == json.dumps([value])) or compact([value]) is None


@given(st.floats(), st.binary(max_size=40), st.text(max_size=10), st.sampled_from([2, 4]))
def test_a_non_finite_double_is_always_found(
    value: float, noise: bytes, text: str, version: int
) -> None:
    # version 4: the value used twice is one record with FLAG_REF ("g" | 0x80), then references
    image = marshal.dumps([noise, text, value, {"k": value}, text], version)
    if not math.isfinite(value):
        assert _non_finite(image)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf], ids=repr)
def test_a_shared_non_finite_float_is_refused(value: float) -> None:
    """One float object in many places (marshal 4 writes it once, flagged, then refers to it)."""
    shared = [value, {"a": value, "b": [value]}, value]
    assert marshal.dumps(shared, 4).count(b"\xe7") >= 1  # "g" | FLAG_REF
    assert compact(shared) is None and indented_members(shared, 1, True) is None
    assert indented_member_bytes(shared, 1, True) is None


@given(st.integers(0, 2**64 - 1))
def test_any_double_bit_pattern(bits: int) -> None:
    (value,) = struct.unpack("<d", bits.to_bytes(8, "little"))
    if not math.isfinite(value):  # a finite one may raise a false alarm: that only costs speed
        for version in (2, 4):
            assert _non_finite(marshal.dumps([value], version))
            assert _non_finite(marshal.dumps(("x" * (bits % 300), value, 1), version))


@given(st.lists(VALUES, max_size=8))
@settings(max_examples=150, deadline=None)
def test_compact_when_kept_is_json_dumps_compact(values: list[Any]) -> None:
    text = compact(values)
    if text is not None:
        assert text == json.dumps(values, ensure_ascii=False, separators=(",", ":"))


def test_compact_is_kept_for_plain_data() -> None:
    data = {"items": [_record(k) for k in range(20)], "n": [1, 2, None]}
    assert compact(data) == json.dumps(data, ensure_ascii=False, separators=(",", ":"))

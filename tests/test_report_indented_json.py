"""The fast indented JSON writer gives exactly ``json.dumps``'s bytes (the reference)."""

from __future__ import annotations

import json
import math
from collections import OrderedDict
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assay.report.indented_json import dumps_sorted_indented


def reference(value: Any) -> str:
    return json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False)


SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
)
KEYS = st.text() | st.integers() | st.booleans() | st.none() | st.floats(allow_nan=False)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=40,
)


@given(VALUES)
def test_same_text_as_json_dumps(value: Any) -> None:
    assert dumps_sorted_indented(value) == reference(value)


@given(st.dictionaries(KEYS, SCALARS, max_size=5))
def test_non_string_keys_are_converted_like_json_dumps(value: dict[Any, Any]) -> None:
    try:
        expected = reference(value)
    except TypeError:  # mixed key types cannot be sorted: both refuse
        with pytest.raises(TypeError):
            dumps_sorted_indented(value)
        return
    assert dumps_sorted_indented(value) == expected


def test_lone_surrogates_nan_and_nested_empties() -> None:
    value = {
        "s": '\ud800 \u2028 é \x00 "q" \\',
        "n": [math.nan, -math.inf, 1e300, -0.0],
        "e": [{}, [], [[]], {"a": {}}],
        "t": (1, "x"),
    }
    assert dumps_sorted_indented(value) == reference(value)


def test_subclasses_and_unknown_types_fall_back_to_json() -> None:
    class Text(str):
        pass

    value = {"o": OrderedDict(b=1, a=2), "t": Text("x"), "b": True}
    assert dumps_sorted_indented(value) == reference(value)
    with pytest.raises(TypeError):
        dumps_sorted_indented({"x": object()})
    loop: list[Any] = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular"):
        dumps_sorted_indented(loop)

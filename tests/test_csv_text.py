"""csv_rows: the text csv.writer writes (default dialect), with and without the formula guard."""

from __future__ import annotations

import csv
import decimal
import enum
import io
import math
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from assay.report.csv_guard import guard_row
from assay.report.csv_text import csv_rows


class Level(enum.IntEnum):
    LOW = 1


class Money(float):
    def __repr__(self) -> str:
        return "money"


TEXT = st.text(st.sampled_from(list('ab ,"\r\n\t=+-@\'1.e') + ["é", "\u2028", "\x00"]), max_size=8)
CELL = (
    TEXT | st.none() | st.booleans() | st.integers() | st.floats()
    | st.sampled_from(["", "-3", "+1.5e3", "=1+1", "@x", "-x", "\tx", "\rx", "a,b", '"q"', "-inf"])
    | st.sampled_from([math.nan, -math.inf, -0.0, 1e-7, -2.5, Level.LOW, Money(2.0),
                       decimal.Decimal("1.10")])
)  # fmt: skip
ROWS = st.lists(st.lists(CELL, max_size=6), max_size=8)


def _reference(rows: Sequence[Sequence[object]], guarded: bool) -> str:
    buffer = io.StringIO()
    csv.writer(buffer).writerows(guard_row(r) if guarded else r for r in rows)
    return buffer.getvalue()


@settings(max_examples=400, deadline=None)
@given(ROWS, st.booleans())
def test_same_text_as_the_csv_module(rows: list[list[object]], guarded: bool) -> None:
    assert csv_rows(rows, guarded=guarded) == _reference(rows, guarded)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(TEXT | st.floats() | st.integers(), min_size=2, max_size=6), max_size=8),
       st.booleans())  # fmt: skip
def test_rows_of_plain_types_same_text(rows: list[list[object]], guarded: bool) -> None:
    """Rows of str/float/int only: the fast whole-batch path."""
    assert csv_rows(rows, guarded=guarded) == _reference(rows, guarded)


def test_edge_rows() -> None:
    cases: list[list[list[object]]] = [
        [], [[]], [[""]], [["", ""]], [["a"]], [[None, None]], [["x", "=1"], ["-2", "-a"]],
        [["a,b", 'say "hi"', "l1\nl2", "c\rr"]], [[1.0, -0.0, math.inf, math.nan, 10**30]],
        [["ok", "fine"], ["x", None]], [["=HYPERLINK(\"u\")", "@SUM(A1)", "+x", "\tt", "\rr"]],
        [["a", "b,=c"], ["a", ",+"]], [["-1e-07", -1e-07, "-inf", -math.inf]],
    ]  # fmt: skip
    for rows in cases:
        for guarded in (False, True):
            assert csv_rows(rows, guarded=guarded) == _reference(rows, guarded), rows


def test_a_generator_of_rows() -> None:
    rows = [["q1", "a, b", 0.5], ["q2", "=x", 1.0]]
    assert csv_rows(iter(rows), guarded=True) == _reference(rows, True)

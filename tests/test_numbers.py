import importlib
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.numbers import extract_numbers, first_number, percent_readings, within_relative


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1,250.5", 1250.5),  # thousands comma
        ("63,1", 63.1),  # decimal comma (not three digits after the comma)
        ("12,50 EUR", 12.5),
        ("1.250,5", 1250.5),  # dot thousands + decimal comma
        ("1 250", 1250.0),  # space thousands
        ("1\u202f250", 1250.0),  # narrow no-break space thousands
        ("\u22123", -3.0),  # Unicode minus
        ("\u20133 degrees", -3.0),  # en dash used as a minus
        ("2.5e2", 250.0),
        ("2.5E-3", 0.0025),
        ("2.5\u00d710^2", 250.0),  # 2.5 × 10^2
        ("3 x 10^-2", 0.03),
        ("2\u00d710\u00b3", 2000.0),  # 2×10³
        ("10^3", 1000.0),
        ("10\u00b3", 1000.0),
        ("1/2", 0.5),
        ("3/4", 0.75),
        ("$1,200,000", 1200000.0),
        ("+7", 7.0),
    ],
)
def test_first_number_values(text: str, value: float) -> None:
    number = first_number(text)
    assert number is not None
    assert number.value == pytest.approx(value, rel=1e-12)


def test_percent_flag_and_readings() -> None:
    number = first_number("42.9 percent")
    assert number is not None and number.percent and number.value == 42.9
    assert percent_readings(number) == (42.9 / 100,)
    bare = first_number("0.429")
    assert bare is not None and not bare.percent
    assert percent_readings(bare) == (0.429, 0.429 / 100)


def test_ranges_words_and_dates() -> None:
    assert [n.value for n in extract_numbers("2019\u20132020")] == [2019.0, 2020.0]
    assert extract_numbers("Q3 H2O") == []  # no number starts inside a word
    assert [n.value for n in extract_numbers("COVID-19")] == [19.0]  # hyphen after a letter
    assert first_number("3/4/2020").value == 3.0  # type: ignore[union-attr]  # a date, not 3/4
    assert first_number("no digits here") is None


def test_overflow_is_infinite() -> None:
    assert math.isinf(first_number("1e400").value)  # type: ignore[union-attr]


def test_within_relative() -> None:
    assert within_relative(105.0, 100.0, 0.05)  # |5|/100 = 0.05, inclusive
    assert not within_relative(105.1, 100.0, 0.05)
    assert within_relative(1e-7, 0.0, 0.05) and not within_relative(1e-5, 0.0, 0.05)


NUMBER_PIECES = [
    "1", "25", "3.5", ".5", "1,250", "63,1", "1 250", "2e3", "x", "Q", " ", "-", "\u2212",
    "+", ".", ",", "/", "^", "%", " percent", "\u00d710^2", "\u00b3", "a", "\u0663", "_",
]  # fmt: skip


@settings(max_examples=800)
@given(st.lists(st.sampled_from(NUMBER_PIECES), max_size=10).map("".join) | st.text(max_size=30))
def test_first_number_equals_the_first_match_of_the_whole_text(text: str) -> None:
    """The search from just before the first digit finds what a whole-text search finds."""
    numbers = importlib.import_module("assay.numbers")
    match = numbers._NUMBER.search(text)
    found = first_number(text)
    if match is None:
        assert found is None
    else:
        assert found is not None
        assert (found.start, found.text, found.percent) == (
            match.start(), match.group(0).strip(), bool(match["pct"]),
        )  # fmt: skip
        assert found.value == numbers._value(match) or math.isnan(found.value)


def test_first_number_after_words_and_a_signed_decimal() -> None:
    found = first_number("filler words, then -.5% and 7")
    assert found is not None and (found.value, found.percent, found.start) == (-0.5, True, 19)
    spaced = first_number("words - .5")
    assert spaced is not None and (spaced.value, spaced.start) == (-0.5, 6)
    assert first_number("no digits here at all") is None
    q3 = first_number("Q3 then 4")
    assert q3 is not None and (q3.value, q3.start) == (4.0, 8)

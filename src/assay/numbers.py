r"""Numeric extraction from raw answer text (used by the ``assay`` profile).

Numbers are read from the *raw* text, before any punctuation is deleted, so the
separators still say what they mean:

================================  =====================  =====================
form                              example                value
================================  =====================  =====================
thousands commas                  ``1,250.5``            1250.5
decimal comma                     ``63,1``               63.1
dot thousands + decimal comma     ``1.250,5``            1250.5
space thousands (also NBSP, thin)   ``1 250``, ``1 250``  1250
signs incl. Unicode minus, dash   ``−3``, ``–3``         -3
scientific notation               ``2.5e2``              250
times-ten notation                ``2.5×10^2``, ``×10³`` 250
powers                            ``10^3``, ``10³``      1000
fractions                         ``1/2``                0.5
percentages                       ``42.9%``, ``42.9 percent``  42.9 (percent)
================================  =====================  =====================

A comma followed by exactly three digits is a thousands separator; followed by
any other number of digits it is a decimal comma. A number never starts inside a
word (``Q3``, ``H2O``) or right after another number's separator, and a dash
between two digits is a range (``2019–2020`` gives 2019, then 2020).
"""

from __future__ import annotations

import decimal
import math
import re
from dataclasses import dataclass

_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_MINUS_SIGNS = r"\-\u2212\u2013\u2012\u2014"
_THIN_SPACES = " \u00a0\u202f\u2009"
_SUP = "[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+"

_NUMBER = re.compile(
    rf"""
    (?<![\w.,/^])
    (?P<sign>[+{_MINUS_SIGNS}]\s?)?
    (?P<mant>
        \d{{1,3}}(?:,\d{{3}})+(?!\d)(?:\.\d+)?
      | \d{{1,3}}(?:\.\d{{3}})+,\d+
      | \d{{1,3}}(?:[{_THIN_SPACES}]\d{{3}})+(?!\d)(?:[.,]\d+)?
      | \d+,(?!\d{{3}}(?!\d))\d+
      | \d+(?:\.\d+)?
      | \.\d+
    )
    (?:
        (?P<exp>[eE][-+\u2212]?\d+)(?!\w)
      | \s?[×xX*·]\s?10\s?(?:\^|\*\*)\s?\(?(?P<x10>[-+\u2212]?\d+)\)?
      | \s?[×xX*·]\s?10(?P<x10sup>{_SUP})
      | \s?(?:\^|\*\*)\s?\(?(?P<pow>[-+\u2212]?\d+)\)?
      | (?P<powsup>{_SUP})
      | \s?/\s?(?P<den>\d+)(?![\d/.,])
    )?
    (?P<pct>\s?%|\s?per\s?cent\b)?
    """,
    re.VERBOSE | re.IGNORECASE,
)

_DIGIT = re.compile(r"\d")


@dataclass(frozen=True, slots=True)
class Number:
    """One number found in a text.

    Attributes:
        value: the value as a float (``inf`` when it overflows).
        percent: whether a ``%`` sign or the word "percent" followed it.
        text: the matched characters, as written.
        start: offset of the match in the text.
    """

    value: float
    percent: bool
    text: str
    start: int

    def to_dict(self) -> dict[str, object]:
        """The canonical JSON form."""
        return {"value": self.value, "percent": self.percent, "text": self.text}


def _mantissa(text: str) -> str:
    """The mantissa as a plain decimal literal (``1,250.5`` → ``1250.5``)."""
    for space in _THIN_SPACES:
        text = text.replace(space, "")
    if "," in text and "." in text and text.index(".") < text.index(","):
        return text.replace(".", "").replace(",", ".")
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", text):
        return text.replace(",", "")
    return text.replace(",", ".")


def _exponent(text: str) -> str:
    """An exponent as a plain signed literal of any length (superscripts, Unicode minus)."""
    return text.translate(_SUPERSCRIPTS).replace("\u2212", "-")


# Exponents beyond this many digits over- or underflow any float whatever the base, so
# they are never turned into an int (Python refuses ints of more than 4,300 digits).
_EXPONENT_DIGITS = 30
_DIVISION = decimal.Context(prec=40, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN, traps=[])


def _power(base: str, exponent: str) -> float:
    """``base ** exponent`` as a float: ``inf`` when it overflows, 0.0 when it underflows."""
    value = float(base)
    negative = exponent.startswith("-")
    digits = exponent.lstrip("+-").lstrip("0") or "0"
    if value in (0.0, 1.0) or digits == "0":
        return 1.0 if digits == "0" or value == 1.0 else (math.inf if negative else 0.0)
    if math.isinf(value):
        return 0.0 if negative else math.inf
    if len(digits) > _EXPONENT_DIGITS:
        grows = (value > 1.0) != negative
        return math.inf if grows else 0.0
    try:
        return float(value ** int(("-" if negative else "") + digits))
    except OverflowError:
        return math.inf


def _value(match: re.Match[str]) -> float:
    """The match's value; ``inf`` past the float range, never an exception."""
    mantissa = _mantissa(match["mant"])
    if match["exp"]:  # float() reads exponents of any length: inf or 0.0 beyond the range
        value = float(f"{mantissa}e{_exponent(match['exp'][1:])}")
    elif match["x10"] or match["x10sup"]:
        value = float(f"{mantissa}e{_exponent(match['x10'] or match['x10sup'])}")
    elif match["pow"] or match["powsup"]:
        value = _power(mantissa, _exponent(match["pow"] or match["powsup"]))
    elif match["den"]:  # exact decimal division: a 400-digit denominator is no overflow
        denominator = decimal.Decimal(match["den"])
        quotient = _DIVISION.divide(decimal.Decimal(mantissa), denominator) if denominator else None
        value = math.inf if quotient is None else float(quotient)
    else:
        value = float(mantissa)
    sign = (match["sign"] or "").strip()
    return -value if sign and sign != "+" else value


def extract_numbers(text: str) -> list[Number]:
    """Every number in ``text``, in order of appearance."""
    return [
        Number(_value(m), bool(m["pct"]), m.group(0).strip(), m.start())
        for m in _NUMBER.finditer(text)
    ]


def first_number(text: str) -> Number | None:
    """The first number in ``text``, or ``None``.

    Every number holds a digit, and at most a sign, a space and a ``.`` come before its
    first one: the search starts three characters before the text's first digit (the
    pattern's lookbehind still sees the characters before that).
    """
    digit = _DIGIT.search(text)
    if digit is None:
        return None
    match = _NUMBER.search(text, max(0, digit.start() - 3))
    if match is None:
        return None
    return Number(_value(match), bool(match["pct"]), match.group(0).strip(), match.start())


def within_relative(prediction: float, gold: float, tolerance: float) -> bool:
    """``|p − g| / |g| ≤ tolerance``; a zero gold needs ``|p| < 1e-6``."""
    if gold == 0:
        return abs(prediction) < 1e-6
    return abs(prediction - gold) / abs(gold) <= tolerance


def percent_readings(number: Number) -> tuple[float, ...]:
    """The fractions a number may stand for: ``42.9%`` → 0.429; bare ``42.9`` → 42.9 or 0.429."""
    if number.percent:
        return (number.value / 100.0,)
    return (number.value, number.value / 100.0)

"""CSV formula injection: a policy for cells a spreadsheet would run as a formula.

A cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is
taken by Excel, LibreOffice and Google Sheets as the start of a formula (or, for
TAB/CR, lets one follow), so a model answer such as ``=HYPERLINK("http://…")``
written raw runs when the CSV is opened. Policy:

- **assay's own CSVs** (the per-question CSV under the ``assay`` profile, ``assay
  report --format csv``, ``assay structured --per-item FILE.csv``): guarded. Such a
  cell is written with a leading ``'`` (the OWASP recommendation; spreadsheets show
  the text, and the quote is visible to a program reading the CSV). A plain number
  such as ``-3`` or ``+1.5e3`` is not a formula and is left alone.
- **the released per-question CSV layout** (``--profile xldocbench``): raw, so that
  it stays byte-identical to the released evaluator's file.

The policy in force is recorded as ``csv_formula_policy`` in the run's provenance
(:data:`GUARDED` or :data:`RAW`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
GUARDED = "quote: a cell starting with = + - @ TAB or CR gets a leading ' (numbers excepted)"
RAW = "raw: cells written as released (no formula guard)"

_PLAIN_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")


def guard_cell(value: object) -> object:
    """``value`` with a leading ``'`` when it is text a spreadsheet would run."""
    if not isinstance(value, str) or not value.startswith(FORMULA_STARTS):
        return value
    if _PLAIN_NUMBER.fullmatch(value):
        return value
    return "'" + value


def guard_row(values: Iterable[object]) -> list[object]:
    """Every cell of a row through :func:`guard_cell` (the test inlined for the common cell)."""
    return [
        guard_cell(v) if type(v) is str and v.startswith(FORMULA_STARTS) else v for v in values
    ]


def policy(guarded: bool) -> str:
    """The provenance text of the policy in force."""
    return GUARDED if guarded else RAW


def guards_profile(profile: str) -> bool:
    """Whether a run's per-question CSV is guarded: every profile but the released layout."""
    return profile != "xldocbench"

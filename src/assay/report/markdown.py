"""Markdown tables people paste into a README or a paper appendix.

The renderers read plain rows (mappings of already-computed numbers, as found in a
result record) and never compute a statistic themselves, so a Markdown table
cannot disagree with the JSON it came from. Formatting is fixed: numbers use
``digits`` decimals, a missing number prints ``n/a``, an empty group prints
``empty`` (never 0.0), rates print as ``k/n``. Output is byte-identical for
identical rows.

Leaderboard row keys (all but ``system`` optional)::

    system, score, lower, upper, group (tie group), n, k

Slice rows use ``slice`` instead of ``system``; :func:`render_slices` takes one
list of rows per slice dimension (domain, difficulty, ...).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from assay.errors import InvalidInputError

NOT_AVAILABLE = "n/a"
EMPTY = "empty"

Row = Mapping[str, Any]


def format_number(value: float | int | None, digits: int = 3) -> str:
    """Return ``value`` with ``digits`` decimals, or ``n/a`` when it is missing."""
    if value is None:
        return NOT_AVAILABLE
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidInputError(f"expected a number in a report row, got {value!r}.")
    return f"{value:.{digits}f}"


def format_interval(lower: float | None, upper: float | None, digits: int = 3) -> str:
    """Return ``[lower, upper]``, or ``n/a`` when either bound is missing."""
    if lower is None or upper is None:
        return NOT_AVAILABLE
    return f"[{format_number(lower, digits)}, {format_number(upper, digits)}]"


# Every line break a renderer may honour: CRLF, a lone CR or LF, VT, FF, NEL, LS, PS.
_LINE_BREAKS = re.compile("\r\n|[\r\n\x0b\x0c\x85\u2028\u2029]")


def escape_cell(text: object) -> str:
    r"""Return ``text`` safe for one Markdown table cell.

    Backslashes and pipes are escaped; every line break (a lone ``\r`` too, which
    ends a line for CommonMark) becomes one space, so a row stays on one line.
    """
    escaped = str(text).replace("\\", "\\\\").replace("|", "\\|")
    return _LINE_BREAKS.sub(" ", escaped)


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[str]], align: str) -> str:
    """Return a GitHub-flavoured Markdown table.

    Args:
        headers: column titles.
        rows: cell texts, one sequence per row.
        align: one letter per column: ``l`` (left) or ``r`` (right).
    """
    if len(align) != len(headers) or any(len(row) != len(headers) for row in rows):
        raise InvalidInputError("markdown_table: every row and align need one entry per header.")
    rule = {"l": ":---", "r": "---:"}
    lines = [
        "| " + " | ".join(escape_cell(h) for h in headers) + " |",
        "|" + "|".join(rule[a] for a in align) + "|",
    ]
    lines += ["| " + " | ".join(escape_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _score_cells(row: Row, digits: int) -> list[str]:
    """Return the score, interval and n (or k/n) cells of one row."""
    n = row.get("n")
    if n == 0:
        return [EMPTY, NOT_AVAILABLE, "0"]
    score = format_number(row.get("score"), digits)
    interval = format_interval(row.get("lower"), row.get("upper"), digits)
    k = row.get("k")
    count = NOT_AVAILABLE if n is None else (f"{k}/{n}" if k is not None else str(n))
    return [score, interval, count]


def _name(row: Row, key: str) -> str:
    """Return the row's name field, refusing rows without one."""
    if key not in row:
        raise InvalidInputError(f"report row {dict(row)!r} has no {key!r} field.")
    return str(row[key])


def render_leaderboard(
    rows: Sequence[Row],
    *,
    digits: int = 3,
    confidence: float = 0.95,
    title: str | None = None,
    count_header: str = "n",
) -> str:
    """Render a leaderboard (rows already ranked best first) with intervals and tie groups.

    The rank column shows each row's ``group`` (systems sharing a number are
    statistically tied) or, without groups, the position. ``count_header`` heads the
    ``n`` (or ``k/n``) column; rows with an ``evaluated`` cell get an ``evaluated``
    column (the words of :mod:`assay.evaluation.counts`).
    """
    ci = f"{confidence:.0%} CI"
    body = [
        [str(row.get("group", position)), _name(row, "system"), *_score_cells(row, digits)]
        for position, row in enumerate(rows, start=1)
    ]
    headers = ["rank", "system", "score", ci, count_header]
    if any("evaluated" in row for row in rows):
        headers.append("evaluated")
        for cells, row in zip(body, rows, strict=True):
            cells.append(str(row.get("evaluated", NOT_AVAILABLE)))
    table = markdown_table(headers, body, "rlr" + "r" * (len(headers) - 3))
    return (f"## {escape_cell(title)}\n\n" if title else "") + table


def render_slice_table(rows: Sequence[Row], *, digits: int = 3, confidence: float = 0.95) -> str:
    """Render one slice dimension: one row per slice value with score, interval and n."""
    ci = f"{confidence:.0%} CI"
    body = [[_name(row, "slice"), *_score_cells(row, digits)] for row in rows]
    return markdown_table(["slice", "score", ci, "n"], body, "lrrr")


def render_slices(
    slices: Mapping[str, Sequence[Row]], *, digits: int = 3, confidence: float = 0.95
) -> str:
    """Render one ``### dimension`` section per slice dimension, in sorted order."""
    sections = [
        f"### {escape_cell(dimension)}\n\n"
        + render_slice_table(slices[dimension], digits=digits, confidence=confidence)
        for dimension in sorted(slices)
    ]
    return "\n".join(sections)


def render_report(
    leaderboard: Sequence[Row],
    slices: Mapping[str, Sequence[Row]] | None = None,
    *,
    title: str = "Results",
    digits: int = 3,
    confidence: float = 0.95,
    notes: Sequence[str] = (),
) -> str:
    """Render a whole Markdown report: title, leaderboard, notes and slice sections."""
    parts = [f"# {escape_cell(title)}\n"]
    parts.append(render_leaderboard(leaderboard, digits=digits, confidence=confidence))
    if notes:
        parts.append("".join(f"- {escape_cell(note)}\n" for note in notes))
    if slices:
        parts.append("## Slices\n")
        parts.append(render_slices(slices, digits=digits, confidence=confidence))
    return "\n".join(parts)

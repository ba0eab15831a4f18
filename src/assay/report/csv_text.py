r"""CSV text as :func:`csv.writer` writes it (default dialect), built without it for plain rows.

The default dialect (``excel``: ``,`` between cells, ``\r\n`` after each row, minimal
quoting, a quote doubled inside quotes) writes a ``str`` cell as it is unless it holds
``,``, ``"``, ``\r`` or ``\n``, in which case it is quoted; ``None`` as nothing; a
``float`` with ``repr`` and an ``int`` with ``str``. :func:`csv_rows` writes rows of
exactly those types (``bool`` included) that way; a row with any other cell, or of a
single cell (the writer quotes a lone empty cell), goes through :func:`csv.writer`
itself, so the text never differs. With ``guarded`` each cell first goes through the
formula guard (:func:`assay.report.csv_guard.guard_row`). A property test compares
both with the csv module (``tests/test_csv_text.py``).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from itertools import chain
from typing import Any

from assay.report.csv_guard import FORMULA_STARTS, guard_cell, guard_row


class _Other(Exception):
    """A cell of a type this module does not write: the row goes to :func:`csv.writer`."""


def _text(cell: object) -> str:
    """A non-``str`` cell's text as the csv writer makes it."""
    kind = type(cell)
    if cell is None:
        return ""
    if kind is float:
        return float.__repr__(cell)
    if kind is int or kind is bool:
        return str(cell)
    raise _Other


def _quoted(text: str) -> str:
    if "," in text or '"' in text or "\r" in text or "\n" in text:
        return '"' + text.replace('"', '""') + '"'
    return text


def _line(row: Sequence[object], guarded: bool) -> str:
    """One row's line, without its line end (raises :class:`_Other`)."""
    if guarded:
        texts = [
            c if type(c) is str and not c.startswith(FORMULA_STARTS) else _guarded(c) for c in row
        ]
    else:
        texts = [c if type(c) is str else _text(c) for c in row]
    line = ",".join(texts)
    if line.count(",") == len(texts) - 1 and '"' not in line and "\r" not in line:
        if "\n" not in line:
            return line
    return ",".join(map(_quoted, texts))


def _guarded(cell: object) -> str:
    return str(guard_cell(cell)) if type(cell) is str else _text(cell)


_STR_TYPES = frozenset({str, int, float, bool})  # exact types whose str() is the csv text
_AFTER_COMMA = re.compile(",[" + re.escape("".join(FORMULA_STARTS)) + "]")  # a cell may open one


def _plain_line(row: Sequence[object], guarded: bool) -> str:
    """:func:`_line` of a row whose cells are all of :data:`_STR_TYPES` (no ``None``)."""
    texts = list(map(str, row))
    line = ",".join(texts)
    if guarded and (line.startswith(FORMULA_STARTS) or _AFTER_COMMA.search(line)):
        pairs = zip(row, texts, strict=True)
        texts = [str(guard_cell(t)) if type(c) is str else t for c, t in pairs]
        line = ",".join(texts)
    if line.count(",") == len(texts) - 1 and '"' not in line and "\r" not in line:
        if "\n" not in line:
            return line
    return ",".join(map(_quoted, texts))


def csv_rows(rows: Iterable[Sequence[object]], *, guarded: bool = False) -> str:
    """The text ``csv.writer(f).writerows(rows)`` writes (each row guarded first if asked)."""
    rows = list(rows)
    if rows and min(map(len, rows)) > 1:
        if _STR_TYPES.issuperset(set(map(type, chain.from_iterable(rows)))):
            return "".join([_plain_line(row, guarded) + "\r\n" for row in rows])
    lines = []
    fallback: Any = None  # a csv writer, made for the first row that needs it
    buffer = io.StringIO()
    for row in rows:
        if len(row) > 1:
            try:
                lines.append(_line(row, guarded))
                lines.append("\r\n")
                continue
            except _Other:
                pass
        if fallback is None:
            fallback = csv.writer(buffer)
        buffer.seek(0)
        buffer.truncate()
        fallback.writerow(guard_row(row) if guarded else row)
        lines.append(buffer.getvalue())
    return "".join(lines)

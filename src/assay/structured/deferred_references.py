"""A references file read before a fork and parsed after it, each process its own share.

Parsing the references (:func:`~assay.structured.claims.parse_reference`) is about two
thirds of reading the file. :func:`read_deferred` reads every row and checks every id
(duplicates, unknown ids, items with an inline reference) but parses nothing; each
part of a run then parses the rows of its own items (:meth:`DeferredReferences.attach`),
so ``assay structured`` parses the references on both cores.

Errors stay those of :func:`~assay.structured.items.attach_references` reading the
whole file first, which stops at the first bad row in file order:

* a row that cannot be read, or whose id is bad, is raised only after every earlier
  row has been parsed and checked (an earlier error wins);
* a parse error in a part means every row is parsed in file order
  (:meth:`DeferredReferences.raise_first`) and the first error is raised, whichever
  share it is in: every process that meets one raises the same error;
* a part whose scoring fails parses every row first too, so a bad reference anywhere
  is raised before any scoring error, as when everything is loaded before scoring.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from assay.errors import InputFileError
from assay.structured.claims import Reference
from assay.structured.items import (
    ReferenceRow,
    StructuredItem,
    attach_rows,
    iter_reference_rows,
    row_problem,
    with_reference,
)


class DeferredReferences:
    """Checked, unparsed references-file rows, keyed by item id."""

    def __init__(self, path: str | Path, rows: list[ReferenceRow]) -> None:
        self.path = path
        self.rows = rows  # file order
        self.by_id = {row.id: row for row in rows}

    def attach(self, items: Sequence[StructuredItem]) -> list[StructuredItem]:
        """``items`` with their references parsed and attached (see the module docstring).

        Raises:
            InputFileError: the first bad reference of the whole file.
        """
        mine = sorted((self.by_id[i.id] for i in items if i.id in self.by_id), key=_line)
        parsed: dict[str, Reference] = {}
        try:
            for row in mine:
                parsed[row.id] = row.parse(self.path)
        except InputFileError:
            self.raise_first()
            raise  # pragma: no cover - raise_first raised an error at or before this row
        return [with_reference(i, parsed[i.id]) if i.id in parsed else i for i in items]

    def raise_first(self) -> None:
        """Parse every row in file order: raise the first error, if any."""
        for row in self.rows:
            row.parse(self.path)


def _line(row: ReferenceRow) -> int:
    return row.line


def read_deferred(
    items: list[StructuredItem], path: str | Path, digest: Any = None
) -> DeferredReferences:
    """Read and check the rows of a references file for ``items``; parse none of them.

    Raises:
        InputFileError: the error ``attach_references(items, path)`` raises, when it is
            a bad line, a bad id or an id problem; a bad reference is raised by
            :meth:`DeferredReferences.attach`.
    """
    rows: list[ReferenceRow] = []
    try:
        rows.extend(iter_reference_rows(path, digest))
    except InputFileError:
        _in_line(items, rows, path)  # an earlier row's error comes first
        raise
    by_id = {item.id: item for item in items}
    first: dict[str, int] = {}
    for row in rows:
        problem = row_problem(by_id, first, path, row.line, row.id)
        if problem is not None:
            _in_line(items, rows, path)  # raises: this problem or an earlier row's
            raise problem  # pragma: no cover - _in_line raised
        first[row.id] = row.line
    return DeferredReferences(path, rows)


def _in_line(items: list[StructuredItem], rows: list[ReferenceRow], path: str | Path) -> None:
    """Attach ``rows`` as :func:`~assay.structured.items.attach_references` does (its errors)."""
    attach_rows(items, ((row.line, row.id, row.parse(path)) for row in rows), path)

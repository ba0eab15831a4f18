"""Loading structured items and references (JSONL, streamed, errors name file/line/field).

Items file rows: ``{"id", "response", "reference"?, "claims"?}``. ``response`` is
the raw model output, a string kept verbatim (``""`` is allowed: it is the
``empty`` bucket; so is ``null``, read as ``""``). ``reference`` is a reference object
(:func:`~assay.structured.claims.parse_reference`); ``claims`` is a list of
free-text claim strings.

References file rows: ``{"id", "reference": {...}}``, or ``{"id", ...}`` where the
rest of the row is the reference. Each id may appear once; an id that is not an
item, or an item that already has an inline reference, is an error.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assay.errors import InputFileError
from assay.io.jsonl import iter_jsonl
from assay.structured.claims import Reference, parse_reference


@dataclass(frozen=True, slots=True)
class StructuredItem:
    """One item to score.

    Attributes:
        id: item id.
        response: the raw model output, verbatim.
        reference: reference facts, or ``None``.
        claims: free-text claims carried by the item.
        line: line in the items file (0 when built in code).
    """

    id: str
    response: str
    reference: Reference | None = None
    claims: tuple[str, ...] = ()
    line: int = 0


def _item_id(row: dict[str, Any], path: str | Path, line: int) -> str:
    value = row.get("id")
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        problem = "missing" if "id" not in row else f"must be a string or integer, got {value!r}"
        raise InputFileError(path, f"{problem}; give every row an id", line=line, field="id")
    return str(value)


def item_from_row(row: dict[str, Any], path: str | Path, line: int) -> StructuredItem:
    """Validate one items-file row.

    Raises:
        InputFileError: naming the file, line and field.
    """
    item_id = _item_id(row, path, line)
    response = row.get("response")
    if response is None and "response" in row:
        response = ""  # a model that delivered nothing: the ``empty`` bucket
    if not isinstance(response, str):
        problem = "missing" if "response" not in row else f"must be a string, got {response!r}"
        raise InputFileError(
            path, f"{problem}; give the raw model output as a string", line=line, field="response"
        )
    claims = row.get("claims", [])
    if not isinstance(claims, list) or not all(isinstance(c, str) for c in claims):
        raise InputFileError(
            path, f"must be a list of strings, got {claims!r}", line=line, field="claims"
        )
    reference = None
    if row.get("reference") is not None:
        reference = parse_reference(row["reference"], path=str(path), line=line)
    return StructuredItem(item_id, response, reference, tuple(claims), line)


def read_items(path: str | Path, digest: Any = None) -> list[StructuredItem]:
    """Read an items JSONL file; ids must be unique (``digest``: hash the bytes as read).

    Raises:
        InputFileError: for a bad line, a bad field, a duplicate id, or no rows at all.
    """
    items: list[StructuredItem] = []
    seen: dict[str, int] = {}
    for line, row in iter_jsonl(path, digest=digest):
        item = item_from_row(row, path, line)
        if item.id in seen:
            raise InputFileError(
                path,
                f"duplicate id {item.id!r} (first on line {seen[item.id]}); ids must be unique",
                line=line,
                field="id",
            )
        seen[item.id] = line
        items.append(item)
    if not items:
        raise InputFileError(
            path, "no items (the file is empty or blank); give one {id, response} object per line"
        )
    return items


@dataclass(frozen=True, slots=True)
class ReferenceRow:
    """One row of a references file, read and its id checked, its reference not yet parsed.

    Attributes:
        line: the row's line in the file.
        id: the item id it names.
        body: the reference object as read.
        prefix: the field prefix of its error messages (``reference`` or none).
    """

    line: int
    id: str
    body: Any
    prefix: str

    def parse(self, path: str | Path) -> Reference:
        """The row's reference (:func:`~assay.structured.claims.parse_reference`)."""
        return parse_reference(self.body, path=str(path), line=self.line, prefix=self.prefix)


def iter_reference_rows(path: str | Path, digest: Any = None) -> Iterator[ReferenceRow]:
    """Yield each row of a references file, unparsed (a bad line or id raises here)."""
    for line, row in iter_jsonl(path, digest=digest):
        item_id = _item_id(row, path, line)
        if set(row) == {"id", "reference"}:
            body, prefix = row["reference"], "reference"
        else:
            body, prefix = {k: v for k, v in row.items() if k != "id"}, ""
        yield ReferenceRow(line, item_id, body, prefix)


def iter_references(
    path: str | Path, digest: Any = None
) -> Iterator[tuple[int, str, Reference]]:
    """Yield ``(line, id, reference)`` for each row of a references file."""
    for row in iter_reference_rows(path, digest):
        yield row.line, row.id, row.parse(path)


def references_from_mapping(
    mapping: Mapping[str, Any], label: str = "<references>"
) -> Iterator[tuple[int, str, Reference]]:
    """Yield ``(0, id, reference)`` for an in-memory ``{id: reference}`` mapping."""
    for item_id in sorted(mapping):
        yield 0, str(item_id), parse_reference(mapping[item_id], path=label, prefix=str(item_id))


def attach_references(
    items: Iterable[StructuredItem],
    references: str | Path | Mapping[str, Any],
    digest: Any = None,
) -> list[StructuredItem]:
    """Give each item its reference from a references file or an ``{id: reference}`` mapping.

    Raises:
        InputFileError: duplicate id, unknown id, or an item that already has a reference.
    """
    path: str | Path = "<references>"
    if isinstance(references, (str, Path)):
        path, rows = references, iter_references(references, digest)
    else:
        rows = references_from_mapping(references)
    return attach_rows(items, rows, path)


def attach_rows(
    items: Iterable[StructuredItem],
    rows: Iterable[tuple[int, str, Reference]],
    path: str | Path,
) -> list[StructuredItem]:
    """:func:`attach_references` of ``(line, id, reference)`` rows read from ``path``."""
    by_id = {item.id: item for item in items}
    found: dict[str, tuple[int, Reference]] = {}
    first: dict[str, int] = {}
    for line, item_id, reference in rows:
        problem = row_problem(by_id, first, path, line, item_id)
        if problem is not None:
            raise problem
        found[item_id] = (line, reference)
        first[item_id] = line
    return [with_reference(item, found[item.id][1]) if item.id in found else item
            for item in by_id.values()]  # fmt: skip


def row_problem(
    by_id: Mapping[str, StructuredItem],
    first: Mapping[str, int],
    path: str | Path,
    line: int,
    item_id: str,
) -> InputFileError | None:
    """Why a references row cannot be attached (``first``: the lines of the ids so far)."""
    if item_id in first:
        return InputFileError(
            path,
            f"duplicate id {item_id!r} (first on line {first[item_id]})",
            line=line or None,
            field="id",
        )
    if item_id not in by_id:
        return InputFileError(
            path,
            f"id {item_id!r} is not in the items file; fix or remove the row",
            line=line or None,
            field="id",
        )
    if by_id[item_id].reference is not None:
        return InputFileError(
            path,
            f"item {item_id!r} already has an inline reference (items line "
            f"{by_id[item_id].line}); give it in one place only",
            line=line or None,
            field="id",
        )
    return None


def with_reference(item: StructuredItem, reference: Reference) -> StructuredItem:
    """``item`` with ``reference`` (``dataclasses.replace`` without its per-call field walk)."""
    return StructuredItem(item.id, item.response, reference, item.claims, item.line)

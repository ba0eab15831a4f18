"""In-memory items and references for :func:`~assay.structured.api.score_structured`.

Items may be an iterable of dicts (a list, a tuple, a generator) or a pandas
DataFrame, as well as :class:`~assay.structured.items.StructuredItem` objects;
references may be an ``{id: reference}`` mapping, an iterable of reference rows
(``{"id", "reference"}`` or ``{"id", ...}``, as a references file holds) or a
DataFrame. Every row goes through the same checks as a file row, and messages name
the row index where a file's name the line::

    items records[3]: field 'response': missing; give the raw model output as a string
    references records[0]: field 'id': id 'x' is not in the items; fix or remove the row

A DataFrame's missing cell is an absent field (as in :mod:`assay.io.records`), except
a missing ``response`` cell, which reads as JSON ``null`` does: the empty response.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from typing import Any

from assay.errors import InputFileError, InvalidTypeError
from assay.io.records import frame_records, is_frame
from assay.structured.claims import Reference, parse_reference
from assay.structured.items import StructuredItem, item_from_row

ITEMS = "items records"
REFERENCES = "references records"


def _rows(value: Any, what: str) -> Iterator[Any]:
    """The rows of a DataFrame (as dicts) or of any other non-string iterable."""
    if is_frame(value):
        frame_rows = frame_records(value)
        if what == "items" and "response" in value.columns:
            frame_rows = tuple({"response": None, **row} for row in frame_rows)
        return iter(frame_rows)
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise InvalidTypeError(
            f"{what}: expected a file path, an iterable of dicts or a DataFrame, "
            f"got {type(value).__name__}"
        )
    return iter(value)


def _not_a_row(where: str, row: object, shape: str) -> InputFileError:
    return InputFileError(
        where, f"expected a dict, got {type(row).__name__}; give one {shape} dict per row"
    )


def items_from_records(rows: Any) -> list[StructuredItem]:
    """Items from dicts, :class:`StructuredItem` objects or a DataFrame's rows.

    Raises:
        InvalidTypeError: ``rows`` is not an iterable of rows (a string, a dict, a number).
        InputFileError: a bad row or field, or a duplicate id, naming ``items records[i]``.
    """
    items: list[StructuredItem] = []
    seen: dict[str, int] = {}
    for index, row in enumerate(_rows(rows, "items")):
        where = f"{ITEMS}[{index}]"
        if isinstance(row, StructuredItem):
            item = row
        elif isinstance(row, Mapping):
            checked = item_from_row(dict(row), where, None)  # type: ignore[arg-type]
            item = replace(checked, line=0)  # built in code: no line
        else:
            raise _not_a_row(where, row, "{id, response}")
        if item.id in seen:
            raise InputFileError(
                where,
                f"duplicate id {item.id!r} (first at {ITEMS}[{seen[item.id]}]); "
                "ids must be unique",
                field="id",
            )
        seen[item.id] = index
        items.append(item)
    return items


def _reference_rows(references: Any) -> Iterator[tuple[str, str, Reference]]:
    """``(where, id, reference)`` for each in-memory reference row."""
    for index, row in enumerate(_rows(references, "references")):
        where = f"{REFERENCES}[{index}]"
        if not isinstance(row, Mapping):
            raise _not_a_row(where, row, "{id, reference}")
        row = dict(row)
        value = row.get("id")
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            problem = f"must be a string or integer, got {value!r}" if "id" in row else "missing"
            raise InputFileError(where, f"{problem}; give every row an id", field="id")
        if set(row) == {"id", "reference"}:
            body, prefix = row["reference"], "reference"
        else:
            body, prefix = {k: v for k, v in row.items() if k != "id"}, ""
        yield where, str(value), parse_reference(body, path=where, prefix=prefix)


def attach_reference_records(items: list[StructuredItem], references: Any) -> list[StructuredItem]:
    """Give each item its reference from in-memory rows (dicts or a DataFrame's rows).

    Raises:
        InputFileError: duplicate id, an id that is no item, or an item that already
            has an inline reference, naming ``references records[i]``.
    """
    place = {
        item.id: f"items line {item.line}" if item.line else f"{ITEMS}[{index}]"
        for index, item in enumerate(items)
    }
    by_id = {item.id: item for item in items}
    found: dict[str, tuple[str, Reference]] = {}
    for where, item_id, reference in _reference_rows(references):
        if item_id in found:
            problem = f"duplicate id {item_id!r} (first at {found[item_id][0]})"
        elif item_id not in by_id:
            problem = f"id {item_id!r} is not in the items; fix or remove the row"
        elif by_id[item_id].reference is not None:
            problem = (
                f"item {item_id!r} already has an inline reference ({place[item_id]}); "
                "give it in one place only"
            )
        else:
            found[item_id] = (where, reference)
            continue
        raise InputFileError(where, problem, field="id")
    return [
        replace(item, reference=found[item.id][1]) if item.id in found else item
        for item in items
    ]


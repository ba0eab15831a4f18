"""Prediction files of one system, streamed into :class:`PredictionRow` records.

The format is chosen by suffix (under any compression suffix: ``.jsonl.gz``, ...;
the compression itself is recognised from the content), or by content for ``-``
(standard input) and a name without a known suffix (see
:func:`assay.io.sources.input_kind`). ``.jsonl``: one object per line (blank lines
skipped; bad JSON or a non-object line is an error naming file and line). ``.csv`` /
``.tsv``: a header row naming the columns, one prediction per row, the columns
mapped with the same id and prediction names as JSON fields (see
:mod:`assay.io.tabular`). ``.json`` and other JSON text: JSON Lines when the whole
text says so (:func:`looks_like_jsonl`), else one JSON document: a list of objects;
an object with an ``items`` object (keys are ids); or any other object, a mapping
from id to row, where a non-object value is the prediction itself.

Prediction text: an explicit field, else the first key *present* of
:data:`PREDICTION_FIELDS` (present-but-null gives ""); an ``answer`` object gives
its ``value``. Non-string values are rendered by :func:`assay.io.gold.value_to_text`.
Row ``status`` defaults to ``success``.

With ``released=Oddities()`` files are read as the released XL-DocBench evaluator
reads them: a ``.jsonl`` suffix in any case; an explicit field is ``row.get(field)``
(an object is scored as its JSON text); mapping keys are ids exactly as written;
``status`` is the text of ``row.get("status", "success")`` (an empty text is
``success``), compared and written as that text; a field no row has scores ""
everywhere; a name other than ``.jsonl`` holds one JSON document (JSON Lines only
when it is not one). What the strict reader refuses is noted instead (see
:mod:`assay.io.oddities`).
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assay.errors import InputFileError
from assay.io.gold import ID_FIELDS, row_id, value_to_text
from assay.io.jsondoc import parse_document, read_json
from assay.io.jsonl import iter_jsonl_stream, json_type
from assay.io.oddities import Oddities
from assay.io.sources import base_name, display_name, input_kind, open_source
from assay.io.tabular import iter_records
from assay.records import builder

PREDICTION_FIELDS = ("prediction", "model_answer", "answer", "response", "output")

#: Inputs whose empty cells (CSV/TSV) or nulls (Parquet) read as absent fields.
TABLE_KINDS = ("csv", "tsv", "parquet")


@dataclass(frozen=True, slots=True)
class PredictionRow:
    """One prediction as received: raw text, status and where it came from.

    Attributes:
        id: the question id (string, stripped).
        text: the prediction text ("" when null or absent).
        status: the row's status (``success`` when absent).
        field: the field the text came from, or ``None`` when no field was present.
        path: the file.
        line: 1-based line for JSONL files; the document's first line otherwise.
        key: the place inside a JSON document (``[3]``, ``items['q1']``), or ``None``.
        row_status: the status as the released per-question row writes it (its text),
            or ``None`` when not read as released.
    """

    id: str
    text: str
    status: str
    field: str | None
    path: str
    line: int | None
    key: str | None = None
    row_status: Any = None

    @property
    def location(self) -> str:
        """``file:line`` or ``file key`` for messages."""
        if self.key is not None:
            return f"{self.path} {self.key}"
        return f"{self.path}:{self.line}"


_new_row = builder(PredictionRow)  # PredictionRow(...) with every field, plain stores


@dataclass(frozen=True, slots=True)
class UnfieldedRow(PredictionRow):
    """A prediction row (an object) holding none of the fields its text is read from.

    Its text is "" (it is scored as empty). ``found`` names the row's own fields, in
    the row's order, so that a file whose rows all lack the prediction field can be
    refused with the fields it does have (:mod:`assay.evaluation.coverage`).
    ``cells``: the row comes from a table (CSV/TSV/Parquet), where an empty cell or a
    null is an absent field, so a row of a file with a prediction column may lack it.
    """

    found: tuple[str, ...] = ()
    cells: bool = False


def _row(
    row: dict[str, Any],
    qid: str,
    text: str,
    status: str,
    used: str | None,
    place: tuple[str, int | None, str | None],
    written: Any,
    cells: bool = False,
) -> PredictionRow:
    """The :class:`PredictionRow` of an object row (an :class:`UnfieldedRow` without a field)."""
    path, line, key = place
    if used is None:
        return UnfieldedRow(qid, text, status, None, path, line, key, written, tuple(row), cells)
    return _new_row(qid, text, status, used, path, line, key, written)


def prediction_text(
    row: dict[str, Any], field: str | None, released: bool = False
) -> tuple[str, str | None]:
    """The prediction text of a row and the field it came from.

    ``released``: an explicit field is ``row.get(field)``, an object scored as its JSON.
    """
    if released and field:
        return value_to_text(row.get(field)), field if field in row else None
    fields = (field,) if field else PREDICTION_FIELDS
    for name in fields:
        if name in row:
            value = row[name]
            if name == "answer" and isinstance(value, dict):
                value = value.get("value")
            return value_to_text(value), name
    return "", None


ODD_STATUS = "a status that is a list or object: its JSON text used, as released"
EMPTY_KEY = 'mapping key "": the released evaluator fails on it; assay counts it as an id'
NO_FIELD = "no row has the --prediction-field field: every prediction scored as '', as released"
SUFFIX = "suffix .jsonl in other letter case: read as JSONL, as released"
JSONL_NAME = (
    "JSON Lines under a name other than .jsonl: the released evaluator fails on it "
    "(json.load); assay reads it"
)


def _released_status(
    row: dict[str, Any], path: str, line: int | None, notes: Oddities
) -> tuple[str, Any]:
    """``(status, status as the row writes it)``, both the status as text, as released.

    The text comes first: :func:`value_to_text` of ``row.get("status", "success")``
    (null → "", ``0`` → ``"0"``, ``true`` → ``"True"``, a list or object → its JSON
    text), and an empty text is ``success``. That text is what the overflow check
    compares and what the per-question row writes.
    """
    status = row.get("status", "success")
    if type(status) is str:
        text = status or "success"
        return text, text
    if isinstance(status, (list, dict)):
        notes.note(path, line, ODD_STATUS)
    text = value_to_text(status) or "success"
    return text, text


def _status(row: dict[str, Any], path: str, line: int | None, key: str | None) -> str:
    status = row.get("status")
    if isinstance(status, (list, dict)):
        where = f" ({key})" if key else ""
        raise InputFileError(
            path,
            f"status{where} must be a string, got {json_type(status)} {status!r}",
            line=line,
            field="status",
        )
    return "success" if status is None else str(status)


def _from_row(
    row: dict[str, Any],
    field: str | None,
    path: str,
    line: int | None,
    key: str | None,
    notes: Oddities | None = None,
    cells: bool = False,
) -> PredictionRow:
    given = row.get("question_id")  # the usual row: a string id, a string prediction
    if type(given) is str and given.strip():
        qid: str | None = given.strip()  # what row_id gives for it
    else:
        qid = row_id(row, path, line, notes)
    if qid is None:
        where = f" ({key})" if key else ""
        raise InputFileError(
            path,
            f"prediction row{where} has no id; give one of {', '.join(ID_FIELDS)}",
            line=line,
            field="id",
        )
    value = row.get("prediction", row) if field is None else row
    used: str | None
    if type(value) is str:  # what prediction_text gives for it
        text, used = value, "prediction"
    else:
        text, used = prediction_text(row, field, notes is not None)
    if notes is None:
        status = row.get("status")
        if type(status) is not str:
            status = _status(row, path, line, key)
        return _row(row, qid, text, status, used, (path, line, key), None, cells)
    status, written = _released_status(row, path, line, notes)
    return _row(row, qid, text, status, used, (path, line, key), written, cells)


def row_from_record(
    row: dict[str, Any], field: str | None, path: str, line: int, notes: Oddities | None = None
) -> PredictionRow:
    """One JSONL row as a :class:`PredictionRow` (as :func:`iter_predictions` reads it)."""
    return _from_row(row, field, path, line, None, notes)


def _iter_mapping(
    mapping: dict[str, Any], field: str | None, path: str, prefix: str, notes: Oddities | None
) -> Iterator[PredictionRow]:
    """Rows of an id → row mapping: the key is the id; a non-object value is the prediction."""
    for key, value in mapping.items():
        where = f"{prefix}[{key!r}]"
        if notes is not None:
            yield _released_entry(key, value, field, path, where, notes)
            continue
        qid = str(key).strip()
        if isinstance(value, dict):
            text, used = prediction_text(value, field)
            status = _status(value, path, 1, where)
            yield _row(value, qid, text, status, used, (path, 1, where), None)
        else:
            yield PredictionRow(qid, value_to_text(value), "success", None, path, 1, where)


def _released_entry(
    key: str, value: Any, field: str | None, path: str, where: str, notes: Oddities
) -> PredictionRow:
    """One mapping entry as released: the key exactly as written is the id."""
    if key == "":
        notes.note(path, 1, EMPTY_KEY)
    if not isinstance(value, dict):
        return PredictionRow(key, value_to_text(value), "success", None, path, 1, where, "success")
    text, used = prediction_text(value, field, True)
    status, written = _released_status(value, path, 1, notes)
    return _row(value, key, text, status, used, (path, 1, where), written)


def _iter_document(
    source: str, field: str | None, notes: Oddities | None
) -> Iterator[PredictionRow]:
    yield from _document_rows(read_json(source, released=notes), display_name(source), field, notes)


def looks_like_jsonl(data: bytes) -> bool:
    """Whether bytes read from a name without a known suffix are JSONL, not one document.

    JSONL when the first non-blank line is a complete JSON object on its own and
    either another non-blank line follows or that object has an id field
    (:data:`~assay.io.gold.ID_FIELDS`); a document opening with ``[`` or spread over
    lines is one JSON document.
    """
    lines = [line for line in data.removeprefix(b"\xef\xbb\xbf").split(b"\n") if line.strip()]
    if not lines or not lines[0].lstrip().startswith(b"{"):
        return False
    try:
        first = json.loads(lines[0])
    except ValueError:  # an object spread over lines, or broken: read as one document
        return False
    return isinstance(first, dict) and (len(lines) > 1 or any(k in first for k in ID_FIELDS))


def _sniffed(
    source: str, path: str, field: str | None, notes: Oddities | None
) -> Iterator[PredictionRow]:
    """Rows of an input whose name says nothing (``<(cat preds)``): read once, by content."""
    with open_source(source) as handle:
        data = handle.read()
    if notes is not None:  # released: json.load of any name but .jsonl; JSONL only if that fails
        document = _released_document(data, path, notes)
        if document is not _NOT_A_DOCUMENT:
            yield from _document_rows(document, path, field, notes)
            return
        if looks_like_jsonl(data):
            notes.note(path, None, JSONL_NAME, 0)
    if looks_like_jsonl(data):
        for line, row in iter_jsonl_stream(io.BytesIO(data), path, released=notes):
            yield _from_row(row, field, path, line, None, notes)
    else:
        yield from _document_rows(parse_document(data, path, released=notes), path, field, notes)


_NOT_A_DOCUMENT = object()


def _released_document(data: bytes, path: str, notes: Oddities) -> Any:
    """The one JSON document ``data`` holds as released, or ``_NOT_A_DOCUMENT`` (JSONL, ...).

    Notes are kept only when it is one document (a failed try counts nothing).
    """
    before = notes.snapshot()
    try:
        return parse_document(data, path, released=notes)
    except InputFileError:
        notes.restore(before)
        return _NOT_A_DOCUMENT


def _document_rows(
    data: Any, path: str, field: str | None, notes: Oddities | None
) -> Iterator[PredictionRow]:
    if isinstance(data, list):
        for index, row in enumerate(data):
            if not isinstance(row, dict):
                raise InputFileError(
                    path,
                    f"element [{index}] is {json_type(row)}, expected an object",
                    line=1,
                )
            yield _from_row(row, field, path, 1, f"[{index}]", notes)
    elif isinstance(data, dict) and isinstance(data.get("items"), dict):
        yield from _iter_mapping(data["items"], field, path, "items", notes)
    elif isinstance(data, dict):
        yield from _iter_mapping(data, field, path, "", notes)
    else:
        raise InputFileError(path, f"expected a list or an object, got {json_type(data)}", line=1)


def iter_predictions(
    path: str | Path, field: str | None = None, *, released: Oddities | None = None
) -> Iterator[PredictionRow]:
    """Stream the prediction rows of one file, in file order (duplicates included).

    Args:
        path: the prediction file.
        field: take the text from this field only (``--prediction-field``).
        released: read as the released evaluator does, noting oddities here.

    Raises:
        InputFileError: unreadable file, bad JSON (with line), a non-object row, a row
            without id, or an explicit ``field`` that no row of the file has (noted
            instead with ``released``).
    """
    source, path = str(path), display_name(path)
    rows: Iterator[PredictionRow]
    kind = input_kind(source)
    if released is not None and kind == "json" and base_name(source).endswith(".jsonl"):
        released.note(path, None, SUFFIX, 0)
        kind = "jsonl"
    name = base_name(source)
    if kind in ("json", "jsonl") and not name.endswith(".jsonl") and not (
        released is not None and name.endswith(".json")  # released: json.load of a .json
    ):
        rows = _sniffed(source, path, field, released)  # JSON or JSONL: the whole text says
    elif kind != "json":
        cells = kind in TABLE_KINDS
        rows = (
            _from_row(row, field, path, line, None, released, cells)
            for line, row in iter_records(source, released=released)
        )
    else:
        rows = _iter_document(source, field, released)
    yield from field_checked(rows, path, field, released)


def iter_prediction_records(
    records: Sequence[dict[str, Any]],
    label: str,
    field: str | None = None,
    *,
    released: Oddities | None = None,
) -> Iterator[PredictionRow]:
    """Prediction rows from in-memory dicts, checked as file rows are.

    Each row's place is ``LABEL [index]`` (``atlas records [3]``), for messages.

    Raises:
        InputFileError: as :func:`iter_predictions`.
    """
    rows = (
        _from_row(row, field, label, None, f"[{index}]", released)
        for index, row in enumerate(records)
    )
    yield from field_checked(rows, label, field, released)


def field_checked(
    rows: Iterator[PredictionRow], path: str, field: str | None, released: Oddities | None
) -> Iterator[PredictionRow]:
    """Pass the rows on; an explicit ``field`` that no row has is refused (or noted)."""
    if field is None:
        yield from rows
        return
    seen = found = False
    count = 0
    for row in rows:
        seen, found = True, found or row.field is not None
        count += 1
        yield row
    if field is not None and seen and not found and released is not None:
        released.note(path, None, NO_FIELD, count)
    elif field is not None and seen and not found:
        raise InputFileError(
            path,
            f"no row has the field {field!r} named by --prediction-field; check the name "
            f"(default fields: {', '.join(PREDICTION_FIELDS)})",
            field=field,
        )

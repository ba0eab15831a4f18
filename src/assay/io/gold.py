"""Gold questions of a long-document QA benchmark (XL-DocBench layout), streamed.

One JSON object per line. The id is the first non-blank of ``question_id``,
``global_qa_id``, ``global_id``, ``id`` (a string or a number, converted to string,
stripped; a boolean, list or object id is an error rather than a coerced string).
``answer`` is ``{value, format, verification_rule}``, or the value itself when it is
not an object; a missing or empty format means ``Str``. A row without ``answer`` (or
an answer object without ``value``) is an error: it would be scored against "".
A gold file with no rows is an error. Labels come from
``task_type`` and ``metadata``; a missing or blank label is ``unknown``.

With ``released=Oddities()`` rows are read as the released XL-DocBench evaluator
reads them (see :func:`parse_released_row`): nothing above is refused, each
oddity is noted instead, and the per-question row keeps the raw labels.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assay.errors import InputFileError
from assay.io.jsonl import json_type
from assay.io.oddities import Oddities
from assay.io.sources import display_name, input_kind
from assay.io.tabular import iter_records

ID_FIELDS = ("question_id", "global_qa_id", "global_id", "id")
UNKNOWN = "unknown"


def value_to_text(value: Any) -> str:
    """Render a JSON value as answer text: null → "", bool → True/False, number → ``str()``.

    Lists and objects become JSON with sorted keys, non-ASCII kept, default separators.
    """
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, (bool, int, float)):
        return str(value)
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


ODD_ID = "an id that is a boolean, list or object: its str() used, as released"


def row_id(
    row: dict[str, Any],
    path: str | Path = "<row>",
    line: int | None = None,
    released: Oddities | None = None,
) -> str | None:
    """The first non-blank id field of a row, as a stripped string, or ``None``.

    Raises:
        InputFileError: an id field holds a boolean, list or object (naming the field),
            unless ``released`` is given: then its ``str()`` is the id, and it is noted.
    """
    for key in ID_FIELDS:
        value = row.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            if released is not None:
                released.note(path, line, ODD_ID)
                return str(value).strip()  # never blank: "True", "[1]", "{}"
            raise InputFileError(
                path,
                f"an id must be a string or a number, got {json_type(value)} {value!r}; "
                "write the id as a string",
                line=line,
                field=key,
            )
        if str(value).strip():
            return str(value).strip()
    return None


def label(value: Any) -> str:
    """A breakdown label: the value as a string, or ``unknown`` when missing or blank."""
    if value is None or not str(value).strip():
        return UNKNOWN
    return str(value)


def label_list(value: Any) -> tuple[str, ...]:
    """Evidence sources as labels: a scalar is wrapped; empty or missing → ``(unknown,)``."""
    if value is None or value == "":
        return (UNKNOWN,)
    items = value if isinstance(value, list) else [value]
    return tuple(label(item) for item in items) or (UNKNOWN,)


@dataclass(frozen=True, slots=True)
class DocumentRef:
    """A document a question refers to, with its 1-based evidence pages."""

    document_id: str
    evidence_pages: tuple[Any, ...]

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form."""
        return {"document_id": self.document_id, "evidence_pages": list(self.evidence_pages)}


@dataclass(frozen=True, slots=True)
class GoldQuestion:
    """One gold question, with the file and line it came from."""

    id: str
    value: Any
    answer: str
    format: str
    verification_rule: str
    split: str
    domain: str
    reasoning_type: str
    difficulty: str
    doc_type: str
    evidence_sources: tuple[str, ...]
    is_unanswerable: bool
    documents: tuple[DocumentRef, ...]
    path: str
    line: int | None
    format_label: str | None = None
    row_labels: tuple[Any, Any, Any, Any] | None = None

    @property
    def location(self) -> str:
        """``file:line``, or ``gold records[i]`` for an in-memory record."""
        return self.path if self.line is None else f"{self.path}:{self.line}"

    @property
    def answer_format_label(self) -> str:
        """The ``answer_format`` breakdown label (the released one under ``released``)."""
        return self.format if self.format_label is None else self.format_label

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form."""
        return {
            "id": self.id,
            "answer": self.answer,
            "format": self.format,
            "verification_rule": self.verification_rule,
            "split": self.split,
            "domain": self.domain,
            "reasoning_type": self.reasoning_type,
            "difficulty": self.difficulty,
            "doc_type": self.doc_type,
            "evidence_sources": list(self.evidence_sources),
            "is_unanswerable": self.is_unanswerable,
            "documents": [d.to_dict() for d in self.documents],
            "path": self.path,
            "line": self.line,
        }


def _documents(row: dict[str, Any]) -> tuple[DocumentRef, ...]:
    raw = row.get("documents")
    items = raw if isinstance(raw, list) else []
    if isinstance(row.get("document"), dict):
        items = [row["document"], *items]
    refs = []
    for item in items:
        if isinstance(item, dict):
            pages = item.get("evidence_pages")
            pages = tuple(pages) if isinstance(pages, list) else ()
            refs.append(DocumentRef(label(item.get("document_id")), pages))
    return tuple(refs)


def _answer(row: dict[str, Any], path: str, line: int | None) -> tuple[Any, Any, Any]:
    """``(value, format, verification_rule)`` of a row; a missing answer is an error."""
    if "answer" not in row:
        raise InputFileError(
            path,
            "missing; give the gold answer (null if the question has none)",
            line=line,
            field="answer",
        )
    answer = row["answer"]
    if not isinstance(answer, dict):
        return answer, None, None
    if "value" not in answer:
        raise InputFileError(
            path,
            "missing; an answer object needs a value (null if the question has none)",
            line=line,
            field="answer.value",
        )
    for key in ("format", "verification_rule"):
        if answer.get(key) is not None and not isinstance(answer[key], str):
            raise InputFileError(
                path,
                f"must be a string, got {json_type(answer[key])} {answer[key]!r}",
                line=line,
                field=f"answer.{key}",
            )
    return answer["value"], answer.get("format"), answer.get("verification_rule")


LABEL_FIELDS = ("domain", "reasoning_type", "difficulty", "doc_type")


def _metadata(row: dict[str, Any], path: str, line: int | None) -> dict[str, Any]:
    """The row's ``metadata`` object, its labels checked to be scalars (``{}`` when absent).

    Raises:
        InputFileError: ``metadata`` is not an object, a label is a list or object, an
            evidence source is a list or object, or ``is_unanswerable`` is not a boolean.
    """
    meta = row.get("metadata")
    if meta is None:
        meta = {}
    if not isinstance(meta, dict):
        raise InputFileError(
            path, f"must be an object, got {json_type(meta)}", line=line, field="metadata"
        )
    labels = [("task_type", row.get("task_type"))]
    labels += [(f"metadata.{key}", meta.get(key)) for key in LABEL_FIELDS]
    sources = meta.get("evidence_sources")
    labels += [
        ("metadata.evidence_sources", s)
        for s in (sources if isinstance(sources, list) else [sources])
    ]
    for field, value in labels:
        if isinstance(value, (list, dict)):
            raise InputFileError(
                path,
                f"a label must be a string, got {json_type(value)} {value!r}",
                line=line,
                field=field,
            )
    flag = meta.get("is_unanswerable")
    if flag is not None and not isinstance(flag, bool):
        raise InputFileError(
            path,
            f"must be true or false, got {json_type(flag)} {flag!r}",
            line=line,
            field="metadata.is_unanswerable",
        )
    return meta


def parse_gold_row(row: dict[str, Any], path: str, line: int | None) -> GoldQuestion:
    """Build a :class:`GoldQuestion` from one parsed row.

    Raises:
        InputFileError: the row has no id, an id of the wrong type, no answer, an
            answer format/rule that is not a string, or malformed metadata.
    """
    qid = _required_id(row, path, line, None)
    answer = _answer(row, path, line)
    meta = _metadata(row, path, line)
    return _question(qid, answer, meta, row, path, line, label, label_list, row.get("task_type"))


def _required_id(
    row: dict[str, Any], path: str, line: int | None, notes: Oddities | None
) -> str:
    """The row's id (see :func:`row_id`); a row without one is an error, in both readings."""
    qid = row_id(row, path, line, notes)
    if qid is None:
        raise InputFileError(
            path, f"no question id; give one of {', '.join(ID_FIELDS)}", line=line, field="id"
        )
    return qid


def _question(
    qid: str,
    answer: tuple[Any, ...],
    meta: dict[str, Any],
    row: dict[str, Any],
    path: str,
    line: int | None,
    label_of: Callable[[Any], str],
    sources_of: Callable[[Any], tuple[str, ...]],
    split: Any,
    **released: Any,
) -> GoldQuestion:
    """The :class:`GoldQuestion` of a checked row, its labels read by ``label_of``."""
    value, fmt, rule = answer
    return GoldQuestion(
        id=qid,
        value=value,
        answer=value_to_text(value),
        format=value_to_text(fmt) or "Str",  # the strict reader gives a string or None
        verification_rule=value_to_text(rule),
        split=label_of(split),
        domain=label_of(meta.get("domain")),
        reasoning_type=label_of(meta.get("reasoning_type")),
        difficulty=label_of(meta.get("difficulty")),
        doc_type=label_of(meta.get("doc_type")),
        evidence_sources=sources_of(meta.get("evidence_sources")),
        is_unanswerable=meta.get("is_unanswerable") is True,
        documents=_documents(row),
        path=path,
        line=line,
        **released,
    )


ANSWER_COLUMNS = ("format", "verification_rule")
FLAT_FLAG = "is_unanswerable"


def is_flat_row(record: dict[str, Any]) -> bool:
    """True for a Parquet gold row in the CSV shape: no ``metadata``, a plain ``answer``."""
    return "metadata" not in record and not isinstance(record.get("answer"), dict)


def nest_flat_row(record: dict[str, Any]) -> dict[str, Any]:
    """A CSV/TSV gold row (all text) in the nested JSONL shape.

    ``answer`` with ``format`` and ``verification_rule`` columns becomes the answer
    object; ``domain``, ``reasoning_type``, ``difficulty``, ``doc_type``,
    ``evidence_sources`` and ``is_unanswerable`` (``true``/``false``, any case)
    become ``metadata``; every other column (ids, ``task_type``) stays as it is.
    """
    row = {k: v for k, v in record.items() if k not in (*ANSWER_COLUMNS, *LABEL_FIELDS)}
    row.pop("evidence_sources", None)
    row.pop(FLAT_FLAG, None)
    if "answer" in record:
        extra = {k: record[k] for k in ANSWER_COLUMNS if k in record}
        row["answer"] = {"value": record["answer"], **extra} if extra else record["answer"]
    meta: dict[str, Any] = {
        k: record[k] for k in (*LABEL_FIELDS, "evidence_sources") if k in record
    }
    flag = record.get(FLAT_FLAG)
    if isinstance(flag, str):
        meta[FLAT_FLAG] = {"true": True, "false": False}.get(flag.strip().lower(), flag)
    elif flag is not None:  # a Parquet boolean column
        meta[FLAT_FLAG] = flag
    if meta:
        row["metadata"] = meta
    return row


def iter_gold(path: str | Path, released: Oddities | None = None) -> Iterator[GoldQuestion]:
    """Stream the gold questions of one JSONL, CSV/TSV or Parquet file.

    CSV/TSV rows, and Parquet rows without ``metadata`` whose ``answer`` is plain text,
    are in the flat shape :func:`nest_flat_row` nests.

    Raises:
        InputFileError: as :func:`parse_gold_row`, or the file holds no rows (with
            ``released``: noted instead, the released evaluator reads it as no questions).
    """
    count, name = 0, display_name(path)
    kind = input_kind(path)
    for line, row in iter_records(path, released=released):
        count += 1
        if kind in ("csv", "tsv") or (kind == "parquet" and is_flat_row(row)):
            row = nest_flat_row(row)
        if released is None:
            yield parse_gold_row(row, name, line)
        else:
            yield parse_released_row(row, name, line, released)
    if count == 0 and released is not None:
        released.note(path, None, EMPTY_GOLD, 0)
    elif count == 0:
        raise InputFileError(
            path, "no gold questions (the file is empty or blank); check the gold file path"
        )


def read_gold(
    paths: Sequence[str | Path], *, released: Oddities | None = None
) -> list[GoldQuestion]:
    """Read several gold files in order; ids must be unique across all of them.

    With ``released``, rows are read as the released evaluator reads them and an
    empty gold file is noted, not refused, even when every gold file is empty (the
    released evaluator scores no questions then).

    Raises:
        InputFileError: a row without id, bad JSON, a duplicate id (naming both places),
            or (not ``released``) no question in any file.
    """
    seen: dict[str, GoldQuestion] = {}
    files: set[Path] = set()
    for path in paths:
        if Path(path).resolve() in files:
            raise InputFileError(path, "this gold file is given twice; give each gold file once")
        files.add(Path(path).resolve())
        _add_unique(seen, iter_gold(path, released))
    if not seen and released is None:
        raise InputFileError(
            paths[0], "no gold questions in any gold file (all empty or blank); check the paths"
        )
    return list(seen.values())


def _add_unique(seen: dict[str, GoldQuestion], questions: Iterable[GoldQuestion]) -> None:
    for question in questions:
        first = seen.get(question.id)
        if first is not None:
            raise InputFileError(
                question.path,
                f"duplicate question id {question.id!r} (first at {first.location}); "
                "gold ids must be unique across gold files",
                line=question.line,
                field="id",
            )
        seen[question.id] = question


RECORDS = "gold records"


def read_gold_records(
    records: Sequence[dict[str, Any]], *, released: Oddities | None = None
) -> list[GoldQuestion]:
    """Gold questions from in-memory rows (dicts in the JSONL shape), checked as file rows.

    Messages name the row index: ``gold records[3]: field 'answer': missing; ...``.

    Raises:
        InputFileError: as :func:`parse_gold_row`, a duplicate id, or no rows at all.
    """
    seen: dict[str, GoldQuestion] = {}
    rows = ((f"{RECORDS}[{index}]", row) for index, row in enumerate(records))
    _add_unique(seen, (
        parse_gold_row(row, where, None) if released is None
        else parse_released_row(row, where, None, released)
        for where, row in rows
    ))  # fmt: skip
    if not seen:
        raise InputFileError(RECORDS, "no gold questions (the list is empty); give some rows")
    return list(seen.values())


# --- reading as the released evaluator -------------------------------------------------

EMPTY_GOLD = "gold file without questions: read as none, as released"
NO_ANSWER = (
    "a gold row without 'answer' (or an answer without 'value'): scored against '', as released"
)
ODD_FORMAT = (
    "an answer format or verification rule that is not a string: its text used, as released"
)
ODD_LABEL = "a label or evidence source that is a list or object: its JSON text used, as released"
ODD_METADATA = "metadata that is not an object: read as {}, as released"
ODD_FLAG = "is_unanswerable that is not true/false: ignored, as released"
DEFAULT_FORMAT = "Str"


def released_label(value: Any) -> str:
    """A breakdown label as released: the value's text, ``unknown`` when that is empty.

    Null and ``""`` are ``unknown``; blanks are kept; ``0`` is ``"0"``, ``false``
    ``"False"``; a list or object is its JSON text (:func:`value_to_text`).
    """
    return value_to_text(value) or UNKNOWN


def released_sources(value: Any) -> tuple[str, ...]:
    """Evidence sources as released: a falsy value (0, false, "", [], {}) → ``(unknown,)``.

    Anything else that is not a list is one source; each source is :func:`released_label`.
    """
    if not value:
        return (UNKNOWN,)
    items = value if isinstance(value, list) else [value]
    return tuple(released_label(item) for item in items)


def _released_answer(
    row: dict[str, Any], path: str, line: int | None, notes: Oddities
) -> tuple[dict[str, Any], tuple[Any, ...]]:
    """The answer object as released (``answer`` absent → ``{}``; not an object → its value).

    Returns it with ``(value, format text, rule text)``: an absent value is ``""``, an
    absent format ``Str``, a format whose text is empty ``Str`` too.
    """
    answer = row.get("answer", {})
    payload = answer if isinstance(answer, dict) else {"value": answer}
    if "value" not in payload:
        notes.note(path, line, NO_ANSWER)
    fmt = payload.get("format", DEFAULT_FORMAT)
    rule = payload.get("verification_rule", "")
    if not isinstance(fmt, str) or not isinstance(rule, str):
        notes.note(path, line, ODD_FORMAT)
    return payload, (payload.get("value", ""), value_to_text(fmt), value_to_text(rule))


def _released_metadata(
    row: dict[str, Any], path: str, line: int | None, notes: Oddities
) -> dict[str, Any]:
    meta = row.get("metadata", {})
    if not isinstance(meta, dict):
        if meta is not None:  # a null reads as {} in both readings
            notes.note(path, line, ODD_METADATA)
        meta = {}
    sources = meta.get("evidence_sources")
    values = [row.get("task_type"), *(meta.get(k) for k in LABEL_FIELDS)]
    values += sources if isinstance(sources, list) else [sources]
    if any(isinstance(v, (list, dict)) for v in values):
        notes.note(path, line, ODD_LABEL)
    flag = meta.get("is_unanswerable")
    if flag is not None and not isinstance(flag, bool):
        notes.note(path, line, ODD_FLAG)
    return meta


def parse_released_row(
    row: dict[str, Any], path: str, line: int | None, notes: Oddities
) -> GoldQuestion:
    """A :class:`GoldQuestion` read as the released evaluator reads a gold row.

    Absent keys take the released defaults, present nulls stay null: the answer is
    ``row.get("answer", {})`` (not an object: ``{"value": answer}``), its value
    ``.get("value", "")``, its format ``.get("format", "Str")`` (typed by its text,
    an empty text meaning ``Str``), its rule's text types an unmapped format. The
    per-question row keeps that format as written, ``split`` is the text of
    ``row.get("task_type", "unknown")``, ``domain`` and ``reasoning_type`` are
    ``metadata.get(KEY, "unknown")`` as written. Breakdown labels are
    :func:`released_label` of the values as written (an absent format is
    ``unknown`` there). Oddities the strict reader refuses are noted in ``notes``.

    Raises:
        InputFileError: the row has no id.
    """
    qid = _required_id(row, path, line, notes)
    payload, answer = _released_answer(row, path, line, notes)
    meta = _released_metadata(row, path, line, notes)
    split = value_to_text(row.get("task_type", UNKNOWN))
    domain, reasoning = meta.get("domain", UNKNOWN), meta.get("reasoning_type", UNKNOWN)
    return _question(
        qid, answer, meta, row, path, line, released_label, released_sources, split,
        format_label=released_label(payload.get("format")),
        row_labels=(payload.get("format", DEFAULT_FORMAT), split, domain, reasoning),
    )  # fmt: skip

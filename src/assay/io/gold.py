"""Gold questions of a long-document QA benchmark (XL-DocBench layout), streamed.

One JSON object per line. The id is the first non-blank of ``question_id``,
``global_qa_id``, ``global_id``, ``id`` (a string or a number, converted to string,
stripped; a boolean, list or object id is an error rather than a coerced string).
``answer`` is ``{value, format, verification_rule}``, or the value itself when it is
not an object; a missing or empty format means ``Str``. A row without ``answer`` (or
an answer object without ``value``) is an error: it would be scored against "".
A gold file with no rows is an error. Labels come from
``task_type`` and ``metadata``; a missing or blank label is ``unknown``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assay.errors import InputFileError
from assay.io.jsonl import iter_jsonl, json_type

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


def row_id(row: dict[str, Any], path: str | Path = "<row>", line: int | None = None) -> str | None:
    """The first non-blank id field of a row, as a stripped string, or ``None``.

    Raises:
        InputFileError: an id field holds a boolean, list or object (naming the field).
    """
    for key in ID_FIELDS:
        value = row.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
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
    line: int

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


def _answer(row: dict[str, Any], path: str, line: int) -> tuple[Any, Any, Any]:
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


def _metadata(row: dict[str, Any], path: str, line: int) -> dict[str, Any]:
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


def parse_gold_row(row: dict[str, Any], path: str, line: int) -> GoldQuestion:
    """Build a :class:`GoldQuestion` from one parsed row.

    Raises:
        InputFileError: the row has no id, an id of the wrong type, no answer, an
            answer format/rule that is not a string, or malformed metadata.
    """
    qid = row_id(row, path, line)
    if qid is None:
        raise InputFileError(
            path, f"no question id; give one of {', '.join(ID_FIELDS)}", line=line, field="id"
        )
    value, fmt, rule = _answer(row, path, line)
    meta = _metadata(row, path, line)
    return GoldQuestion(
        id=qid,
        value=value,
        answer=value_to_text(value),
        format=str(fmt) if fmt else "Str",
        verification_rule=str(rule) if rule else "",
        split=label(row.get("task_type")),
        domain=label(meta.get("domain")),
        reasoning_type=label(meta.get("reasoning_type")),
        difficulty=label(meta.get("difficulty")),
        doc_type=label(meta.get("doc_type")),
        evidence_sources=label_list(meta.get("evidence_sources")),
        is_unanswerable=meta.get("is_unanswerable") is True,
        documents=_documents(row),
        path=path,
        line=line,
    )


def iter_gold(path: str | Path) -> Iterator[GoldQuestion]:
    """Stream the gold questions of one JSONL file, in file order.

    Raises:
        InputFileError: as :func:`parse_gold_row`, or the file holds no rows.
    """
    count = 0
    for line, row in iter_jsonl(path):
        count += 1
        yield parse_gold_row(row, str(path), line)
    if count == 0:
        raise InputFileError(
            path, "no gold questions (the file is empty or blank); check the gold file path"
        )


def read_gold(paths: Sequence[str | Path]) -> list[GoldQuestion]:
    """Read several gold files in order; ids must be unique across all of them.

    Raises:
        InputFileError: a row without id, bad JSON, or a duplicate id (naming both places).
    """
    seen: dict[str, GoldQuestion] = {}
    files: set[Path] = set()
    for path in paths:
        if Path(path).resolve() in files:
            raise InputFileError(path, "this gold file is given twice; give each gold file once")
        files.add(Path(path).resolve())
        for question in iter_gold(path):
            first = seen.get(question.id)
            if first is not None:
                raise InputFileError(
                    path,
                    f"duplicate question id {question.id!r} (first at {first.path}:{first.line}); "
                    "gold ids must be unique across gold files",
                    line=question.line,
                    field="id",
                )
            seen[question.id] = question
    return list(seen.values())

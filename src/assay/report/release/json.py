"""JSON reports: the released XL-DocBench layout, plus assay's provenance block.

Released layout (key order kept): gold_count, prediction_count, evaluated_count,
missing_prediction_count, extra_prediction_count, overall, breakdowns, per_question.
Numbers are rounded to 6 decimals here (never earlier); text is written with a
2-space indent and non-ASCII kept. Under the ``xldocbench`` profile a single-system
report is exactly that layout, without a final newline as released; the ``assay``
profile appends an ``assay`` object (profile, version, fingerprint, signatures,
options, accounting, duplicates).
"""

from __future__ import annotations

import operator
from pathlib import Path
from typing import Any

from assay.errors import InputFileError
from assay.evaluation.benchmark import (
    PER_QUESTION_FIELDS,
    RELEASED_ROW_FIELDS,
    Aggregate,
    QuestionResult,
    SystemResult,
)
from assay.evaluation.runs import EvaluationResult
from assay.io.json_text import dumps_indented
from assay.io.jsondoc import read_json
from assay.io.jsonl import json_type
from assay.report.csv_guard import guards_profile, policy

DECIMALS = 6


def rounded(value: float) -> float:
    """A number as written in reports."""
    return round(value, DECIMALS)


_QUESTION_FIELDS = operator.attrgetter(*PER_QUESTION_FIELDS)
_SCORE_NAMES = ("accuracy", "token_f1", "anls")


def aggregate_dict(aggregate: Aggregate) -> dict[str, Any]:
    """``{count, accuracy, token_f1, anls}`` rounded."""
    return {
        "count": aggregate.count,
        "accuracy": rounded(aggregate.accuracy),
        "token_f1": rounded(aggregate.token_f1),
        "anls": rounded(aggregate.anls),
    }


def question_dict(
    question: QuestionResult, seen: dict[float, float] | None = None
) -> dict[str, Any]:
    """One released per-question row, rounded (``question.to_dict()`` with rounded scores).

    ``seen`` remembers rounded scores across calls (scores repeat: 0, 1, 1/2, 2/3, ...).
    """
    row = dict(zip(PER_QUESTION_FIELDS, _QUESTION_FIELDS(question), strict=True))
    if question.released_row is not None:
        row.update(zip(RELEASED_ROW_FIELDS, question.released_row, strict=True))
    row.update(zip(_SCORE_NAMES, rounded_scores(question, seen), strict=True))
    return row


def rounded_scores(
    question: QuestionResult, seen: dict[float, float] | None = None
) -> tuple[float, float, float]:
    """``(accuracy, token_f1, anls)`` rounded; ``seen`` remembers roundings across calls."""
    seen = {} if seen is None else seen
    out = []
    for value in (question.accuracy, question.token_f1, question.anls):
        if type(value) is float and value:  # 1 and 1.0, 0.0 and -0.0: equal keys, other text
            found = seen.get(value)
            if found is None:
                found = seen[value] = round(value, DECIMALS)
            out.append(found)
        else:
            out.append(round(value, DECIMALS))
    return out[0], out[1], out[2]


_SCORES_AT = PER_QUESTION_FIELDS.index("accuracy")  # accuracy, token_f1, anls: in that order
assert PER_QUESTION_FIELDS[_SCORES_AT : _SCORES_AT + 3] == _SCORE_NAMES  # noqa: S101 - a layout fact


def question_rows(
    system: SystemResult, seen: dict[float, float] | None = None
) -> list[dict[str, Any]]:
    """Every per-question row of a system (:func:`question_dict`), in gold order.

    A question without a released row is built from one list of its fields, the
    rounded scores put in place (the same dict, in the same key order, as
    :func:`question_dict` makes).
    """
    seen = {} if seen is None else seen
    rows = []
    at, names = _SCORES_AT, PER_QUESTION_FIELDS
    for q in system.questions:
        if q.released_row is not None:
            rows.append(question_dict(q, seen))
            continue
        values = list(_QUESTION_FIELDS(q))
        values[at : at + 3] = rounded_scores(q, seen)
        rows.append(dict(zip(names, values)))  # noqa: B905 - one value per field
    return rows


def release_report(
    system: SystemResult,
    *,
    per_question: bool = True,
    rows: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """One system's report in the released key order (``rows``: its question rows, if made)."""
    report: dict[str, Any] = {
        "gold_count": system.gold_count,
        "prediction_count": system.prediction_count,
        "evaluated_count": system.evaluated_count,
        "missing_prediction_count": system.missing_prediction_count,
        "extra_prediction_count": system.extra_prediction_count,
        "overall": aggregate_dict(system.overall),
        "breakdowns": {
            dim: {lab: aggregate_dict(agg) for lab, agg in labels}
            for dim, labels in system.breakdowns
        },
    }
    if per_question:
        report["per_question"] = question_rows(system) if rows is None else rows
    return report


def leaderboard_row(system: SystemResult) -> dict[str, Any]:
    """One leaderboard entry: the system, its rounded means and its counts."""
    return {
        "system": system.system,
        **aggregate_dict(system.overall),
        "gold_count": system.gold_count,
        "missing_prediction_count": system.missing_prediction_count,
        "extra_prediction_count": system.extra_prediction_count,
    }


def accounting_dict(system: SystemResult) -> dict[str, Any]:
    """Buckets, their total and the duplicates of one system."""
    buckets = dict(system.accounting)
    return {
        "total": system.gold_count,
        "buckets": buckets,
        "duplicates": [d.to_dict() for d in system.duplicates],
    }


def provenance_block(result: EvaluationResult) -> dict[str, Any]:
    """The ``assay`` block: provenance and, per system, the accounting."""
    block = result.provenance()
    block["csv_formula_policy"] = policy(guards_profile(result.profile))
    block["accounting"] = {s.system: accounting_dict(s) for s in result.systems}
    return block


def report_document(
    result: EvaluationResult,
    *,
    per_question: bool = True,
    rows: dict[str, list[dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """The JSON report of a run (see module docstring for the layouts).

    ``rows``: each system's question rows (:func:`question_rows`) when already made.
    """
    rows = rows or {}
    if len(result.systems) == 1:
        system = result.systems[0]
        document = release_report(system, per_question=per_question, rows=rows.get(system.system))
        if result.profile != "xldocbench":
            document["assay"] = provenance_block(result)
        return document
    return {
        "leaderboard": [leaderboard_row(s) for s in result.leaderboard()],
        "systems": {
            s.system: release_report(s, per_question=per_question, rows=rows.get(s.system))
            for s in result.systems
        },
        "assay": provenance_block(result),
    }


def dumps(document: Any, *, final_newline: bool = True) -> str:
    """Serialise like the released evaluator: 2-space indent, non-ASCII kept.

    The released evaluator writes no final newline (``final_newline=False``, used
    under the ``xldocbench`` profile); assay's own files end with one.
    """
    return dumps_indented(document, ensure_ascii=False) + ("\n" if final_newline else "")


def sidecar_path(report_path: str | Path) -> Path:
    """Where the ``xldocbench`` provenance sidecar of a report lives (``NAME.provenance.json``)."""
    path = Path(report_path)
    return path.with_name(path.stem + ".provenance.json")


def read_report(path: str | Path) -> Any:
    """Read a saved report; a released report without provenance gets its sidecar's.

    Under the ``xldocbench`` profile the report keeps the released layout and the
    provenance (profile, fingerprint, signatures) goes to ``NAME.provenance.json``
    next to it. When that file exists, it is attached as the ``assay`` block so
    ``assay diff`` and ``assay report`` see what produced the numbers.

    Raises:
        InputFileError: unreadable or invalid JSON, not a JSON object, or a saved
            assay document with a missing or mistyped field.
    """
    document = read_json(path)
    if not isinstance(document, dict):
        raise InputFileError(
            path,
            f"expected a JSON object (a saved assay report), got {json_type(document)}; "
            "give a file written by `assay eval --output` or `--result-json`",
        )
    if "kind" in document:
        from assay.report.result.schema import check_saved_document

        check_saved_document(document, path)
        return document
    if "assay" in document:
        return document
    sidecar = sidecar_path(path)
    if sidecar.is_file():
        block = read_json(sidecar)
        if isinstance(block, dict) and "evaluator_sha256" in block:
            document["assay"] = block
    return document

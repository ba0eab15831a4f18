"""Rebuild an :class:`EvaluationResult` from a saved ``report.json`` (no raw inputs).

``assay report`` and ``assay compare`` accept the released report layouts too: a
single-system report (``per_question`` rows, optional ``assay`` provenance block)
or a multi-system one (``systems`` of such reports). The per-question rows carry
the question id, prediction, gold, format, status, the three scores, split, domain
and reasoning type; what they do not carry — difficulty, document type, evidence
sources and document ids — becomes ``"n/a"`` (so intervals use the iid standard
error; the scores are the report's 6-decimal ones), and each row's accounting
bucket is re-derived from its status and prediction as alignment assigns it.
Statistics are then computed from the per-question scores like for a fresh run.
"""

from __future__ import annotations

from typing import Any

from assay.errors import InputFileError
from assay.evaluation.align import BUCKETS, check_accounting
from assay.evaluation.benchmark import QuestionResult, SystemResult, breakdowns, mean_aggregate
from assay.evaluation.profiles import SUBSTITUTED_STATUSES
from assay.evaluation.runs import EvaluationResult
from assay.io.jsonl import json_type

NOT_RECORDED = "n/a"


def is_release_report(document: Any) -> bool:
    """Whether ``document`` looks like a released single- or multi-system report."""
    if not isinstance(document, dict):
        return False
    if isinstance(document.get("per_question"), list):
        return True
    systems = document.get("systems")
    return isinstance(systems, dict) and all(
        isinstance(s, dict) and "per_question" in s for s in systems.values()
    )


def _bucket(row: dict[str, Any]) -> str:
    status = str(row.get("status", "success"))
    if status == "missing":
        return "missing"
    if status in SUBSTITUTED_STATUSES:
        return "status_substituted"
    return "scored" if str(row.get("prediction", "")).strip() else "empty"


_SCORES = ("accuracy", "token_f1", "anls")
_COUNTS = ("prediction_count", "missing_prediction_count", "extra_prediction_count")


def _bad(path: str, where: str, problem: str) -> InputFileError:
    return InputFileError(
        path, f"{problem}; re-create the report with `assay eval --output`", field=where
    )


def _score(row: dict[str, Any], name: str, path: str, where: str) -> float:
    """A per-question score: a finite number from 0 to 1 (booleans are not scores)."""
    value = row.get(name)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        problem = "missing" if name not in row else f"must be a number, got {json_type(value)}"
        raise _bad(path, f"{where}.{name}", problem)
    if not 0.0 <= value <= 1.0:
        raise _bad(path, f"{where}.{name}", f"must be a score from 0 to 1, got {value!r}")
    return float(value)


def _question(row: Any, path: str, where: str) -> QuestionResult:
    """One per-question row: the id a string or a number, the scores numbers from 0 to 1.

    Labels are kept as written (released rows carry raw values such as a ``null`` domain).
    """
    if not isinstance(row, dict):
        raise _bad(path, where, f"must be an object, got {json_type(row)}")
    qid = row.get("question_id")
    if isinstance(qid, bool) or not isinstance(qid, (str, int, float)):
        problem = (
            "missing" if "question_id" not in row else f"must be a string, got {json_type(qid)}"
        )
        raise _bad(path, f"{where}.question_id", problem)
    accuracy, token_f1, anls = (_score(row, name, path, where) for name in _SCORES)
    return QuestionResult(
        question_id=str(qid),
        prediction=str(row.get("prediction", "")),
        gold_answer=str(row.get("gold_answer", "")),
        answer_format=str(row.get("answer_format", NOT_RECORDED)),
        status=str(row.get("status", "success")),
        accuracy=accuracy,
        token_f1=token_f1,
        anls=anls,
        split=str(row.get("split", NOT_RECORDED)),
        domain=str(row.get("domain", NOT_RECORDED)),
        reasoning_type=str(row.get("reasoning_type", NOT_RECORDED)),
        difficulty=NOT_RECORDED,
        doc_type=NOT_RECORDED,
        evidence_sources=(NOT_RECORDED,),
        answer_type=NOT_RECORDED,
        bucket=_bucket(row),
        raw_prediction=None,
    )


def _count(report: dict[str, Any], name: str, default: int, path: str, prefix: str) -> int:
    """A saved count: a whole number ≥ 0 (``[1]``, ``"3"``, ``true`` or ``1.5`` refused)."""
    value = report.get(name, default)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        shown = f"{json_type(value)} {value!r}"
        raise _bad(path, f"{prefix}{name}", f"must be a whole number ≥ 0, got {shown[:60]}")
    return value


def _system(name: str, report: dict[str, Any], path: str, prefix: str = "") -> SystemResult:
    rows = report["per_question"]
    if not isinstance(rows, list):
        raise _bad(path, f"{prefix}per_question", f"must be a list, got {json_type(rows)}")
    questions = tuple(
        _question(row, path, f"{prefix}per_question[{i}]") for i, row in enumerate(rows)
    )
    gold_count = _count(report, "gold_count", len(questions), path, prefix)
    if gold_count < len(questions):
        raise _bad(
            path, f"{prefix}gold_count",
            f"is {gold_count}, fewer than the {len(questions)} per-question rows",
        )  # fmt: skip
    counts = dict.fromkeys(BUCKETS, 0)
    for q in questions:
        counts[q.bucket] += 1
    counts["missing"] += gold_count - len(questions)  # rows left out by --ignore-missing
    check_accounting(counts, gold_count)
    saved = {
        key: _count(
            report, key, counts["missing"] if key.startswith("missing") else 0, path, prefix
        )
        for key in _COUNTS
    }
    return SystemResult(
        system=name,
        prediction_files=(),
        gold_count=gold_count,
        prediction_count=saved["prediction_count"],
        evaluated_count=len(questions),
        missing_prediction_count=saved["missing_prediction_count"],
        extra_prediction_count=saved["extra_prediction_count"],
        overall=mean_aggregate(questions),
        breakdowns=breakdowns(questions),
        questions=questions,
        accounting=tuple(counts.items()),
        duplicates=(),
    )


def _provenance(document: dict[str, Any], path: str) -> dict[str, Any]:
    """The saved ``assay`` block, its fields type-checked (absent: ``{}``)."""
    saved = document.get("assay")
    if not isinstance(saved, dict):
        return {}
    for key in ("metric_signatures", "options"):
        if saved.get(key) is not None and not isinstance(saved[key], dict):
            raise _bad(path, f"assay.{key}", f"must be an object, got {json_type(saved[key])}")
    files = saved.get("gold_files")
    if files is not None and not isinstance(files, list):
        raise _bad(path, "assay.gold_files", f"must be a list, got {json_type(files)}")
    return saved


def result_from_report(document: dict[str, Any], path: str, name: str) -> EvaluationResult:
    """An :class:`EvaluationResult` from a released report (``name``: single system's name).

    Raises:
        InputFileError: the report has no per-question rows, or a row, a count or the
            provenance block has a missing or mistyped field (named in the message).
    """
    if not is_release_report(document):
        raise InputFileError(
            path,
            "neither an assay result document nor a report.json with per_question rows; "
            "re-run `assay eval` without --no-per-question-json, or use --result-json",
        )
    systems: tuple[SystemResult, ...]
    if isinstance(document.get("per_question"), list):
        systems = (_system(name, document, path),)
    else:
        systems = tuple(
            _system(n, s, path, f"systems[{n!r}].") for n, s in document["systems"].items()
        )
    block = _provenance(document, path)
    return EvaluationResult(
        profile=str(block.get("profile", NOT_RECORDED)),
        assay_version=str(block.get("assay_version", NOT_RECORDED)),
        fingerprint=str(block.get("evaluator_sha256", NOT_RECORDED)),
        signatures=tuple(sorted((block.get("metric_signatures") or {}).items())),
        options=tuple(sorted((block.get("options") or {}).items())),
        gold_files=tuple(block.get("gold_files") or ()),
        systems=systems,
    )

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


def _question(row: dict[str, Any]) -> QuestionResult:
    return QuestionResult(
        question_id=str(row["question_id"]),
        prediction=str(row.get("prediction", "")),
        gold_answer=str(row.get("gold_answer", "")),
        answer_format=str(row.get("answer_format", NOT_RECORDED)),
        status=str(row.get("status", "success")),
        accuracy=float(row["accuracy"]),
        token_f1=float(row["token_f1"]),
        anls=float(row["anls"]),
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


def _system(name: str, report: dict[str, Any], path: str) -> SystemResult:
    try:
        questions = tuple(_question(row) for row in report["per_question"])
        gold_count = int(report.get("gold_count", len(questions)))
    except (KeyError, TypeError, ValueError) as exc:
        raise InputFileError(
            path, f"per_question row without a usable {exc} field; re-create the report"
        ) from None
    counts = dict.fromkeys(BUCKETS, 0)
    for q in questions:
        counts[q.bucket] += 1
    counts["missing"] += gold_count - len(questions)  # rows left out by --ignore-missing
    check_accounting(counts, gold_count)
    return SystemResult(
        system=name,
        prediction_files=(),
        gold_count=gold_count,
        prediction_count=int(report.get("prediction_count", 0)),
        evaluated_count=len(questions),
        missing_prediction_count=int(report.get("missing_prediction_count", counts["missing"])),
        extra_prediction_count=int(report.get("extra_prediction_count", 0)),
        overall=mean_aggregate(questions),
        breakdowns=breakdowns(questions),
        questions=questions,
        accounting=tuple(counts.items()),
        duplicates=(),
    )


def result_from_report(document: dict[str, Any], path: str, name: str) -> EvaluationResult:
    """An :class:`EvaluationResult` from a released report (``name``: single system's name).

    Raises:
        InputFileError: the report has no per-question rows or a row lacks a score.
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
        systems = tuple(_system(n, s, path) for n, s in document["systems"].items())
    saved = document.get("assay")
    block: dict[str, Any] = saved if isinstance(saved, dict) else {}
    return EvaluationResult(
        profile=str(block.get("profile", NOT_RECORDED)),
        assay_version=str(block.get("assay_version", NOT_RECORDED)),
        fingerprint=str(block.get("evaluator_sha256", NOT_RECORDED)),
        signatures=tuple(sorted((block.get("metric_signatures") or {}).items())),
        options=tuple(sorted((block.get("options") or {}).items())),
        gold_files=tuple(block.get("gold_files") or ()),
        systems=systems,
    )

"""The ``judge`` metric: open answers graded against a rubric by an LLM judge.

Items are JSONL rows ``{id, answer, question?, reference?, rubric?}`` (a row's
``rubric`` overrides the run's). Each item gets ``pass`` (value 1) or ``fail``
(value 0) from the majority of its votes, or lands in ``judge_failed`` with its
reason — outside the scored denominator, shown in the accounting
``total = scored + judge_failed``. The report (kind ``assay.judge``) carries the
judge fingerprint in its signature, every item's votes and agreement, the mean
with its Wilson interval as k/n, and the summed token usage. Ledger hits and
requests are not in it (they differ between a first run and its replay); the CLI
prints them on stderr.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assay.errors import AccountingError, InputFileError
from assay.io.jsonl import iter_jsonl
from assay.judge.config import JudgeConfig, fingerprint_text
from assay.judge.prompts import RUBRIC, bullet_list
from assay.judge.runner import JUDGE_FAILED, JudgeRun, RunCounts, usage_totals

REPORT_KIND = "assay.judge"
REPORT_VERSION = 1
METRIC_VERSION = "0.1.0"
VALUES = {"pass": 1.0, "fail": 0.0}


@dataclass(frozen=True, slots=True)
class AnswerItem:
    """One open answer to judge."""

    id: str
    answer: str
    question: str = ""
    reference: str = ""
    rubric: str | None = None


def _text(row: dict[str, Any], name: str, path: str, line: int, required: bool) -> str:
    value = row.get(name)
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        need = "a string" if required else "a string or absent"
        raise InputFileError(path, f"must be {need}, got {type(value).__name__}",
                             line=line, field=name)  # fmt: skip
    return value


def read_answer_items(path: str | Path) -> list[AnswerItem]:
    """Read answer items (one JSON object per line; ids unique).

    Raises:
        InputFileError: bad JSON, a missing or mistyped field, a duplicate id, no rows.
    """
    items: list[AnswerItem] = []
    seen: set[str] = set()
    for number, row in iter_jsonl(path):
        item = _item(row, str(path), number)
        if item.id in seen:
            raise InputFileError(path, f"duplicate id {item.id!r}", line=number, field="id")
        seen.add(item.id)
        items.append(item)
    if not items:
        raise InputFileError(path, "no items; expected JSONL rows {id, answer, ...}")
    return items


def _item(row: dict[str, Any], path: str, line: int) -> AnswerItem:
    rubric = row.get("rubric")
    if rubric is not None and not isinstance(rubric, str):
        raise InputFileError(path, "must be a string or absent", line=line, field="rubric")
    return AnswerItem(
        _text(row, "id", path, line, True), _text(row, "answer", path, line, True),
        _text(row, "question", path, line, False), _text(row, "reference", path, line, False),
        rubric,
    )  # fmt: skip


def judge_answers(
    items: Sequence[AnswerItem], rubric: str | None, config: JudgeConfig
) -> tuple[dict[str, Any], RunCounts]:
    """Judge every item; the report dict and what the run did (hits, requests).

    Raises:
        InputFileError: an item without a rubric when no run rubric is given.
        LedgerMissError: ``offline`` and a vote the ledger does not hold.
    """
    fields = []
    for item in items:
        text = item.rubric if item.rubric is not None else rubric
        if text is None:
            raise InputFileError("<items>", f"item {item.id!r} has no rubric; pass --rubric",
                                 field="rubric")  # fmt: skip
        fields.append({"rubric": text, "question": item.question or "(none)",
                       "reference": item.reference or "(none)", "answer": item.answer})  # fmt: skip
    run = JudgeRun(config, RUBRIC)
    try:
        verdicts = run.judge_many(fields)
    finally:
        run.close()
    return build_report(items, verdicts, run), run.counts


def build_report(
    items: Sequence[AnswerItem], verdicts: Sequence[Any], run: JudgeRun
) -> dict[str, Any]:
    """The ``assay.judge`` report of judged items (see the module docstring)."""
    from assay.stats import wilson_interval

    rows = [
        {"id": item.id, **verdict.to_dict(),
         "value": VALUES.get(verdict.verdict)}  # fmt: skip
        for item, verdict in zip(items, verdicts, strict=True)
    ]
    scored = [r for r in rows if r["verdict"] != JUDGE_FAILED]
    failed = len(rows) - len(scored)
    if len(scored) + failed != len(rows):
        raise AccountingError("judge: scored + judge_failed != total")
    passed = sum(1 for r in scored if r["verdict"] == "pass")
    rate = wilson_interval(passed, len(scored)) if scored else None
    fp = run.fingerprint()
    return {
        "kind": REPORT_KIND,
        "report_version": REPORT_VERSION,
        "metric": "judge",
        "signature": f"judge|{fingerprint_text(fp)}|v:{METRIC_VERSION}",
        "judge_fingerprint": fp,
        "accounting": {
            "total": len(rows), "scored": len(scored), "judge_failed": failed,
            "equation": f"total {len(rows)} = scored {len(scored)} + judge_failed {failed}",
            "holds": True,
        },  # fmt: skip
        "score": {
            "mean": passed / len(scored) if scored else None, "k": passed, "n": len(scored),
            "lower": rate.lower if rate else None, "upper": rate.upper if rate else None,
            "interval": "wilson 95%",
        },  # fmt: skip
        "judge_failed_reasons": _reason_counts(rows),
        "usage": usage_totals(verdicts),
        "items": rows,
    }


def _reason_counts(rows: Sequence[dict[str, Any]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for row in rows:
        if row["verdict"] == JUDGE_FAILED:
            counts[row["reason"]] = counts.get(row["reason"], 0) + 1
    return dict(sorted(counts.items()))


def claim_fields(
    claim: str, statements: Sequence[str], contradictions: Sequence[str]
) -> dict[str, str]:
    """Template fields of one free-text claim (for :data:`~assay.judge.prompts.CLAIM`)."""
    return {"claim": claim, "statements": bullet_list(statements),
            "contradictions": bullet_list(contradictions)}  # fmt: skip

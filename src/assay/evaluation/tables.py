"""An :class:`~assay.evaluation.runs.EvaluationResult` as tables: DataFrames and short reprs.

``to_pandas()`` is the per-item frame (one row per system and question, the
per-question fields plus ``system`` and ``bucket``); ``summary_frame()`` has one
row per system in leaderboard order (its count words are those of
:mod:`assay.evaluation.counts`). The repr is a few lines (profile, counts, one
line per system), never the whole result; ``_repr_html_`` is the same as a small
HTML table for notebooks.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from assay.evaluation import counts
from assay.evaluation.benchmark import PER_QUESTION_FIELDS, SystemResult
from assay.io.frames import data_frame

EXTRA_FIELDS = ("difficulty", "doc_type", "answer_type", "bucket")
ITEM_COLUMNS = ("system", *PER_QUESTION_FIELDS, *EXTRA_FIELDS)
SUMMARY_COLUMNS = (
    "system", "questions", "evaluated", "missing_predictions", "n", "correct", "accuracy",
    "token_f1", "anls",
)  # fmt: skip
REPR_SYSTEMS = 10


def item_rows(systems: Sequence[SystemResult]) -> list[dict[str, Any]]:
    """One row per system and question (lists such as evidence sources joined by ``;``)."""
    rows = []
    for system in systems:
        for question in system.questions:
            extra = {name: getattr(question, name) for name in EXTRA_FIELDS}
            row = {"system": system.system, **question.to_dict(), **extra}
            rows.append({k: ";".join(v) if isinstance(v, list) else v for k, v in row.items()})
    return rows


def summary_rows(systems: Sequence[SystemResult]) -> list[dict[str, Any]]:
    """One row per system: counts and the three overall means (unrounded)."""
    return [
        {
            "system": s.system,
            "questions": s.gold_count,
            "evaluated": counts.evaluated(s),
            "missing_predictions": s.missing_prediction_count,
            "n": counts.questions_over(s),
            "correct": counts.correct(s),
            "accuracy": s.overall.accuracy,
            "token_f1": s.overall.token_f1,
            "anls": s.overall.anls,
        }
        for s in systems
    ]


def items_frame(systems: Sequence[SystemResult]) -> Any:
    """The per-item DataFrame (needs pandas)."""
    return data_frame(item_rows(systems), ITEM_COLUMNS)


def summary_frame(systems: Sequence[SystemResult]) -> Any:
    """The per-system DataFrame (needs pandas)."""
    return data_frame(summary_rows(systems), SUMMARY_COLUMNS)


def result_repr(
    profile: str, systems: Sequence[SystemResult], warnings: Sequence[str] = ()
) -> str:
    """A few lines: profile and counts, one line per system (at most ten), the warnings."""
    questions = systems[0].gold_count if systems else 0
    head = f"<EvaluationResult profile={profile!r}: {len(systems)} systems × {questions} questions"
    width = max((len(s.system) for s in systems[:REPR_SYSTEMS]), default=0)
    lines = [
        f"  {s.system:<{width}}  accuracy {s.overall.accuracy:.3f}  "
        f"token_f1 {s.overall.token_f1:.3f}  anls {s.overall.anls:.3f}  "
        f"evaluated {counts.evaluated(s)}/{s.gold_count}  correct {counts.correct(s)}/"
        f"{counts.questions_over(s)}"
        for s in systems[:REPR_SYSTEMS]
    ]
    if len(systems) > REPR_SYSTEMS:
        lines.append(f"  ... {len(systems) - REPR_SYSTEMS} more (summary_frame() has all)")
    lines += [f"  warning: {warning}" for warning in warnings[:REPR_SYSTEMS]]
    if len(warnings) > REPR_SYSTEMS:
        lines.append(f"  ... {len(warnings) - REPR_SYSTEMS} more warnings (.warnings has all)")
    return "\n".join([head, *lines]) + ">"


def result_html(profile: str, systems: Sequence[SystemResult]) -> str:
    """The summary as a small HTML table (for notebooks)."""
    cells = "".join(f"<th>{name}</th>" for name in SUMMARY_COLUMNS)
    body = "".join(
        "<tr>" + "".join(
            f"<td>{html.escape(v) if isinstance(v, str) else format(v, '.3f')}</td>"
            if isinstance(v, (str, float)) else f"<td>{v}</td>"
            for v in row.values()
        ) + "</tr>"
        for row in summary_rows(systems)
    )  # fmt: skip
    caption = f"EvaluationResult, profile {html.escape(profile)}"
    return f"<table><caption>{caption}</caption><tr>{cells}</tr>{body}</table>"

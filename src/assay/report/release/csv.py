r"""Per-question CSV in the released column order.

A leading ``system`` column is added for runs with several systems; numbers are
rounded to 6 decimals; lines end in ``\r\n`` (the csv module's default). Under the
``assay`` profile cells a spreadsheet would run as a formula get a leading ``'``;
under ``xldocbench`` the cells are raw, as released (see :mod:`assay.report.csv_guard`).
"""

from __future__ import annotations

from typing import Any

from assay.evaluation.benchmark import PER_QUESTION_FIELDS
from assay.evaluation.runs import EvaluationResult
from assay.report.csv_guard import guards_profile
from assay.report.csv_text import csv_rows
from assay.report.release.json import question_rows


def per_question_csv(
    result: EvaluationResult, rows: dict[str, list[dict[str, Any]]] | None = None
) -> str:
    """The per-question CSV text of a run (``rows``: each system's question rows, if made)."""
    several = len(result.systems) > 1
    guarded = guards_profile(result.profile)
    parts = [csv_rows([(["system"] if several else []) + list(PER_QUESTION_FIELDS)])]
    seen: dict[float, float] = {}
    for system in result.systems:
        lead = [system.system] if several else []
        made = (rows or {}).get(system.system) or question_rows(system, seen)
        cells = [lead + list(row.values()) for row in made]  # rows are in the field order
        parts.append(csv_rows(cells, guarded=guarded))
    return "".join(parts)

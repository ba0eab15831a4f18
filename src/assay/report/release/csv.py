r"""Per-question CSV in the released column order.

A leading ``system`` column is added for runs with several systems; numbers are
rounded to 6 decimals; lines end in ``\r\n`` (the csv module's default). Under the
``assay`` profile cells a spreadsheet would run as a formula get a leading ``'``;
under ``xldocbench`` the cells are raw, as released (see :mod:`assay.report.csv_guard`).
"""

from __future__ import annotations

import csv
import io

from assay.evaluation.benchmark import PER_QUESTION_FIELDS
from assay.evaluation.runs import EvaluationResult
from assay.report.csv_guard import guard_row, guards_profile
from assay.report.release.json import question_dict


def per_question_csv(result: EvaluationResult) -> str:
    """The per-question CSV text of a run."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    several = len(result.systems) > 1
    guarded = guards_profile(result.profile)
    writer.writerow((["system"] if several else []) + list(PER_QUESTION_FIELDS))
    for system in result.systems:
        for question in system.questions:
            row = question_dict(question)
            values = [row[name] for name in PER_QUESTION_FIELDS]
            cells = ([system.system] if several else []) + values
            writer.writerow(guard_row(cells) if guarded else cells)
    return buffer.getvalue()

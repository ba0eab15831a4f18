r"""Per-question CSV in the released column order.

A leading ``system`` column is added for runs with several systems; numbers are
rounded to 6 decimals; lines end in ``\r\n`` (the csv module's default).
"""

from __future__ import annotations

import csv
import io

from assay.evaluation.benchmark import PER_QUESTION_FIELDS
from assay.evaluation.runs import EvaluationResult
from assay.report.release.json import question_dict


def per_question_csv(result: EvaluationResult) -> str:
    """The per-question CSV text of a run."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    several = len(result.systems) > 1
    writer.writerow((["system"] if several else []) + list(PER_QUESTION_FIELDS))
    for system in result.systems:
        for question in system.questions:
            row = question_dict(question)
            values = [row[name] for name in PER_QUESTION_FIELDS]
            writer.writerow(([system.system] if several else []) + values)
    return buffer.getvalue()

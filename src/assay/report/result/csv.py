r"""Per-item CSV of a result document: one row per question × system.

Columns: system, question_id, status, bucket, each metric (6 decimals), prediction,
gold_answer, answer_format, split, domain, reasoning_type, difficulty, doc_type,
evidence_sources (``;``-joined), documents (``;``-joined). Lines end in ``\r\n``.
Cells a spreadsheet would run as a formula get a leading ``'`` (see
:mod:`assay.report.csv_guard`).
A structured report renders the same per-item CSV as ``assay structured --per-item
FILE.csv`` (:func:`assay.report.structured.files.render_structured_csv`).
"""

from __future__ import annotations

import csv
import io
from typing import Any

from assay.report.csv_guard import guard_row

LABELS = ("answer_format", "split", "domain", "reasoning_type", "difficulty", "doc_type")


def render_result_csv(document: dict[str, Any]) -> str:
    """The per-item CSV text of a result (or structured) document."""
    if document.get("kind") == "assay.structured":
        from assay.report.structured.files import render_structured_csv

        return render_structured_csv(document)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    metrics = document["metrics"]
    writer.writerow(
        ["system", "question_id", "status", "bucket", *metrics, "prediction", "gold_answer",
         *LABELS, "evidence_sources", "documents"]
    )  # fmt: skip
    for item in document["items"]:
        for name, result in item["results"].items():
            writer.writerow(
                guard_row([name, item["question_id"], result["status"], result["bucket"],
                 *(f"{result[m]:.6f}" for m in metrics), result["prediction"],
                 item["gold_answer"], *(item[label] for label in LABELS),
                 ";".join(item["evidence_sources"]), ";".join(item["documents"])])
            )  # fmt: skip
    return buffer.getvalue()

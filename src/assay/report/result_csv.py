r"""Per-item CSV of a result document: one row per question × system.

Columns: system, question_id, status, bucket, each metric (6 decimals), prediction,
gold_answer, answer_format, split, domain, reasoning_type, difficulty, doc_type,
evidence_sources (``;``-joined), documents (``;``-joined). Lines end in ``\r\n``.
A structured report renders its items: id, bucket, end_to_end_pass, response.
"""

from __future__ import annotations

import csv
import io
from typing import Any

LABELS = ("answer_format", "split", "domain", "reasoning_type", "difficulty", "doc_type")


def render_result_csv(document: dict[str, Any]) -> str:
    """The per-item CSV text of a result (or structured) document."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    if document.get("kind") == "assay.structured":
        writer.writerow(["id", "bucket", "end_to_end_pass", "response"])
        for item in document["items"]:
            writer.writerow(
                [item["id"], item["bucket"], item["end_to_end_pass"], item.get("response", "")]
            )
        return buffer.getvalue()
    metrics = document["metrics"]
    writer.writerow(
        ["system", "question_id", "status", "bucket", *metrics, "prediction", "gold_answer",
         *LABELS, "evidence_sources", "documents"]
    )  # fmt: skip
    for item in document["items"]:
        for name, result in item["results"].items():
            writer.writerow(
                [name, item["question_id"], result["status"], result["bucket"],
                 *(f"{result[m]:.6f}" for m in metrics), result["prediction"],
                 item["gold_answer"], *(item[label] for label in LABELS),
                 ";".join(item["evidence_sources"]), ";".join(item["documents"])]
            )  # fmt: skip
    return buffer.getvalue()

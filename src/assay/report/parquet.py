"""``assay report --format parquet``: the per-item frame of a saved document as Parquet.

A result document gives one row per question × system, the columns of the per-item
CSV (:mod:`assay.report.result.csv`) with their own types: each metric a float64 at
full precision (not six decimals), ``evidence_sources`` and ``documents`` lists of
strings. A structured report gives one row per item, the columns of
``assay structured --per-item FILE.csv`` (:data:`CSV_COLUMNS
<assay.report.structured.files.CSV_COLUMNS>`): counts as int64, flags as booleans
(null when not decided), reason lists as lists, ``field_errors`` and ``claims`` as
compact JSON text. No formula guard is applied: Parquet cells are data, not formulas.
Needs ``pip install 'assay[parquet]'``.
"""

from __future__ import annotations

import json
from typing import Any

from assay.io.parquet import table_bytes
from assay.report.result.csv import LABELS

VERDICT_COUNTS = ("supported", "contradicted", "insufficient", "judge_failed")


def render_parquet(document: dict[str, Any]) -> bytes:
    """The per-item Parquet bytes of a result (or structured) document.

    Raises:
        MissingExtraError: pyarrow is not installed.
    """
    if document.get("kind") == "assay.structured":
        return table_bytes(*structured_table(document))
    return table_bytes(*result_table(document))


def result_table(document: dict[str, Any]) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    """Rows and typed columns of a result document (one row per question × system)."""
    metrics = list(document["metrics"])
    columns = [("system", "string"), ("question_id", "string"), ("status", "string"),
               ("bucket", "string"), *((m, "float64") for m in metrics),
               ("prediction", "string"), ("gold_answer", "string"),
               *((label, "string") for label in LABELS),
               ("evidence_sources", "list<string>"), ("documents", "list<string>")]  # fmt: skip
    rows = []
    for item in document["items"]:
        for name, result in item["results"].items():
            rows.append({
                "system": name, "question_id": item["question_id"], "status": result["status"],
                "bucket": result["bucket"], **{m: result[m] for m in metrics},
                "prediction": result["prediction"], "gold_answer": item["gold_answer"],
                **{label: item[label] for label in LABELS},
                "evidence_sources": list(item["evidence_sources"]),
                "documents": list(item["documents"]),
            })  # fmt: skip
    return rows, columns


def _compact(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def structured_table(
    document: dict[str, Any],
) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    """Rows and typed columns of a structured report (one row per item)."""
    columns = [("id", "string"), ("line", "int64"), ("bucket", "string"),
               ("format_verdict", "string"), ("format_reasons", "list<string>"),
               ("would_pass_if_unwrapped", "bool"), ("field_errors", "string"),
               ("fact_status", "string"), ("fact_reason", "string"), ("fact_source", "string"),
               *((v, "int64") for v in VERDICT_COUNTS), ("missing_required", "list<string>"),
               ("all_supported", "bool"), ("end_to_end_pass", "bool"), ("claims", "string"),
               ("response", "string")]  # fmt: skip
    rows = []
    for item in document["items"]:
        fmt, fact = item["format"], item["fact"]
        rows.append({
            "id": item["id"], "line": item["line"], "bucket": item["bucket"],
            "format_verdict": fmt["verdict"], "format_reasons": list(fmt["reasons"]),
            "would_pass_if_unwrapped": fmt["would_pass_if_unwrapped"],
            "field_errors": _compact(fmt["field_errors"]), "fact_status": fact["status"],
            "fact_reason": fact["reason"], "fact_source": fact["source"],
            **{v: fact["counts"][v] for v in VERDICT_COUNTS},
            "missing_required": list(fact["missing_required"]),
            "all_supported": fact["all_supported"], "end_to_end_pass": item["end_to_end_pass"],
            "claims": _compact(fact["claims"]), "response": item["response"],
        })  # fmt: skip
    return rows, columns

"""File renderers for a structured report: JSON (source of truth), per-item JSONL and CSV.

Each function takes ``StructuredReport.to_dict()`` output and returns text; the same
dict always gives the same bytes (sorted keys, LF line endings, UTF-8).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from assay.io.output import write_file
from assay.report.csv_guard import guard_row
from assay.report.structured.json_stream import render_structured_json_fast

CSV_COLUMNS: tuple[str, ...] = (
    "id",
    "line",
    "bucket",
    "format_verdict",
    "format_reasons",
    "would_pass_if_unwrapped",
    "field_errors",
    "fact_status",
    "fact_reason",
    "fact_source",
    "supported",
    "contradicted",
    "insufficient",
    "judge_failed",
    "missing_required",
    "all_supported",
    "end_to_end_pass",
    "claims",
    "response",
)


def render_structured_json(report: dict[str, Any]) -> str:
    """The JSON report: sorted keys, two-space indent, trailing newline.

    Exactly ``json.dumps(report, sort_keys=True, indent=2, ensure_ascii=False)`` and a newline
    (:mod:`assay.report.structured.json_stream`, which also streams it to a file).
    """
    return render_structured_json_fast(report)


def render_structured_jsonl(report: dict[str, Any]) -> str:
    """One JSON line per item (raw response verbatim, verdicts, reasons, claims)."""
    return "".join(
        json.dumps(item, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"
        for item in report["items"]
    )


def _compact(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _flag(value: bool | None) -> str:
    return "" if value is None else ("true" if value else "false")


def csv_row(item: dict[str, Any]) -> list[str]:
    """One CSV row for a per-item record (lists and objects as compact JSON)."""
    fmt, fact = item["format"], item["fact"]
    return [
        item["id"],
        str(item["line"]),
        item["bucket"],
        fmt["verdict"],
        ";".join(fmt["reasons"]),
        _flag(fmt["would_pass_if_unwrapped"]),
        _compact(fmt["field_errors"]),
        fact["status"],
        fact["reason"] or "",
        fact["source"] or "",
        *(
            str(fact["counts"][v])
            for v in ("supported", "contradicted", "insufficient", "judge_failed")
        ),
        ";".join(fact["missing_required"]),
        _flag(fact["all_supported"]),
        _flag(item["end_to_end_pass"]),
        _compact(fact["claims"]),
        item["response"],
    ]


def render_structured_csv(report: dict[str, Any]) -> str:
    """The per-item records as CSV (header + one row per item).

    Cells a spreadsheet would run as a formula get a leading ``'``
    (:mod:`assay.report.csv_guard`).
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for item in report["items"]:
        writer.writerow(guard_row(csv_row(item)))
    return buffer.getvalue()


def write_text(path: str | Path, text: str, option: str | None = None) -> Path:
    """Atomically write UTF-8 text with LF newlines (:func:`assay.io.output.write_file`).

    A lone surrogate (possible in JSON input) is written as a backslash escape, which
    JSON reads back as the same character, instead of failing the whole write.
    """
    return write_file(path, text, option=option)


def write_per_item(report: dict[str, Any], path: str | Path, option: str | None = None) -> Path:
    """Write per-item records: CSV when ``path`` ends in ``.csv``, JSONL otherwise."""
    is_csv = str(path).lower().endswith(".csv")
    text = render_structured_csv(report) if is_csv else render_structured_jsonl(report)
    return write_text(path, text, option)

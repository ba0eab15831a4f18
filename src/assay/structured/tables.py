"""A :class:`~assay.structured.api.StructuredReport` as tables: DataFrames and a short repr.

``to_pandas()``: one row per item (bucket, format verdict and reasons, the
would-pass-if-unwrapped diagnostic, fact status and reason, the claim counts by
verdict, end-to-end pass, the raw response). ``summary_frame()``: one row per
headline rate (k, n, rate, 95% Wilson interval).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from assay.io.frames import data_frame
from assay.structured.scoring import ItemResult
from assay.structured.verdicts import CONTRADICTED, INSUFFICIENT, JUDGE_FAILED, SUPPORTED

VERDICTS = (SUPPORTED, CONTRADICTED, INSUFFICIENT, JUDGE_FAILED)
ITEM_COLUMNS = (
    "id", "line", "bucket", "format_verdict", "format_reasons", "would_pass_if_unwrapped",
    "fact_status", "fact_reason", *(f"claims_{v}" for v in VERDICTS), "end_to_end_pass",
    "response",
)  # fmt: skip
SUMMARY_COLUMNS = ("key", "name", "k", "n", "rate", "ci95_lower", "ci95_upper")


def item_rows(results: Sequence[ItemResult]) -> list[dict[str, Any]]:
    """One flat row per item (format reasons joined by ``;``)."""
    rows = []
    for result in results:
        counts = Counter(v.verdict for v in result.fact.verdicts)
        rows.append({
            "id": result.item.id,
            "line": result.item.line,
            "bucket": result.bucket,
            "format_verdict": result.format.verdict,
            "format_reasons": ";".join(result.format.reasons),
            "would_pass_if_unwrapped": result.format.would_pass_if_unwrapped,
            "fact_status": result.fact.status,
            "fact_reason": result.fact.reason,
            **{f"claims_{v}": counts[v] for v in VERDICTS},
            "end_to_end_pass": result.end_to_end_pass,
            "response": result.item.response,
        })  # fmt: skip
    return rows


def items_frame(results: Sequence[ItemResult]) -> Any:
    """The per-item DataFrame (needs pandas)."""
    return data_frame(item_rows(results), ITEM_COLUMNS)


def headline_frame(headlines: Sequence[dict[str, Any]]) -> Any:
    """The headline rates as a DataFrame (needs pandas)."""
    rows = [
        {**{k: h[k] for k in ("key", "name", "k", "n", "rate")},
         "ci95_lower": h["ci95"][0] if h["ci95"] else None,
         "ci95_upper": h["ci95"][1] if h["ci95"] else None}
        for h in headlines
    ]  # fmt: skip
    return data_frame(rows, SUMMARY_COLUMNS)


def report_repr(headlines: Sequence[dict[str, Any]], items: int, signature: str) -> str:
    """A few lines: item count, signature and each headline as k/n."""
    lines = [f"<StructuredReport: {items} items; {signature}"]
    for h in headlines:
        rate = "n/a" if h["rate"] is None else f"{h['rate']:.3f}"
        lines.append(f"  {h['name']}: {rate} ({h['k']}/{h['n']})")
    return "\n".join(lines) + ">"


def report_html(headlines: Sequence[dict[str, Any]], items: int, signature: str) -> str:
    """The headline rates as a small HTML table (for notebooks): name, k/n and rate."""
    import html

    rows = "".join(
        f"<tr><td>{html.escape(h['name'])}</td><td>{h['k']}/{h['n']}</td>"
        f"<td>{'n/a' if h['rate'] is None else format(h['rate'], '.3f')}</td></tr>"
        for h in headlines
    )
    caption = f"StructuredReport: {items} items; {html.escape(signature)}"
    return (
        f"<table><caption>{caption}</caption><tr><th>headline</th><th>k/n</th>"
        f"<th>rate</th></tr>{rows}</table>"
    )

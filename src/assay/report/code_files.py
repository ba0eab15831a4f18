"""Renderers for a code-execution report (``CodeReport.to_dict()``): JSON, JSONL, terminal.

Each reads the report dict only (never recomputes); the same dict gives the same bytes.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

PARTIAL_NOTE = (
    "* over fewer tasks than the run has (a task with fewer than k samples has no "
    "estimate): not comparable with a pass@k over other tasks"
)
OUTCOME_ORDER = ("passed", "failed", "crashed", "timeout", "memory", "sandbox_error")


def render_code_json(report: dict[str, Any]) -> str:
    """The JSON report: sorted keys, two-space indent, trailing newline."""
    return json.dumps(report, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def render_code_jsonl(records: list[dict[str, Any]]) -> str:
    """One compact JSON line per sample, in the samples' order."""
    return "".join(
        json.dumps(r, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"
        for r in records
    )


def _value(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.4f}"


def render_code_terminal(report: dict[str, Any], console: Console | None = None) -> None:
    """Print the outcome table (k/n each, summing to the total), pass@k and isolation.

    Each pass@k states its task count; one over fewer tasks than the run has is marked
    ``*`` with :data:`PARTIAL_NOTE` under the table.
    """
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    counts = report["accounting"]
    total = counts["total"]
    console.print(f"[bold]assay code[/bold] · {total} samples · {len(report['tasks'])} tasks "
                  f"· {report['signature']}")  # fmt: skip
    outcomes = Table("outcome", "samples", "share", title="outcomes")
    for name in OUTCOME_ORDER:
        outcomes.add_row(name, f"{counts[name]}/{total}",
                         f"{100 * counts[name] / total:.1f}%" if total else "n/a")  # fmt: skip
    summed = sum(counts[name] for name in OUTCOME_ORDER)
    outcomes.add_row("[bold]total[/bold]", f"{summed}/{total}", "checked: sums to total")
    console.print(outcomes)
    passes = Table("metric", "value", "tasks", "k > n (not estimated)", title="pass@k")
    partial = False
    for name, entry in report["pass_at_k"].items():
        left = ", ".join(entry["k_gt_n"]) or "-"
        mark = " *" if entry["tasks"] < entry["of"] else ""
        partial = partial or bool(mark)
        passes.add_row(name + mark, _value(entry["value"]), f"{entry['tasks']}/{entry['of']}",
                       left)  # fmt: skip
    console.print(passes)
    if partial:
        console.print(PARTIAL_NOTE)
    _isolation(report["sandbox"], report["processes_left_behind"], console)


def _isolation(sandbox: dict[str, Any], left: int, console: Console) -> None:
    from rich.markup import escape

    console.print(f"sandbox: {sandbox['backend']} · processes left behind: {left}")
    for feature, why in sandbox["not_isolated"].items():
        console.print(f"  not isolated: {escape(feature)}: {escape(why)}")
    if sandbox["error"]:
        console.print(f"  [red]sandbox unavailable[/red]: {escape(sandbox['error'])}")

"""Plain-text rendering of a report diff: the definition check first, then the numbers."""

from __future__ import annotations

from typing import Any

from assay.report.markdown import format_number

MAX_LISTED = 20


def _ids(ids: list[str]) -> str:
    shown = ", ".join(ids[:MAX_LISTED])
    return shown + (f", … (+{len(ids) - MAX_LISTED})" if len(ids) > MAX_LISTED else "")


def definition_lines(diff: dict[str, Any]) -> list[str]:
    """``definitions: match`` or ``DEFINITION CHANGED`` with one line per change."""
    definition = diff["definition"]
    if definition["same"]:
        old = definition["old"]
        return [
            f"definitions: match (profile {old['profile']}, evaluator sha256 "
            f"{old['evaluator_sha256']}, {len(old['metric_signatures'] or {})} signatures)"
        ]
    lines = ["DEFINITION CHANGED: the numbers below are not comparable as-is"]
    lines += [f"  - {change}" for change in definition["changes"]]
    return lines


def system_lines(entry: dict[str, Any]) -> list[str]:
    """One system's flips and deltas, per metric."""
    lines = [
        f"system {entry['system']}: {entry['items_compared']} items compared; "
        f"{len(entry['only_in_old'])} only in old, {len(entry['only_in_new'])} only in new; "
        f"{len(entry['status_changes'])} status change(s)"
    ]
    for metric, m in entry["metrics"].items():
        delta = m["mean_delta"]
        shown = "n/a" if delta is None else f"{delta:+.6f}".replace("-0.000000", "+0.000000")
        lines.append(
            f"  {metric}: mean {format_number(m['mean_old'], 6)} -> "
            f"{format_number(m['mean_new'], 6)} ({shown}); {len(m['changed'])} changed; "
            f"pass->fail {len(m['pass_to_fail'])}, fail->pass {len(m['fail_to_pass'])}"
        )
        if m["pass_to_fail"]:
            lines.append(f"    pass->fail: {_ids(m['pass_to_fail'])}")
        if m["fail_to_pass"]:
            lines.append(f"    fail->pass: {_ids(m['fail_to_pass'])}")
    return lines


def render_diff_text(diff: dict[str, Any]) -> str:
    """The whole diff as text (definition check first)."""
    lines = definition_lines(diff)
    lines.append(f"pass threshold: score >= {diff['pass_threshold']}")
    for entry in diff["systems"]:
        lines += system_lines(entry)
    if diff["systems_only_in_old"]:
        lines.append(f"systems only in old: {', '.join(diff['systems_only_in_old'])}")
    if diff["systems_only_in_new"]:
        lines.append(f"systems only in new: {', '.join(diff['systems_only_in_new'])}")
    if not diff["systems"]:
        lines.append("no system appears in both reports")
    return "\n".join(lines) + "\n"

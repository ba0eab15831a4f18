"""Compare two saved reports of the same benchmark: definitions first, then numbers.

Reads plain report documents: an assay result (``assay-result.json``), a released
single-system ``report.json`` (``per_question`` rows, optional ``assay`` provenance
block) or a multi-system ``report.json`` (``systems`` of such reports).

:func:`diff_reports` first compares the definitions — profile, evaluator
fingerprint and metric signatures; any difference (or a report that does not
record them) is listed in ``definition.changes`` and ``definition.same`` is false
— and only then, per system (matched by name; two single-system reports match
each other), per question and per metric: flips between pass and fail (a score
``>= pass_threshold`` passes; 0.5 by default, which for 0/1 accuracy means
correct), score deltas (differences up to 1e-6, the 6-decimal rounding of
``report.json``, are not changes), and items present in only one report.
"""

from __future__ import annotations

from typing import Any

from assay.errors import InvalidInputError
from assay.io.jsonl import json_type

METRICS = ("accuracy", "token_f1", "anls")
SINGLE = "(single system)"
#: Score differences up to this size are not changes: report.json rounds to 6 decimals.
TOLERANCE = 1e-6


def _provenance(document: dict[str, Any]) -> dict[str, Any]:
    block = document.get("assay") if "kind" not in document else document
    if not isinstance(block, dict):
        return {"profile": None, "evaluator_sha256": None, "metric_signatures": None}
    return {
        "profile": block.get("profile"),
        "evaluator_sha256": block.get("evaluator_sha256"),
        "metric_signatures": block.get("metric_signatures"),
    }


def _rows_by_id(rows: list[Any], where: str) -> dict[str, dict[str, Any]]:
    for index, row in enumerate(rows):
        if not isinstance(row, dict) or not isinstance(row.get("question_id"), (str, int)):
            raise InvalidInputError(
                f"{where}: per_question[{index}] has no usable 'question_id'; "
                "write the report again with assay"
            )
        for metric in METRICS:
            value = row.get(metric)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise InvalidInputError(
                    f"{where}: per_question[{index}].{metric} must be a number, got "
                    f"{json_type(value)}; write the report again with assay"
                )
    return {str(row["question_id"]): row for row in rows}


def per_item_scores(document: dict[str, Any], where: str) -> dict[str, dict[str, dict[str, Any]]]:
    """``{system: {question_id: {metric: value, status}}}`` from any supported layout.

    Raises:
        InvalidInputError: the document has no per-item scores.
    """
    if document.get("kind") == "assay.result":
        out: dict[str, dict[str, dict[str, Any]]] = {}
        for item in document["items"]:
            for name, result in item["results"].items():
                out.setdefault(name, {})[item["question_id"]] = result
        return out
    if isinstance(document.get("per_question"), list):
        return {SINGLE: _rows_by_id(document["per_question"], where)}
    systems = document.get("systems")
    if isinstance(systems, dict) and all(
        isinstance(s, dict) and isinstance(s.get("per_question"), list) for s in systems.values()
    ):
        return {name: _rows_by_id(s["per_question"], where) for name, s in systems.items()}
    raise InvalidInputError(
        f"{where}: no per-item scores (expected an assay result document or a report.json "
        "with per_question rows); re-run without --no-per-question-json"
    )


def definition_check(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """Profile, fingerprint and signatures of both reports, and every difference."""
    a, b = _provenance(old), _provenance(new)
    changes = []
    for key in ("profile", "evaluator_sha256"):
        if a[key] is None or b[key] is None:
            changes.append(f"{key} not recorded in the {'old' if a[key] is None else 'new'} report")
        elif a[key] != b[key]:
            changes.append(f"{key} changed: {a[key]} -> {b[key]}")
    sa, sb = a["metric_signatures"] or {}, b["metric_signatures"] or {}
    if a["metric_signatures"] is None or b["metric_signatures"] is None:
        changes.append("metric signatures not recorded in one of the reports")
    for metric in sorted(set(sa) | set(sb)):
        if sa.get(metric) != sb.get(metric):
            changes.append(f"signature of {metric} changed: {sa.get(metric)} -> {sb.get(metric)}")
    return {"same": not changes, "changes": changes, "old": a, "new": b}


def _metric_diff(
    shared: list[str], old: dict[str, Any], new: dict[str, Any], metric: str, threshold: float
) -> dict[str, Any]:
    to_fail, to_pass, changed = [], [], []
    for qid in shared:
        x, y = float(old[qid][metric]), float(new[qid][metric])
        if abs(y - x) > TOLERANCE:
            changed.append({"question_id": qid, "old": x, "new": y, "delta": y - x})
        if x >= threshold > y:
            to_fail.append(qid)
        elif y >= threshold > x:
            to_pass.append(qid)
    n = len(shared)
    mean_old = sum(float(old[q][metric]) for q in shared) / n if n else None
    mean_new = sum(float(new[q][metric]) for q in shared) / n if n else None
    return {
        "pass_to_fail": to_fail,
        "fail_to_pass": to_pass,
        "changed": changed,
        "mean_old": mean_old,
        "mean_new": mean_new,
        "mean_delta": None if mean_old is None or mean_new is None else mean_new - mean_old,
    }


def _pairs(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(label, old name, new name) of the systems to compare."""
    if len(old) == 1 and len(new) == 1:
        (a,), (b,) = old, new
        return [(a if a == b else f"{a} -> {b}", a, b)]
    return [(name, name, name) for name in old if name in new]


def diff_reports(
    old: dict[str, Any],
    new: dict[str, Any],
    *,
    pass_threshold: float = 0.5,
    old_name: str = "old report",
    new_name: str = "new report",
) -> dict[str, Any]:
    """The definition check, then per system and metric: flips, deltas and unmatched items.

    Raises:
        InvalidInputError: a report has no per-item scores, or the two reports share
            no system (nothing could be compared).
    """
    definition = definition_check(old, new)
    a, b = per_item_scores(old, old_name), per_item_scores(new, new_name)
    if not _pairs(a, b):
        raise InvalidInputError(
            f"{old_name} and {new_name} have no system in common (old: {', '.join(sorted(a))}; "
            f"new: {', '.join(sorted(b))}); diff two reports of the same systems"
        )
    systems = []
    for label, x, y in _pairs(a, b):
        shared = [q for q in a[x] if q in b[y]]
        statuses = [
            {"question_id": q, "old": a[x][q].get("status"), "new": b[y][q].get("status")}
            for q in shared
            if a[x][q].get("status") != b[y][q].get("status")
        ]
        systems.append(
            {
                "system": label,
                "items_compared": len(shared),
                "only_in_old": [q for q in a[x] if q not in b[y]],
                "only_in_new": [q for q in b[y] if q not in a[x]],
                "status_changes": statuses,
                "metrics": {
                    m: _metric_diff(shared, a[x], b[y], m, pass_threshold) for m in METRICS
                },
            }
        )
    return {
        "definition": definition,
        "pass_threshold": pass_threshold,
        "systems": systems,
        "systems_only_in_old": sorted(set(a) - set(b)) if len(a) > 1 or len(b) > 1 else [],
        "systems_only_in_new": sorted(set(b) - set(a)) if len(a) > 1 or len(b) > 1 else [],
    }

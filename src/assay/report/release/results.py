"""Release-style result files: ``results/scores.jsonl`` and ``results/summary.json``.

``scores.jsonl``: one row per system × evaluated question, in system then gold
order: ``{system, question_id, accuracy, token_f1, anls, status}`` (6 decimals).
``summary.json``: ``{profile, evaluator_sha256, assay_version, metric_signatures,
systems: {name: {count, accuracy, token_f1, anls, gold_count,
missing_prediction_count, extra_prediction_count}}}`` on the 0–1 scale, sorted keys.
"""

from __future__ import annotations

from typing import Any

from assay.evaluation.runs import EvaluationResult
from assay.io.json_text import compact_encoder, dumps_indented
from assay.report.release.json import aggregate_dict, rounded_scores


def scores_jsonl(result: EvaluationResult) -> str:
    """The ``scores.jsonl`` text (each line ``json.dumps(row, ensure_ascii=False)``)."""
    encode = compact_encoder(ensure_ascii=False)
    seen: dict[float, float] = {}
    lines = []
    for system in result.systems:
        for q in system.questions:
            accuracy, token_f1, anls = rounded_scores(q, seen)
            row = {
                "system": system.system,
                "question_id": q.question_id,
                "accuracy": accuracy,
                "token_f1": token_f1,
                "anls": anls,
                "status": q.status,
            }
            lines.append(encode(row))
    lines.append("")
    return "\n".join(lines)


def summary(result: EvaluationResult) -> dict[str, Any]:
    """The ``summary.json`` object."""
    systems = {}
    for system in result.systems:
        systems[system.system] = {
            **aggregate_dict(system.overall),
            "gold_count": system.gold_count,
            "missing_prediction_count": system.missing_prediction_count,
            "extra_prediction_count": system.extra_prediction_count,
        }
    return {
        "profile": result.profile,
        "evaluator_sha256": result.fingerprint,
        "assay_version": result.assay_version,
        "metric_signatures": dict(result.signatures),
        "systems": systems,
    }


def summary_json(result: EvaluationResult) -> str:
    """The ``summary.json`` text (sorted keys, 2-space indent)."""
    return dumps_indented(summary(result), sort_keys=True, ensure_ascii=False) + "\n"

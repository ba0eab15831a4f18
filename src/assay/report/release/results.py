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


def scores_jsonl(
    result: EvaluationResult, rows: dict[str, list[dict[str, Any]]] | None = None
) -> str:
    """The ``scores.jsonl`` text (each line ``json.dumps(row, ensure_ascii=False)``).

    ``rows``: each system's question rows (:func:`~assay.report.release.json.question_rows`)
    when already made; their rounded scores are used instead of rounding again.
    """
    encode = compact_encoder(ensure_ascii=False)
    seen: dict[float, float] = {}
    lines = []
    for system in result.systems:
        made = (rows or {}).get(system.system)
        head = '{"system": ' + encode(system.system) + ', "question_id": '
        for k, q in enumerate(system.questions):
            if made is None:
                scores = rounded_scores(q, seen)
            else:
                row = made[k]
                scores = row["accuracy"], row["token_f1"], row["anls"]
            lines.append(_score_line(head, q.question_id, scores, q.status, encode))
    lines.append("")
    return "\n".join(lines)


def _score_line(
    head: str, question_id: Any, scores: tuple[Any, Any, Any], status: Any, encode: Any
) -> str:
    """One ``scores.jsonl`` line: ``json.dumps`` of the row (its scalars by the encoder)."""
    accuracy, token_f1, anls = scores
    return (
        f"{head}{encode(question_id)}, \"accuracy\": {_number(accuracy, encode)}, "
        f"\"token_f1\": {_number(token_f1, encode)}, \"anls\": {_number(anls, encode)}, "
        f"\"status\": {encode(status)}}}"
    )


def _number(value: Any, encode: Any) -> str:
    """A score's JSON text: ``float.__repr__`` for a finite float, else the encoder's."""
    if type(value) is float and value - value == 0.0:  # finite (NaN and inf give NaN)
        return float.__repr__(value)
    return str(encode(value))


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

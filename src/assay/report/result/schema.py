"""The shape of saved assay documents, checked when they are read back.

``assay report``, ``assay compare FILE`` and ``assay diff`` re-read documents that
assay wrote earlier (``kind`` ``assay.result`` or ``assay.structured``). A file that
was truncated, hand-edited or written by another version must fail with one line
naming the file and the field, not deep inside a renderer. The schemas below list
the fields the renderers and ``diff`` read; extra fields are allowed.

A saved result of 13 systems × 5,000 questions holds 65,000 item results; jsonschema's
interpreting validator spends most of ``assay report``'s time on it. So each schema is
first checked by a validator compiled to Python code (fastjsonschema, draft 7: every
keyword used here means the same there). Only a document it rejects goes through
jsonschema, whose best-matching error gives the message; if jsonschema finds nothing
wrong either, the document passes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from assay.errors import InputFileError
from assay.io.jsonl import json_type

OBJECT = {"type": "object"}
STRING = {"type": "string"}
INTEGER = {"type": "integer"}
NUMBER = {"type": "number"}
COUNT = {"type": "integer", "minimum": 0}

_MAYBE_NUMBER = {"type": ["number", "null"]}
#: One estimate as the renderers read it (mean, interval, n); null when not computed.
_ESTIMATE = {
    "type": ["object", "null"],
    "properties": {
        "n": COUNT, "mean": _MAYBE_NUMBER, "lower": _MAYBE_NUMBER, "upper": _MAYBE_NUMBER,
    },
}  # fmt: skip
_ESTIMATES = {"type": "object", "additionalProperties": _ESTIMATE}

#: One pairwise comparison as the renderers read it.
_PAIR = {
    "type": "object",
    "required": ["a", "b", "difference", "p_holm", "significant", "test"],
    "properties": {
        "a": STRING, "b": STRING, "p_holm": _MAYBE_NUMBER, "significant": {"type": "boolean"},
        "test": {
            "type": "object", "required": ["difference", "p_value"],
            "properties": {"difference": _MAYBE_NUMBER, "p_value": _MAYBE_NUMBER},
        },
        "difference": {
            "type": ["object", "null"],
            "properties": {key: _MAYBE_NUMBER for key in ("lower", "upper", "mdd")},
        },
        "mcnemar": {"type": ["object", "null"], "properties": {"p_value": _MAYBE_NUMBER}},
    },
}  # fmt: skip

_ACCOUNTING = {
    "type": "object",
    "required": ["buckets"],
    "properties": {"buckets": {"type": "object", "additionalProperties": COUNT}},
}

_SYSTEM = {
    "type": "object",
    "required": [
        "accounting", "accuracy_rate", "duplicates", "evaluated_count",
        "extra_prediction_count", "gold_count", "missing_prediction_count", "overall",
        "prediction_count", "prediction_files", "rank", "system", "tie_group",
    ],
    "properties": {
        "system": STRING, "overall": _ESTIMATES, "accounting": _ACCOUNTING, "accuracy_rate": OBJECT,
        "rank": INTEGER, "tie_group": INTEGER, "gold_count": COUNT,
        "evaluated_count": COUNT, "evaluated": COUNT, "n": COUNT, "extra_prediction_count": COUNT,
        "missing_prediction_count": COUNT, "prediction_count": COUNT,
        "duplicates": {"type": "array"}, "prediction_files": {"type": "array"},
    },
}  # fmt: skip

_ITEM_RESULT = {
    "type": "object",
    "required": ["accuracy", "anls", "bucket", "prediction", "status", "token_f1"],
    "properties": {
        "accuracy": NUMBER, "anls": NUMBER, "token_f1": NUMBER,
        "bucket": STRING, "status": STRING, "prediction": STRING,
    },
}  # fmt: skip

_ITEM = {
    "type": "object",
    "required": [
        "answer_format", "answer_type", "cluster", "difficulty", "doc_type", "documents",
        "domain", "evidence_sources", "gold_answer", "question_id", "reasoning_type",
        "results", "split",
    ],
    "properties": {
        "question_id": STRING,
        "results": {"type": "object", "additionalProperties": _ITEM_RESULT},
        "evidence_sources": {"type": "array", "items": STRING},
        "documents": {"type": "array", "items": STRING},
        **{key: STRING for key in (
            "answer_format", "split", "domain", "reasoning_type", "difficulty", "doc_type",
            "gold_answer",
        )},
    },
}  # fmt: skip

_INT64 = {"type": "integer", "minimum": 0, "maximum": 2**63 - 1}  # a Parquet int64 column
_FLAG = {"type": ["boolean", "null"]}
_STRINGS = {"type": "array", "items": STRING}
_MAYBE_STRING = {"type": ["string", "null"]}
#: One structured item as the per-item renderers read it (CSV, HTML table, Parquet).
_STRUCTURED_ITEM = {
    "type": "object",
    "required": ["bucket", "end_to_end_pass", "fact", "format", "id", "line", "response"],
    "properties": {
        "id": STRING, "line": {**_INT64, "type": ["integer", "null"]}, "bucket": STRING,
        "end_to_end_pass": _FLAG, "response": STRING,
        "format": {
            "type": "object",
            "required": ["field_errors", "reasons", "verdict", "would_pass_if_unwrapped"],
            "properties": {
                "verdict": STRING, "reasons": _STRINGS, "would_pass_if_unwrapped": _FLAG,
                "field_errors": {"type": "array", "items": {
                    "type": "object", "required": ["keyword", "pointer"],
                    "properties": {"keyword": STRING, "pointer": _MAYBE_STRING},
                }},
            },
        },
        "fact": {
            "type": "object",
            "required": ["all_supported", "claims", "counts", "missing_required", "reason",
                         "source", "status"],
            "properties": {
                "status": STRING, "reason": _MAYBE_STRING, "source": _MAYBE_STRING,
                "all_supported": _FLAG, "claims": {"type": "array"},
                "missing_required": _STRINGS,
                "counts": {
                    "type": "object",
                    "required": ["contradicted", "insufficient", "judge_failed", "supported"],
                    "additionalProperties": _INT64,
                },
            },
        },
    },
}  # fmt: skip

STRUCTURED_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": [
        "assay_version", "contract", "cross_tab", "fact", "format", "headlines", "identity",
        "inputs", "items", "kind", "options", "report_version", "signature",
    ],
    "properties": {
        "kind": {"const": "assay.structured"},
        "report_version": {"const": 1},
        "items": {"type": "array", "items": _STRUCTURED_ITEM},
        "headlines": {"type": "array"},
        **{key: OBJECT for key in ("contract", "cross_tab", "fact", "format", "identity")},
    },
}  # fmt: skip

RESULT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": [
        "assay_version", "comparison", "evaluator_sha256", "gold_files", "items", "kind",
        "metric_signatures", "metrics", "options", "profile", "result_version", "slices",
        "source", "statistics", "structured", "systems",
    ],
    "properties": {
        "kind": {"const": "assay.result"},
        "result_version": {"const": 1},
        "profile": STRING,
        "evaluator_sha256": STRING,
        "metrics": {"type": "array", "items": STRING},
        "metric_signatures": {"type": "object", "additionalProperties": STRING},
        "systems": {"type": "array", "items": _SYSTEM},
        "items": {"type": "array", "items": _ITEM},
        "comparison": {
            "type": "object",
            "properties": {"pairs": {"type": "array", "items": _PAIR}},
            "required": [
                "alpha", "method", "metric", "n_paired", "n_resamples", "pairs", "power",
                "scores", "seed", "systems", "tie_groups",
            ],
        },
        "statistics": {
            "type": "object",
            "required": [
                "alpha", "confidence", "mean_interval", "multiple_comparisons", "p_value",
                "paired_test", "power", "ranking_metric", "rate_interval", "se_method",
                "tie_groups",
            ],
        },
        "slices": {
            "type": "object",
            "additionalProperties": {  # dimension → label → system → metric → estimate
                "type": "object",
                "additionalProperties": {  # the system's n beside its estimates
                    "type": "object",
                    "additionalProperties": {**_ESTIMATES, "properties": {"n": COUNT}},
                },
            },  # fmt: skip
            "required": [
                "answer_format", "difficulty", "doc_type", "domain", "evidence_source",
                "reasoning_type", "split",
            ],
        },
        "structured": {"anyOf": [{"type": "null"}, STRUCTURED_SCHEMA]},
    },
}  # fmt: skip

SCHEMAS = {"assay.result": RESULT_SCHEMA, "assay.structured": STRUCTURED_SCHEMA}


def _field(path: Any) -> str:
    """``systems[0].overall`` from a jsonschema path."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text.lstrip(".")


def _problem(error: Any) -> tuple[str, str]:
    """``(field, what is wrong)`` of a jsonschema error, short and without the instance."""
    field = _field(error.absolute_path)
    if error.validator == "required":
        missing = next((k for k in error.validator_value if k not in error.instance), "?")
        return (f"{field}.{missing}" if field else missing), "missing"
    if error.validator == "type":
        return field, f"must be {error.validator_value}, got {json_type(error.instance)}"
    if error.validator == "const":
        return field, f"must be {error.validator_value!r}, got {error.instance!r}"
    return field, error.message[:120]


_COMPILED: dict[str, Callable[[Any], Any]] = {}


def passes_compiled(kind: str, document: dict[str, Any]) -> bool:
    """Whether ``document`` satisfies the schema of ``kind``, by the compiled validator."""
    import fastjsonschema

    validate = _COMPILED.get(kind)
    if validate is None:
        validate = _COMPILED[kind] = fastjsonschema.compile(SCHEMAS[kind])
    try:
        validate(document)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def check_saved_document(document: dict[str, Any], path: str | Path) -> None:
    """Check a saved ``assay.result``/``assay.structured`` document against its schema.

    Documents of another kind (or none) are left to the caller.

    Raises:
        InputFileError: naming the file and the first missing or mistyped field.
    """
    schema = SCHEMAS.get(str(document.get("kind")))
    if schema is None or passes_compiled(str(document["kind"]), document):
        return
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
    from jsonschema.exceptions import best_match  # type: ignore[import-untyped]

    error = best_match(Draft202012Validator(schema).iter_errors(document))
    if error is None:
        return
    field, problem = _problem(error)
    raise InputFileError(
        path,
        f"{problem}; not a complete {document['kind']} document (truncated, edited or "
        "from another version?); write it again with this assay",
        field=field or None,
    )

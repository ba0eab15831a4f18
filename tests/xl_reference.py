r"""A literal re-implementation of the XL-DocBench released evaluator, for differential tests.

Written from ../shared/specs/xldocbench.md and the issue "XL-DocBench drop-in, for
real" only; it imports nothing from assay. It is meant to read like the released
script: plain ``open``/``json.loads``, ``line.strip()``, dict lookups, one pass.

Rules taken from the issue where the spec was too coarse:
1. numbers: first ``-?\d*\.?\d+`` after deleting commas and ASCII spaces;
2. ``--prediction-field F`` is ``row.get(F)`` (an object is scored as its JSON text);
3. mapping keys are ids exactly as written (a key ``""`` makes the script fail);
4. ``status`` is ``row.get("status") or "success"``;
5. per-question labels: split ``task_type or ""``, domain/reasoning_type as written;
6. per-question answer_format as written; breakdown label ``unknown`` for null/"";
7. evidence sources ``meta.get("evidence_sources") or []``; blank labels kept;
8. report.json without a final newline;
9. loaders: universal newlines, ``line.strip()``, plain ``json.loads``, ``str()`` ids,
   a ``.jsonl`` suffix test in any letter case.
"""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

ID_FIELDS = ("question_id", "global_qa_id", "global_id", "id")
PREDICTION_FIELDS = ("prediction", "model_answer", "answer", "response", "output")
TYPES = {
    "Str": "entity", "Int": "numeric", "Float": "numeric", "None": "unanswerable",
    "Bool": "boolean", "Boolean": "boolean", "Percentage": "percentage",
}  # fmt: skip
ABSTAIN = (
    "not answerable", "unanswerable", "cannot be determined", "cannot be answered",
    "not enough information", "context_overflow",
)  # fmt: skip
ROW_KEYS = (
    "question_id", "prediction", "gold_answer", "answer_format", "status",
    "accuracy", "token_f1", "anls", "split", "domain", "reasoning_type",
)  # fmt: skip
DIMENSIONS = (
    "split", "domain", "reasoning_type", "answer_format", "difficulty", "doc_type",
    "evidence_source",
)  # fmt: skip


class Failed(Exception):
    """The released script would stop with an exception on this input."""


# --- loading -----------------------------------------------------------------------------


def load_jsonl(path: str) -> list[Any]:
    rows = []
    with open(path, encoding="utf-8") as f:  # universal newlines
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                rows.append(json.loads(line))
            except ValueError as exc:  # also a UTF-8 BOM: json.loads refuses it
                raise Failed(f"{path}: {exc}") from None
    return rows


def get_id(row: Any) -> str | None:
    if not isinstance(row, dict):
        raise Failed("a row that is not an object")
    for key in ID_FIELDS:
        value = row.get(key)
        if value is not None and str(value).strip():
            return str(value).strip()
    return None


def to_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, (int, float)):
        return str(value)
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def load_gold(paths: list[str]) -> list[dict[str, Any]]:
    gold, seen = [], set()
    for path in paths:
        for row in load_jsonl(path):
            qid = get_id(row)
            if qid is None or qid in seen:
                raise Failed(f"{path}: missing or duplicate id {qid!r}")
            seen.add(qid)
            gold.append(row)
    return gold


def prediction_text(row: dict[str, Any], field: str | None) -> str:
    if field:
        return to_text(row.get(field))
    for key in PREDICTION_FIELDS:
        if key in row:
            value = row[key]
            if key == "answer" and isinstance(value, dict):
                value = value.get("value")
            return to_text(value)
    return ""


def load_predictions(path: str, field: str | None) -> dict[str, tuple[str, Any]]:
    """id → (prediction text, status); later rows replace earlier ones."""
    if path.lower().endswith(".jsonl"):
        entries = [(get_id(row), row) for row in load_jsonl(path)]
    else:
        with open(path, encoding="utf-8") as f:
            try:
                data = json.load(f)
            except ValueError as exc:
                raise Failed(f"{path}: {exc}") from None
        if isinstance(data, list):
            entries = [(get_id(row), row) for row in data]
        elif isinstance(data, dict):
            mapping = data["items"] if isinstance(data.get("items"), dict) else data
            entries = list(mapping.items())
            if any(key == "" for key, _ in entries):
                raise Failed(f"{path}: an empty id")
        else:
            raise Failed(f"{path}: not a list or an object")
    predictions = {}
    for qid, row in entries:
        if qid is None:
            raise Failed(f"{path}: a prediction without id")
        if isinstance(row, dict):
            predictions[qid] = (prediction_text(row, field), row.get("status") or "success")
        else:
            predictions[qid] = (to_text(row), "success")
    return predictions


# --- scoring -----------------------------------------------------------------------------


def normalize(text: str) -> str:
    text = text.strip().lower()
    for prefix in ("the answer is", "answer:", "answer is"):
        if text.startswith(prefix):
            text = text[len(prefix) :].strip()
    text = re.sub(r"[^\w\s.\-%]", "", text)
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return re.sub(r"\s+", " ", text).strip()


def levenshtein(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def similarity(a: str, b: str) -> float:
    if not a and not b:
        return 1.0
    return 1.0 - levenshtein(a, b) / max(len(a), len(b))


def first_number(text: str) -> float | None:
    match = re.search(r"-?\d*\.?\d+", text.replace(",", "").replace(" ", ""))
    return float(match.group()) if match else None


def string_match(p: str, g: str) -> float:
    if g and g in p:
        return 1.0
    return 1.0 if similarity(p, g) >= 0.8 else 0.0


def letter(text: str) -> str | None:
    match = re.search(r"\b([A-D])\b", text.strip().upper())
    return match.group(1) if match else None


def accuracy(kind: str, pred: str, gold: str) -> float:
    p, g = normalize(pred), normalize(gold)
    if kind == "unanswerable":
        return 1.0 if any(x in p for x in ABSTAIN) else 0.0
    if kind == "boolean":
        if any(w in p for w in ("yes", "true", "correct")):
            polarity: bool | None = True
        elif any(w in p for w in ("no", "false", "incorrect")):
            polarity = False
        else:
            return 0.0
        return 1.0 if polarity == any(w in g for w in ("yes", "true", "correct")) else 0.0
    if kind in ("numeric", "percentage"):
        pn, gn = first_number(p), first_number(g)
        if pn is not None and gn is not None:
            if gn == 0:
                return 1.0 if abs(pn) < 1e-6 else 0.0
            return 1.0 if abs(pn - gn) / abs(gn) <= 0.05 else 0.0
    if kind == "single_choice":
        pl, gl = letter(pred), letter(gold)
        if pl is not None and gl is not None:
            return 1.0 if pl == gl else 0.0
    return string_match(p, g)


def token_f1(pred: str, gold: str) -> float:
    ps, gs = set(normalize(pred).split()), set(normalize(gold).split())
    if not gs:
        return 1.0 if not ps else 0.0
    common = len(ps & gs)
    if not ps or common == 0:
        return 0.0
    precision, recall = common / len(ps), common / len(gs)
    return 2 * precision * recall / (precision + recall)


def anls(pred: str, gold: str) -> float:
    a, b = pred.strip().lower(), gold.strip().lower()
    if not a or not b:
        return 1.0 if not a and not b else 0.0
    value = similarity(a, b)
    return value if value >= 0.5 else 0.0


# --- evaluation and report ---------------------------------------------------------------


def label(value: Any) -> str:
    return "unknown" if value is None or value == "" else str(value)


def answer_parts(row: dict[str, Any]) -> tuple[Any, Any, Any]:
    answer = row.get("answer")
    if isinstance(answer, dict):
        return answer.get("value"), answer.get("format"), answer.get("verification_rule")
    return answer, None, None


def answer_kind(fmt: Any, rule: Any) -> str:
    fmt_text, rule_text = str(fmt) if fmt else "Str", str(rule) if rule else ""
    if fmt_text in TYPES:
        return TYPES[fmt_text]
    if "numeric" in rule_text or "tolerance" in rule_text:
        return "numeric"
    return fmt_text.lower()


def score_question(g: dict[str, Any], pred: tuple[str, Any] | None) -> tuple[dict, dict]:
    """The released per-question row (unrounded) and the question's breakdown labels."""
    value, fmt, rule = answer_parts(g)
    meta = g.get("metadata") if isinstance(g.get("metadata"), dict) else {}
    if pred is None:
        text, status = "", "missing"
    else:
        text, status = pred
        if status in ("context_overflow", "vision_unsupported"):
            text = "CONTEXT_OVERFLOW"
    gold_text = to_text(value)
    row = {
        "question_id": get_id(g), "prediction": text, "gold_answer": gold_text,
        "answer_format": fmt, "status": status,
        "accuracy": accuracy(answer_kind(fmt, rule), text, gold_text),
        "token_f1": token_f1(text, gold_text), "anls": anls(text, gold_text),
        "split": g.get("task_type") or "", "domain": meta.get("domain"),
        "reasoning_type": meta.get("reasoning_type"),
    }  # fmt: skip
    sources = meta.get("evidence_sources") or []
    sources = sources if isinstance(sources, list) else [sources]
    labels = {
        "split": [label(row["split"])], "domain": [label(row["domain"])],
        "reasoning_type": [label(row["reasoning_type"])], "answer_format": [label(fmt)],
        "difficulty": [label(meta.get("difficulty"))], "doc_type": [label(meta.get("doc_type"))],
        "evidence_source": [label(s) for s in sources] or ["unknown"],
    }  # fmt: skip
    return row, labels


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    out: dict[str, Any] = {"count": n}
    for key in ("accuracy", "token_f1", "anls"):
        out[key] = round(sum(r[key] for r in rows) / n, 6) if n else 0.0
    return out


def evaluate(
    gold_paths: list[str], prediction_path: str, field: str | None, ignore_missing: bool
) -> dict[str, Any]:
    gold = load_gold(gold_paths)
    predictions = load_predictions(prediction_path, field)
    gold_ids = {get_id(g) for g in gold}
    rows, groups = [], {d: {} for d in DIMENSIONS}  # type: ignore[var-annotated]
    missing = 0
    for g in gold:
        pred = predictions.get(get_id(g))  # type: ignore[arg-type]
        if pred is None:
            missing += 1
            if ignore_missing:
                continue
        row, labels = score_question(g, pred)
        rows.append(row)
        for dim in DIMENSIONS:
            for name in labels[dim]:
                groups[dim].setdefault(name, []).append(row)
    return {
        "gold_count": len(gold),
        "prediction_count": len(predictions),
        "evaluated_count": len(rows),
        "missing_prediction_count": missing,
        "extra_prediction_count": len(set(predictions) - gold_ids),
        "overall": summarize(rows),
        "breakdowns": {
            dim: {name: summarize(groups[dim][name]) for name in sorted(groups[dim])}
            for dim in DIMENSIONS
        },
        "per_question": [
            {k: round(v, 6) if k in ("accuracy", "token_f1", "anls") else v for k, v in r.items()}
            for r in rows
        ],
    }


def report_bytes(report: dict[str, Any]) -> bytes:
    return json.dumps(report, indent=2, ensure_ascii=False).encode("utf-8")


def csv_bytes(report: dict[str, Any]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(ROW_KEYS)
    for row in report["per_question"]:
        writer.writerow([row[k] for k in ROW_KEYS])
    return buffer.getvalue().encode("utf-8")  # a lone surrogate fails here, as released

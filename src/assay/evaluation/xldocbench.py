r"""Relaxed accuracy as the XL-DocBench released evaluator computes it, quirks kept.

P and G are the ``xldocbench``-normalised prediction and gold. The answer type comes
from the format through :data:`ANSWER_TYPES`; only an unmapped format consults the
verification rule (``numeric``/``tolerance`` in it → numeric), else the type is the
lowercased format.

- unanswerable: 1 iff P contains any of :data:`UNANSWERABLE_PHRASES` (plain substring).
- boolean: P is TRUE if it contains yes/true/correct, else FALSE if it contains
  no/false/incorrect, else undecided (→ 0); G is TRUE iff it contains yes/true/correct.
  (So "incorrect" reads TRUE and "I don't know" reads FALSE: kept on purpose.)
- numeric, percentage: first ``-?\d*\.?\d+`` of P and G with commas and ASCII spaces
  deleted (so ``No. 5`` → ``no.5`` → 0.5, ``p. 12`` → .12, ``.5`` and ``-.5`` are
  numbers); gold 0 → 1 iff ``|p| < 1e-6``, else ``|p − g| / |g| ≤ 0.05``. A side
  without a number falls through to the string rule.
- single_choice: first standalone A–D in the raw, stripped, uppercased texts; both
  found → equal or not; else the string rule.
- string rule: G non-empty and a character substring of P → 1; else similarity
  ``1 − lev / max len`` ≥ 0.8 → 1; else 0.
"""

from __future__ import annotations

import re
from typing import Any

from assay.metrics.edit import similarity, similarity_bound

ANSWER_TYPES = {
    "Str": "entity",
    "Int": "numeric",
    "Float": "numeric",
    "None": "unanswerable",
    "Bool": "boolean",
    "Boolean": "boolean",
    "Percentage": "percentage",
}
UNANSWERABLE_PHRASES = (
    "not answerable",
    "unanswerable",
    "cannot be determined",
    "cannot be answered",
    "not enough information",
    "context_overflow",
)
TRUE_WORDS = ("yes", "true", "correct")
FALSE_WORDS = ("no", "false", "incorrect")
NUMERIC_TOLERANCE = 0.05
STRING_SIMILARITY = 0.8

_NUMBER = re.compile(r"-?\d*\.?\d+")
_LETTER = re.compile(r"\b([A-D])\b")

CONFIG: dict[str, Any] = {
    "answer_types": ANSWER_TYPES,
    "unanswerable_phrases": list(UNANSWERABLE_PHRASES),
    "true_words": list(TRUE_WORDS),
    "false_words": list(FALSE_WORDS),
    "number_pattern": _NUMBER.pattern,
    "choice_pattern": _LETTER.pattern,
    "numeric_tolerance": NUMERIC_TOLERANCE,
    "string_similarity": STRING_SIMILARITY,
}


def answer_type(answer_format: str, rule: str) -> str:
    """The answer type: the format's mapped type, else from the rule or the format."""
    mapped = ANSWER_TYPES.get(answer_format)
    if mapped is not None:
        return mapped
    if "numeric" in rule or "tolerance" in rule:
        return "numeric"
    return answer_format.lower()


def number(normalised: str) -> float | None:
    """The first number of a normalised text after deleting commas and ASCII spaces."""
    match = _NUMBER.search(normalised.replace(",", "").replace(" ", ""))
    return float(match.group()) if match else None


def choice_letter(raw: str) -> str | None:
    """The first standalone letter A–D of the stripped, uppercased raw text."""
    match = _LETTER.search(raw.strip().upper())
    return match.group(1) if match else None


def string_rule(p: str, g: str) -> float:
    """Character containment of G in P, else similarity ≥ 0.8."""
    if g and g in p:
        return 1.0
    if similarity_bound(p, g) < STRING_SIMILARITY:  # the lengths alone keep it below
        return 0.0
    return 1.0 if similarity(p, g) >= STRING_SIMILARITY else 0.0


def polarity(p: str) -> bool | None:
    """TRUE/FALSE/undecided by substrings, TRUE words first."""
    if any(word in p for word in TRUE_WORDS):
        return True
    if any(word in p for word in FALSE_WORDS):
        return False
    return None


def numeric_rule(p: str, g: str, gold_number: float | None) -> float:
    """Relative tolerance on the first numbers; fall through to the string rule."""
    pred_number = number(p)
    if pred_number is None or gold_number is None:
        return string_rule(p, g)
    if gold_number == 0:
        return 1.0 if abs(pred_number) < 1e-6 else 0.0
    return 1.0 if abs(pred_number - gold_number) / abs(gold_number) <= NUMERIC_TOLERANCE else 0.0


def accuracy(kind: str, raw_pred: str, p: str, raw_gold: str, g: str) -> float:
    """Relaxed accuracy (0 or 1) of normalised P against normalised G for a type."""
    if kind == "unanswerable":
        return 1.0 if any(phrase in p for phrase in UNANSWERABLE_PHRASES) else 0.0
    if kind == "boolean":
        pred = polarity(p)
        gold = any(word in g for word in TRUE_WORDS)
        return 1.0 if pred is not None and pred == gold else 0.0
    if kind in ("numeric", "percentage"):
        return numeric_rule(p, g, number(g))
    if kind == "single_choice":
        pred_letter, gold_letter = choice_letter(raw_pred), choice_letter(raw_gold)
        if pred_letter is not None and gold_letter is not None:
            return 1.0 if pred_letter == gold_letter else 0.0
    return string_rule(p, g)

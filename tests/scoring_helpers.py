"""Helpers shared by the profile tests: build one gold question and score one text."""

from __future__ import annotations

from typing import Any

from assay.evaluation.profiles import QuestionScores, get_profile
from assay.io.gold import parse_gold_row


def gold_row(value: Any, fmt: str | None = "Str", rule: str | None = None, **extra: Any) -> dict:
    answer: dict[str, Any] = {"value": value}
    if fmt is not None:
        answer["format"] = fmt
    if rule is not None:
        answer["verification_rule"] = rule
    return {"question_id": "q1", "answer": answer, **extra}


def scores(
    profile: str,
    pred: str,
    value: Any,
    fmt: str | None = "Str",
    rule: str | None = None,
    substituted: bool = False,
) -> QuestionScores:
    chosen = get_profile(profile)
    prepared = chosen.prepare(parse_gold_row(gold_row(value, fmt, rule), "gold.jsonl", 1))
    return chosen.score(prepared, pred, substituted)


def acc(
    profile: str,
    pred: str,
    value: Any,
    fmt: str | None = "Str",
    rule: str | None = None,
    substituted: bool = False,
) -> float:
    return scores(profile, pred, value, fmt, rule, substituted).accuracy


def levenshtein(a: str, b: str) -> int:
    """Textbook dynamic-programming edit distance (independent of rapidfuzz)."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]

"""Judging claims: ``supported``, ``contradicted``, ``insufficient`` or ``judge_failed``.

* A field claim is compared with its :class:`~assay.structured.claims.FieldReference`
  under the field's rule. No reference for the field → ``insufficient``. A claim the
  rule cannot compare (a word under ``number``, a non-date under ``date``, a
  non-string under ``casefold``) → ``judge_failed``.
* A free-text claim goes through a :class:`Judge`. The built-in
  :class:`NormalizedMatchJudge` is deterministic: after SQuAD normalisation the
  claim equal to a reference statement is ``supported``, equal to a reference
  contradiction ``contradicted``, equal to both ``judge_failed`` (the reference
  disagrees with itself), neither ``insufficient``. A judge that raises or returns
  something other than a verdict also yields ``judge_failed`` — counted, never dropped.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any, Protocol, runtime_checkable

from assay.structured.claims import Claim, FieldReference, Reference, parse_iso_date
from assay.text.normalize import normalize_squad

SUPPORTED = "supported"
CONTRADICTED = "contradicted"
INSUFFICIENT = "insufficient"
JUDGE_FAILED = "judge_failed"
VERDICTS: tuple[str, ...] = (SUPPORTED, CONTRADICTED, INSUFFICIENT, JUDGE_FAILED)
JUDGED: frozenset[str] = frozenset({SUPPORTED, CONTRADICTED, INSUFFICIENT})


@runtime_checkable
class Judge(Protocol):
    """Decides a free-text claim against reference statements.

    ``judge`` returns one of ``supported``, ``contradicted``, ``insufficient`` or
    ``judge_failed``; ``name`` is recorded in the report.
    """

    @property
    def name(self) -> str:
        """A short stable name recorded in the report."""
        ...

    def judge(self, claim: str, statements: Sequence[str], contradictions: Sequence[str]) -> str:
        """The verdict on ``claim``."""
        ...


class NormalizedMatchJudge:
    """Built-in deterministic judge: SQuAD-normalised equality with reference statements."""

    @property
    def name(self) -> str:
        """``normalized-match:squad``."""
        return "normalized-match:squad"

    def judge(self, claim: str, statements: Sequence[str], contradictions: Sequence[str]) -> str:
        """See the module docstring."""
        key = normalize_squad(claim)
        supports = any(normalize_squad(s) == key for s in statements)
        refutes = any(normalize_squad(s) == key for s in contradictions)
        if supports and refutes:
            return JUDGE_FAILED
        if supports:
            return SUPPORTED
        return CONTRADICTED if refutes else INSUFFICIENT


@dataclass(frozen=True, slots=True)
class ClaimVerdict:
    """A claim with its verdict.

    Attributes:
        claim: the claim.
        verdict: one of :data:`VERDICTS`.
        rule: the comparison rule or judge name used, or ``None`` (no reference).
        expected: the expected value(s) it was compared with, or ``None``.
        detail: why the verdict is what it is, for ``judge_failed`` and mismatches.
    """

    claim: Claim
    verdict: str
    rule: str | None = None
    expected: Any = None
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Canonical JSON form."""
        return {
            "detail": self.detail,
            "expected": self.expected,
            "field": self.claim.field,
            "free_text": self.claim.free_text,
            "pointer": self.claim.pointer,
            "rule": self.rule,
            "value": self.claim.value,
            "verdict": self.verdict,
        }


def judge_claims(
    claims: Sequence[Claim], reference: Reference, judge: Judge
) -> tuple[ClaimVerdict, ...]:
    """Judge every claim against ``reference`` (field rules or the free-text judge)."""
    by_field: dict[str, FieldReference] = {}
    for entry in reference.fields:
        by_field.setdefault(entry.field, entry)  # the first entry of a field, as Reference.get
    return tuple(
        judge_text(c, reference, judge) if c.free_text else judge_field(c, by_field.get(c.field))
        for c in claims
    )


def judge_text(claim: Claim, reference: Reference, judge: Judge) -> ClaimVerdict:
    """A free-text claim through ``judge``; failures become ``judge_failed``."""
    if not reference.statements and not reference.contradictions:
        return ClaimVerdict(claim, INSUFFICIENT, judge.name, None, "no reference statements")
    try:
        verdict = judge.judge(str(claim.value), reference.statements, reference.contradictions)
    except Exception as exc:  # noqa: BLE001 - any judge failure is recorded, not raised
        return ClaimVerdict(claim, JUDGE_FAILED, judge.name, None, f"judge raised {exc!r}")
    if verdict not in VERDICTS:
        return ClaimVerdict(claim, JUDGE_FAILED, judge.name, None, f"judge returned {verdict!r}")
    return ClaimVerdict(claim, verdict, judge.name)


def judge_field(claim: Claim, reference: FieldReference | None) -> ClaimVerdict:
    """A field claim under its reference's rule (``insufficient`` without a reference)."""
    if reference is None:
        return ClaimVerdict(claim, INSUFFICIENT, None, None, "no reference for this field")
    accepted = (
        [*reference.value, *reference.aliases]
        if reference.rule == "one_of"
        else [reference.value, *reference.aliases]
    )
    expected = reference.value
    failure = None
    for value in accepted:  # comparisons have no side effects: stop at the first match
        outcome = _compare(reference.rule, claim.value, value, reference.tolerance)
        if outcome is True:
            return ClaimVerdict(claim, SUPPORTED, reference.rule, expected)
        if failure is None and isinstance(outcome, str):
            failure = outcome
    if failure is not None:
        return ClaimVerdict(claim, JUDGE_FAILED, reference.rule, expected, failure)
    return ClaimVerdict(claim, CONTRADICTED, reference.rule, expected, "value differs")


def _compare(rule: str, claim: Any, expected: Any, tolerance: float) -> bool | str:
    """``True``/``False`` for a decided comparison, or a string saying why it cannot decide."""
    if rule == "number":
        return _compare_numbers(claim, expected, tolerance)
    if rule == "date":
        day = parse_iso_date(claim)
        if day is None:
            return f"claim {claim!r} is not an ISO date YYYY-MM-DD"
        return day == parse_iso_date(expected)
    if rule == "casefold" or (rule == "one_of" and isinstance(expected, str)):
        if not isinstance(claim, str):
            return f"claim {claim!r} is not a string"
        return _fold(claim) == _fold(expected)
    return json_equal(claim, expected)


def _compare_numbers(claim: Any, expected: Any, tolerance: float) -> bool | str:
    """``|claim - expected| <= tolerance``, computed exactly (no float rounding, no overflow).

    Each side is read as the decimal number it is written as (a float as its shortest
    repr, so ``0.1`` and ``"0.1"`` are equal) as an exact ratio of integers, and the
    inequality is decided in integers (cross-multiplied).
    """
    number = _as_number(claim)
    if isinstance(number, str):
        return f"claim {_short(claim)} {number}"
    reference = _as_number(expected)
    if isinstance(reference, str):
        return f"reference value {_short(expected)} {reference}"
    limit = _as_number(tolerance)
    if isinstance(limit, str):
        return f"tolerance {_short(tolerance)} {limit}"
    (a, b), (c, d), (e, f) = number, reference, limit  # a/b, c/d, e/f with b, d, f > 0
    return abs(a * d - c * b) * f <= e * b * d


# a numeric string's exponent beyond this is too large to compare exactly in reasonable time
MAX_EXPONENT = 4300


def _as_number(value: Any) -> tuple[int, int] | str:
    """The exact value of a JSON number or numeric string as a ratio ``(p, q)``, ``q > 0``.

    Or, when there is none, why.
    """
    if isinstance(value, bool):
        return "is not a number"
    if isinstance(value, int):
        return int(value), 1
    if isinstance(value, float):
        # a JSON number is a decimal literal: read the float as the shortest decimal it prints as
        if not math.isfinite(value):
            return "is not a finite number"
        return _float_ratio(value)
    if not isinstance(value, str):
        return "is not a number"
    try:
        decimal = Decimal(value.strip())
    except (InvalidOperation, ValueError):
        return "is not a number"
    if not decimal.is_finite():
        return "is not a finite number"
    if abs(decimal.adjusted()) > MAX_EXPONENT:
        return f"has an exponent beyond ±{MAX_EXPONENT}; too large to compare exactly"
    return decimal.as_integer_ratio()


@lru_cache(maxsize=4096)
def _float_ratio(value: float) -> tuple[int, int]:
    """A finite float as the exact ratio of the shortest decimal it prints as.

    Memoised: reference values and tolerances recur on every item (``-0.0`` and ``0.0``
    share a key and both give ``(0, 1)``).
    """
    return Decimal(repr(value)).as_integer_ratio()


def _short(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**50:
        return f"(an integer of {len(str(abs(value)))} digits)"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def json_equal(a: Any, b: Any) -> bool:
    """JSON equality: booleans never equal numbers; ``1`` equals ``1.0``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b

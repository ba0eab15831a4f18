"""Per-item FORMAT and FACT results, and the report record built from them.

Every item lands in exactly one format bucket and, within it, one fact status::

    total       = empty + format_fail + format_pass
    format_pass = scorable + unscorable          (fact status of format-pass items)
    format_fail = scorable + unscorable          (scorable only via the declared
                                                  fallback, a parsed object that
                                                  breaks the schema, or free-text claims)

Both identities are checked each time a report is built. ``empty`` responses get
the format verdict ``fail`` with reason ``empty`` but their own bucket, so
``format_fail`` counts non-empty failures only.

**Fact reading.** Facts are read from the response when it parses as one JSON value
(even if it breaks the schema). A wrapped response (fenced or with prose) has its
inner JSON read only when the run declares ``read_facts_from_wrapped`` up front;
its format failure is kept either way. Free-text ``claims`` on an item are always
judged. Unscorable reasons, first match wins: ``format_unparseable`` (no JSON
could be read), ``no_reference``, ``no_claims``, ``judge_failed`` (every claim's
judge failed).

**Fact pass** ("all supported"): scorable, every claim ``supported`` and every
required item stated. An answer with no claims is unscorable, never a fact pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from assay.structured.claims import Claim, extract_claims, text_claims
from assay.structured.contract import Contract, FieldError
from assay.structured.items import StructuredItem
from assay.structured.parse import EMPTY, Parsed, parse_response
from assay.structured.verdicts import (
    JUDGED,
    SUPPORTED,
    VERDICTS,
    ClaimVerdict,
    Judge,
    judge_claims,
)

EMPTY_BUCKET = "empty"
FORMAT_FAIL = "format_fail"
FORMAT_PASS = "format_pass"
BUCKETS: tuple[str, ...] = (EMPTY_BUCKET, FORMAT_FAIL, FORMAT_PASS)
UNSCORABLE_REASONS: tuple[str, ...] = (
    "format_unparseable",
    "no_reference",
    "no_claims",
    "judge_failed",
)


@dataclass(frozen=True, slots=True)
class FormatResult:
    """The FORMAT verdict of one raw response.

    Attributes:
        verdict: ``pass`` or ``fail``.
        reasons: parse reason codes, then ``schema.<keyword>`` codes (sorted, unique).
        field_errors: schema violations of the response as delivered.
        would_pass_if_unwrapped: for wrapped responses with one inner JSON value,
            whether that inner value satisfies the contract (never counted as a
            pass); ``None`` when not applicable.
        unwrapped_field_errors: schema violations of the inner value (diagnostic).
    """

    verdict: str
    reasons: tuple[str, ...]
    field_errors: tuple[FieldError, ...] = ()
    would_pass_if_unwrapped: bool | None = None
    unwrapped_field_errors: tuple[FieldError, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Canonical JSON form."""
        return {
            "field_errors": [e.to_dict() for e in self.field_errors],
            "reasons": list(self.reasons),
            "unwrapped_field_errors": [e.to_dict() for e in self.unwrapped_field_errors],
            "verdict": self.verdict,
            "would_pass_if_unwrapped": self.would_pass_if_unwrapped,
        }


@dataclass(frozen=True, slots=True)
class FactResult:
    """The FACT judgement of one item.

    Attributes:
        status: ``scorable`` or ``unscorable``.
        reason: why it is unscorable (one of :data:`UNSCORABLE_REASONS`), else ``None``.
        source: where claims were read: ``response``, ``unwrapped``, ``claims``
            (free text only) or ``None``.
        verdicts: every claim with its verdict.
        required: required information items from the reference.
        missing_required: required items the answer did not state.
    """

    status: str
    reason: str | None
    source: str | None
    verdicts: tuple[ClaimVerdict, ...] = ()
    required: tuple[str, ...] = ()
    missing_required: tuple[str, ...] = ()

    def count(self, verdict: str) -> int:
        """How many claims got ``verdict``."""
        return sum(1 for v in self.verdicts if v.verdict == verdict)

    @property
    def all_supported(self) -> bool:
        """Fact pass: scorable, every claim supported, every required item stated."""
        return (
            self.status == "scorable"
            and all(v.verdict == SUPPORTED for v in self.verdicts)
            and not self.missing_required
        )

    def to_dict(self) -> dict[str, Any]:
        """Canonical JSON form."""
        counts = dict.fromkeys(VERDICTS, 0)
        for claim in self.verdicts:
            if claim.verdict in counts:
                counts[claim.verdict] += 1
        all_supported = (  # as the property: every claim supported, none missing
            self.status == "scorable"
            and counts[SUPPORTED] == len(self.verdicts)
            and not self.missing_required
        )
        return {
            "all_supported": all_supported,
            "claims": [v.to_dict() for v in self.verdicts],
            "counts": counts,
            "missing_required": list(self.missing_required),
            "reason": self.reason,
            "required": list(self.required),
            "source": self.source,
            "status": self.status,
        }


@dataclass(frozen=True, slots=True)
class ItemResult:
    """One item's bucket, FORMAT result and FACT result."""

    item: StructuredItem
    bucket: str
    format: FormatResult
    fact: FactResult

    @property
    def end_to_end_pass(self) -> bool:
        """Format pass AND every claim supported AND coverage complete."""
        return self.bucket == FORMAT_PASS and self.fact.all_supported

    def to_dict(self) -> dict[str, Any]:
        """Canonical JSON form (the raw response verbatim)."""
        fact = self.fact.to_dict()
        return {
            "bucket": self.bucket,
            "end_to_end_pass": self.bucket == FORMAT_PASS and fact["all_supported"],
            "fact": fact,
            "format": self.format.to_dict(),
            "id": self.item.id,
            "line": self.item.line,
            "reference": None if self.item.reference is None else self.item.reference.to_dict(),
            "response": self.item.response,
        }


def check_format(response: str, contract: Contract) -> tuple[FormatResult, Parsed]:
    """The FORMAT verdict of a raw response, and how it parsed."""
    parsed = parse_response(response)
    if not parsed.ok:
        unwrapped = contract.check(parsed.inner) if parsed.has_inner else ()
        would_pass = (not unwrapped) if parsed.has_inner else None
        result = FormatResult("fail", parsed.reasons, (), would_pass, unwrapped)
        return result, parsed
    errors = contract.check(parsed.value)
    keywords = tuple(sorted({e.keyword for e in errors}))
    return FormatResult("fail" if errors else "pass", keywords, errors), parsed


def judge_facts(
    item: StructuredItem, parsed: Parsed, *, read_facts_from_wrapped: bool, judge: Judge
) -> FactResult:
    """The FACT judgement of an item (see the module docstring for the rules)."""
    value, source = _readable(parsed, read_facts_from_wrapped)
    claims: tuple[Claim, ...] = extract_claims(value) if source else ()
    claims += text_claims(item.claims)
    if source is None and item.claims:
        source = "claims"
    reference = item.reference
    required = reference.required if reference else ()
    stated = {c.field for c in claims if not c.free_text}
    missing = tuple(
        r for r in required if r not in stated and not any(_states(f, r) for f in stated)
    )
    if source is None:
        return FactResult("unscorable", "format_unparseable", None, (), required, missing)
    if reference is None:
        return FactResult("unscorable", "no_reference", source, (), required, missing)
    if not claims:
        return FactResult("unscorable", "no_claims", source, (), required, missing)
    verdicts = judge_claims(claims, reference, judge)
    if not any(v.verdict in JUDGED for v in verdicts):
        return FactResult("unscorable", "judge_failed", source, verdicts, required, missing)
    return FactResult("scorable", None, source, verdicts, required, missing)


def _readable(parsed: Parsed, read_facts_from_wrapped: bool) -> tuple[Any, str | None]:
    if parsed.ok:
        return parsed.value, "response"
    if read_facts_from_wrapped and parsed.has_inner:
        return parsed.inner, "unwrapped"
    return None, None


def _states(field: str, required: str) -> bool:
    """Whether a claim on ``field`` states the required item ``required``."""
    return field == required or field.startswith(required + ".")


def score_item(
    item: StructuredItem, contract: Contract, *, read_facts_from_wrapped: bool, judge: Judge
) -> ItemResult:
    """Score one item on both axes."""
    format_result, parsed = check_format(item.response, contract)
    fact = judge_facts(item, parsed, read_facts_from_wrapped=read_facts_from_wrapped, judge=judge)
    if EMPTY in format_result.reasons:
        bucket = EMPTY_BUCKET
    else:
        bucket = FORMAT_PASS if format_result.verdict == "pass" else FORMAT_FAIL
    return ItemResult(item, bucket, format_result, fact)


def score_items(
    items: Sequence[StructuredItem],
    contract: Contract,
    *,
    read_facts_from_wrapped: bool,
    judge: Judge,
) -> tuple[ItemResult, ...]:
    """Score every item, in input order."""
    return tuple(
        score_item(i, contract, read_facts_from_wrapped=read_facts_from_wrapped, judge=judge)
        for i in items
    )

"""Aggregate item results: the accounting identity, headline rates and the cross-tab.

Every headline is ``k/n`` with a Wilson 95% interval and carries its definition.
Nothing is dropped from a denominator: unscorable and empty items stay in every
"/ all items" rate, and judge failures stay in the claim denominator.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from assay.errors import AccountingError
from assay.structured.parse import PARSE_REASONS
from assay.structured.scoring import (
    BUCKETS,
    EMPTY_BUCKET,
    FORMAT_FAIL,
    FORMAT_PASS,
    UNSCORABLE_REASONS,
    ItemResult,
)
from assay.structured.verdicts import CONTRADICTED, INSUFFICIENT, JUDGE_FAILED, SUPPORTED, VERDICTS

CONFIDENCE = 0.95
FACT_SCORE_SUBSET_NAME = "fact score on the format-pass subset"


def rate(key: str, name: str, k: int, n: int, definition: str, **extra: int) -> dict[str, Any]:
    """One headline: ``k/n``, the rate (``None`` when ``n == 0``) and its Wilson interval."""
    from assay.stats.intervals import wilson_interval  # numpy: loaded on first report only

    interval = wilson_interval(k, n, CONFIDENCE)
    return {
        "ci95": None if interval.rate is None else [interval.lower, interval.upper],
        "definition": definition,
        "extra": dict(sorted(extra.items())),
        "k": k,
        "key": key,
        "n": n,
        "name": name,
        "rate": None if n == 0 else k / n,
    }


def identity(results: Sequence[ItemResult]) -> dict[str, Any]:
    """Bucket counts and the two identities, checked.

    Raises:
        AccountingError: if a bucket sum differs from its total.
    """
    buckets = Counter(r.bucket for r in results)
    split = Counter((r.bucket, r.fact.status) for r in results)
    total = len(results)
    counts = {b: buckets[b] for b in BUCKETS}
    out: dict[str, Any] = {"total": total, **counts}
    for bucket in (FORMAT_PASS, FORMAT_FAIL):
        out[bucket + "_scorable"] = split[(bucket, "scorable")]
        out[bucket + "_unscorable"] = split[(bucket, "unscorable")]
    # The identity names the split of the format-pass items plainly.
    out["scorable"], out["unscorable"] = out["format_pass_scorable"], out["format_pass_unscorable"]
    lines = [
        ("total = empty + format_fail + format_pass", total, sum(counts.values())),
        (
            "format_pass = scorable + unscorable",
            counts[FORMAT_PASS],
            out["format_pass_scorable"] + out["format_pass_unscorable"],
        ),
        (
            "format_fail = scorable + unscorable",
            counts[FORMAT_FAIL],
            out["format_fail_scorable"] + out["format_fail_unscorable"],
        ),
    ]
    for label, left, right in lines:
        if left != right:
            raise AccountingError(f"accounting identity broken: {label} ({left} != {right})")
    out["equations"] = [
        "total = empty + format_fail + format_pass: "
        f"{total} = {counts[EMPTY_BUCKET]} + {counts[FORMAT_FAIL]} + {counts[FORMAT_PASS]}",
        f"format_pass = scorable + unscorable: {counts[FORMAT_PASS]} = "
        f"{out['format_pass_scorable']} + {out['format_pass_unscorable']}",
        f"format_fail = scorable + unscorable: {counts[FORMAT_FAIL]} = "
        f"{out['format_fail_scorable']} + {out['format_fail_unscorable']}",
    ]
    out["holds"] = True
    return out


def headlines(results: Sequence[ItemResult]) -> list[dict[str, Any]]:
    """The six headline rates, each with its definition."""
    total = len(results)
    verdicts = Counter(v.verdict for r in results for v in r.fact.verdicts)
    claims = sum(verdicts.values())
    required = sum(len(r.fact.required) for r in results)
    missing = sum(len(r.fact.missing_required) for r in results)
    subset = [r for r in results if r.bucket == FORMAT_PASS]
    return [
        rate(
            "format_compliance",
            "format compliance rate",
            sum(r.bucket == FORMAT_PASS for r in results),
            total,
            "items whose raw response is one JSON value satisfying the contract / all items",
        ),
        rate(
            "scorable_coverage",
            "scorable coverage",
            sum(r.fact.status == "scorable" for r in results),
            total,
            "items with a fact judgement (at least one claim judged supported, contradicted "
            "or insufficient) / all items",
        ),
        rate(
            "claim_support",
            "claim support rate",
            verdicts[SUPPORTED],
            claims,
            "supported claims / judged claims (every claim read, including contradicted, "
            "insufficient and judge_failed)",
            contradicted=verdicts[CONTRADICTED],
            insufficient=verdicts[INSUFFICIENT],
            judge_failed=verdicts[JUDGE_FAILED],
        ),
        rate(
            "required_coverage",
            "coverage of required items",
            required - missing,
            required,
            "required information items stated / required items, over all items with a "
            "reference (items that could not be read state none)",
        ),
        rate(
            "end_to_end_pass",
            "end-to-end pass rate",
            sum(r.end_to_end_pass for r in results),
            total,
            "items with format pass AND every claim supported AND coverage complete / all items",
        ),
        rate(
            "fact_score_format_pass_subset",
            FACT_SCORE_SUBSET_NAME,
            sum(r.fact.all_supported for r in subset),
            len(subset),
            "format-pass items with every claim supported and coverage complete / format-pass "
            "items (unscorable format-pass items stay in the denominator)",
            subset_size=len(subset),
        ),
    ]


def cross_tab(results: Sequence[ItemResult]) -> dict[str, Any]:
    """Format {pass, fail} × fact {all supported, not all supported}, plus unscorable and empty."""
    cells = Counter(
        (r.bucket, r.fact.all_supported) for r in results if r.fact.status == "scorable"
    )
    unscorable = Counter(
        r.bucket for r in results if r.fact.status == "unscorable" and r.bucket != EMPTY_BUCKET
    )
    rows: dict[str, dict[str, int]] = {}
    for bucket in (FORMAT_PASS, FORMAT_FAIL):
        yes, no = cells[(bucket, True)], cells[(bucket, False)]
        rows[bucket] = {"all_supported": yes, "not_all_supported": no, "total": yes + no}
    rows["unscorable"] = {
        FORMAT_PASS: unscorable[FORMAT_PASS],
        FORMAT_FAIL: unscorable[FORMAT_FAIL],
        "total": unscorable[FORMAT_PASS] + unscorable[FORMAT_FAIL],
    }
    rows["empty"] = {"total": sum(r.bucket == EMPTY_BUCKET for r in results)}
    grand = sum(row["total"] for row in rows.values())
    if grand != len(results):
        raise AccountingError(f"cross-tab rows sum to {grand}, not {len(results)} items")
    return {
        "definition": "rows: format pass / format fail (scorable items), unscorable "
        "(non-empty items without a fact judgement), empty; 'all supported' = every claim "
        "supported and every required item stated",
        "rows": rows,
        "total": len(results),
    }


def format_summary(results: Sequence[ItemResult]) -> dict[str, Any]:
    """Reason-code counts, the unwrapping diagnostic and field-level error counts."""
    reasons = Counter(code for r in results for code in r.format.reasons)
    ordered = [c for c in PARSE_REASONS if c in reasons] + sorted(
        c for c in reasons if c not in PARSE_REASONS
    )
    fields = Counter((e.field, e.keyword) for r in results for e in r.format.field_errors)
    return {
        "field_errors": [
            {"count": n, "field": f, "keyword": k}
            for (f, k), n in sorted(fields.items(), key=lambda x: (-x[1], x[0]))
        ],
        "reason_counts": {code: reasons[code] for code in ordered},
        "would_pass_if_unwrapped": sum(r.format.would_pass_if_unwrapped is True for r in results),
    }


def fact_summary(results: Sequence[ItemResult]) -> dict[str, Any]:
    """Fact status and unscorable-reason counts, claim verdicts overall and per field."""
    reasons = Counter(r.fact.reason for r in results if r.fact.reason)
    by_field: dict[str, Counter[str]] = {}
    for r in results:
        for v in r.fact.verdicts:
            by_field.setdefault(v.claim.field, Counter())[v.verdict] += 1
    return {
        "claim_verdicts": {v: sum(r.fact.count(v) for r in results) for v in VERDICTS},
        "claims_by_field": {f: {v: c[v] for v in VERDICTS} for f, c in sorted(by_field.items())},
        "sources": dict(sorted(Counter(r.fact.source or "none" for r in results).items())),
        "status_counts": {
            s: sum(r.fact.status == s for r in results) for s in ("scorable", "unscorable")
        },
        "unscorable_reasons": {k: reasons[k] for k in UNSCORABLE_REASONS},
    }

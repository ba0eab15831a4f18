"""Aggregate item results: the accounting identity, headline rates and the cross-tab.

Every headline is ``k/n`` with a Wilson 95% interval and carries its definition.
Nothing is dropped from a denominator: unscorable and empty items stay in every
"/ all items" rate, and judge failures stay in the claim denominator.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
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


@dataclass
class Tally:
    """Every count the report needs, gathered in one pass over the item results."""

    total: int = 0
    buckets: Counter[str] = field(default_factory=Counter)
    split: Counter[tuple[str, str]] = field(default_factory=Counter)
    verdicts: Counter[str] = field(default_factory=Counter)
    required: int = 0
    missing: int = 0
    scorable: int = 0
    end_to_end: int = 0
    subset_supported: int = 0
    cells: Counter[tuple[str, bool]] = field(default_factory=Counter)
    unscorable: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    field_errors: Counter[tuple[str, str]] = field(default_factory=Counter)
    would_pass: int = 0
    fact_reasons: Counter[str] = field(default_factory=Counter)
    by_field: dict[str, Counter[str]] = field(default_factory=dict)
    sources: Counter[str] = field(default_factory=Counter)

    @classmethod
    def of(cls, results: Sequence[ItemResult]) -> Tally:
        """Count ``results`` (one pass; each item's ``all_supported`` read once)."""
        tally = cls(total=len(results))
        for r in results:
            tally.add(r)
        return tally

    def add(self, r: ItemResult) -> None:
        """Count one item."""
        bucket, fact, fmt = r.bucket, r.fact, r.format
        supported = fact.all_supported
        scorable = fact.status == "scorable"
        self.buckets[bucket] += 1
        self.split[(bucket, fact.status)] += 1
        by_field = self.by_field
        for verdict in fact.verdicts:
            self.verdicts[verdict.verdict] += 1
            counts = by_field.get(verdict.claim.field)
            if counts is None:  # a Counter made only for a field not seen before
                counts = by_field[verdict.claim.field] = Counter()
            counts[verdict.verdict] += 1
        self.required += len(fact.required)
        self.missing += len(fact.missing_required)
        self.scorable += scorable
        if bucket == FORMAT_PASS:
            self.end_to_end += supported
            self.subset_supported += supported
        if scorable:
            self.cells[(bucket, supported)] += 1
        elif bucket != EMPTY_BUCKET:
            self.unscorable[bucket] += 1
        self.reasons.update(fmt.reasons)
        for error in fmt.field_errors:
            self.field_errors[(error.field, error.keyword)] += 1
        self.would_pass += fmt.would_pass_if_unwrapped is True
        if fact.reason:
            self.fact_reasons[fact.reason] += 1
        self.sources[fact.source or "none"] += 1

    def absorb(self, later: Tally) -> None:
        """Add the counts of ``later``, a tally of the items that follow this one's.

        The result equals one pass over both runs of items, down to the order in
        which each counter first saw its keys.
        """
        for name in (f.name for f in fields(self)):
            mine, theirs = getattr(self, name), getattr(later, name)
            if name == "by_field":
                for key, counts in theirs.items():
                    if key in mine:
                        mine[key].update(counts)
                    else:
                        mine[key] = Counter(counts)
            elif isinstance(mine, Counter):
                mine.update(theirs)
            else:
                setattr(self, name, mine + theirs)


def _tally(results: Sequence[ItemResult] | Tally) -> Tally:
    return results if isinstance(results, Tally) else Tally.of(results)


def identity(results: Sequence[ItemResult] | Tally) -> dict[str, Any]:
    """Bucket counts and the two identities, checked.

    Raises:
        AccountingError: if a bucket sum differs from its total.
    """
    tally = _tally(results)
    buckets, split, total = tally.buckets, tally.split, tally.total
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


def headlines(results: Sequence[ItemResult] | Tally) -> list[dict[str, Any]]:
    """The six headline rates, each with its definition."""
    tally = _tally(results)
    total, verdicts = tally.total, tally.verdicts
    claims = sum(verdicts.values())
    required, missing = tally.required, tally.missing
    subset = tally.buckets[FORMAT_PASS]
    return [
        rate(
            "format_compliance",
            "format compliance rate",
            subset,
            total,
            "items whose raw response is one JSON value satisfying the contract / all items",
        ),
        rate(
            "scorable_coverage",
            "scorable coverage",
            tally.scorable,
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
            tally.end_to_end,
            total,
            "items with format pass AND every claim supported AND coverage complete / all items",
        ),
        rate(
            "fact_score_format_pass_subset",
            FACT_SCORE_SUBSET_NAME,
            tally.subset_supported,
            subset,
            "format-pass items with every claim supported and coverage complete / format-pass "
            "items (unscorable format-pass items stay in the denominator)",
            subset_size=subset,
        ),
    ]


def cross_tab(results: Sequence[ItemResult] | Tally) -> dict[str, Any]:
    """Format {pass, fail} × fact {all supported, not all supported}, plus unscorable and empty."""
    tally = _tally(results)
    cells, unscorable = tally.cells, tally.unscorable
    rows: dict[str, dict[str, int]] = {}
    for bucket in (FORMAT_PASS, FORMAT_FAIL):
        yes, no = cells[(bucket, True)], cells[(bucket, False)]
        rows[bucket] = {"all_supported": yes, "not_all_supported": no, "total": yes + no}
    rows["unscorable"] = {
        FORMAT_PASS: unscorable[FORMAT_PASS],
        FORMAT_FAIL: unscorable[FORMAT_FAIL],
        "total": unscorable[FORMAT_PASS] + unscorable[FORMAT_FAIL],
    }
    rows["empty"] = {"total": tally.buckets[EMPTY_BUCKET]}
    grand = sum(row["total"] for row in rows.values())
    if grand != tally.total:
        raise AccountingError(f"cross-tab rows sum to {grand}, not {tally.total} items")
    return {
        "definition": "rows: format pass / format fail (scorable items), unscorable "
        "(non-empty items without a fact judgement), empty; 'all supported' = every claim "
        "supported and every required item stated",
        "rows": rows,
        "total": tally.total,
    }


def format_summary(results: Sequence[ItemResult] | Tally) -> dict[str, Any]:
    """Reason-code counts, the unwrapping diagnostic and field-level error counts."""
    tally = _tally(results)
    reasons = tally.reasons
    ordered = [c for c in PARSE_REASONS if c in reasons] + sorted(
        c for c in reasons if c not in PARSE_REASONS
    )
    fields = tally.field_errors
    return {
        "field_errors": [
            {"count": n, "field": f, "keyword": k}
            for (f, k), n in sorted(fields.items(), key=lambda x: (-x[1], x[0]))
        ],
        "reason_counts": {code: reasons[code] for code in ordered},
        "would_pass_if_unwrapped": tally.would_pass,
    }


def fact_summary(results: Sequence[ItemResult] | Tally) -> dict[str, Any]:
    """Fact status and unscorable-reason counts, claim verdicts overall and per field."""
    tally = _tally(results)
    reasons, by_field = tally.fact_reasons, tally.by_field
    status: Counter[str] = Counter()
    for (_, state), n in tally.split.items():
        status[state] += n
    return {
        "claim_verdicts": {v: tally.verdicts[v] for v in VERDICTS},
        "claims_by_field": {f: {v: c[v] for v in VERDICTS} for f, c in sorted(by_field.items())},
        "sources": dict(sorted(tally.sources.items())),
        "status_counts": {s: status[s] for s in ("scorable", "unscorable")},
        "unscorable_reasons": {k: reasons[k] for k in UNSCORABLE_REASONS},
    }

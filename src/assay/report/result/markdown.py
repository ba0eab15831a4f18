"""Markdown from a saved result document: leaderboard, pairwise table, accounting, slices.

Reads only numbers already in the document (see :mod:`assay.evaluation.compare`);
uses the table helpers of :mod:`assay.report.markdown`. A structured-output
report (kind ``assay.structured``) renders as its headline and cross-tab tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from assay.report.markdown import (
    escape_cell,
    format_interval,
    format_number,
    markdown_table,
    render_leaderboard,
)

METRIC_TITLES = {"accuracy": "accuracy", "token_f1": "token F1", "anls": "ANLS"}
CROSS_ROWS = ("format_pass", "format_fail", "unscorable", "empty")
CROSS_COLUMNS = ("all_supported", "not_all_supported", "format_pass", "format_fail")
SLICE_DIMENSIONS = (
    "domain",
    "difficulty",
    "reasoning_type",
    "answer_format",
    "evidence_source",
    "split",
    "doc_type",
)


def estimate_text(estimate: dict[str, Any] | None, digits: int = 3) -> str:
    """``0.750 [0.600, 0.900]``, ``0.750 (n/a)`` without an interval, ``empty`` for none."""
    if estimate is None or estimate.get("n") == 0 or estimate.get("mean") is None:
        return "empty"
    interval = format_interval(estimate.get("lower"), estimate.get("upper"), digits)
    return f"{format_number(estimate['mean'], digits)} {interval}"


def p_text(value: float | None) -> str:
    """A p-value with 4 decimals, ``<0.0001`` below that, ``n/a`` when missing."""
    if value is None:
        return "n/a"
    return "<0.0001" if value < 0.0001 else f"{value:.4f}"


def evaluated_cell(system: dict[str, Any]) -> str:
    """``evaluated/gold`` of a system entry: the questions with a prediction (docs/counts.md).

    A result saved before ``evaluated`` was recorded gives it from its buckets.
    """
    evaluated = system.get("evaluated")
    if evaluated is None:
        evaluated = system["gold_count"] - system["accounting"]["buckets"].get("missing", 0)
    return f"{evaluated}/{system['gold_count']}"


def leaderboard_rows(document: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows for :func:`render_leaderboard` on the ranking metric."""
    metric = document["comparison"]["metric"]
    rows = []
    for system in document["systems"]:
        estimate = system["overall"][metric]
        row = {
            "system": system["system"],
            "score": estimate["mean"],
            "lower": estimate["lower"],
            "upper": estimate["upper"],
            "group": system["tie_group"],
            "n": estimate["n"],
            "evaluated": evaluated_cell(system),
        }
        rate = system.get("accuracy_rate")
        if metric == "accuracy" and rate is not None:
            row["k"] = rate["k"]
        rows.append(row)
    return rows


def pairwise_table(document: dict[str, Any]) -> str:
    """One row per pair: difference, its interval, p, Holm p, McNemar p, MDD."""
    rows = []
    for pair in document["comparison"]["pairs"]:
        diff = pair["difference"] or {}
        mcnemar = pair.get("mcnemar")
        rows.append(
            [
                f"{pair['a']} − {pair['b']}",
                format_number(pair["test"]["difference"]),
                format_interval(diff.get("lower"), diff.get("upper")),
                p_text(pair["test"]["p_value"]),
                p_text(pair["p_holm"]),
                p_text(mcnemar["p_value"]) if mcnemar else "n/a",
                format_number(diff.get("mdd")),
                "yes" if pair["significant"] else "no",
            ]
        )
    headers = ["pair", "difference", "95% CI", "p", "p (Holm)", "p (McNemar)", "MDD", "sig."]
    return markdown_table(headers, rows, "lrrrrrrl")


def accounting_table(document: dict[str, Any]) -> str:
    """The accounting identity of every system."""
    rows = [
        [s["system"], s["accounting"]["equation"], "yes" if s["accounting"]["holds"] else "NO"]
        for s in document["systems"]
    ]
    return markdown_table(["system", "total = buckets", "holds"], rows, "lll")


def slice_table(document: dict[str, Any], dimension: str) -> str:
    """Ranking metric per label of one dimension, one column per system."""
    metric = document["comparison"]["metric"]
    names = [s["system"] for s in document["systems"]]
    rows = []
    for label, per_system in document["slices"].get(dimension, {}).items():
        counts = [entry["n"] for entry in per_system.values()]
        cells = [estimate_text(per_system.get(n, {}).get(metric)) for n in names]
        rows.append([label, str(max(counts)), *cells])
    return markdown_table([dimension, "n", *names], rows, "lr" + "r" * len(names))


def trials_phrase(comparison: Mapping[str, Any]) -> str:
    """How many trials the paired test drew, in words.

    ``10000 trials`` (``1000 resamples`` for the bootstrap), ``exact, no trials``, or
    the count the power guard raised to and from what.
    """
    if comparison.get("power_guard") == "exact":
        return "exact, no trials"
    unit = "resamples" if comparison["method"] == "paired_bootstrap" else "trials"
    text = f"{comparison['n_resamples']} {unit}"
    if comparison.get("power_guard") == "raised":
        text += (
            f" (raised from {comparison['n_resamples_requested']} by the power guard: "
            "the fewest that can reach alpha after Holm)"
        )
    return text


def unresolved_note(comparison: dict[str, Any]) -> str | None:
    """What the unresolved adjacent pairs of the tie groups mean, or ``None`` if none."""
    pairs = comparison["tie_groups"].get("unresolved") or []
    if not pairs:
        return None
    listed = ", ".join(f"{a} – {b}" for a, b in pairs)
    return (
        f"Unresolved, not tied: {listed}. Their test could not have reached alpha after "
        "Holm at all (too few items on which the two differ), so they are not grouped as "
        "a tie; their separate groups are no evidence of a difference either: nothing can "
        "order them on these data."
    )


def _notes(document: dict[str, Any]) -> list[str]:
    stats = document["statistics"]
    comparison = document["comparison"]
    unresolved = unresolved_note(comparison)
    return [
        f"Ranked by {METRIC_TITLES[comparison['metric']]} over each system's n questions "
        "(a missing prediction scored as \"\" unless --ignore-missing; correct/n: "
        f"questions with accuracy 1; evaluated: those with a prediction); "
        f"{stats['mean_interval']}.",
        f"Rank = tie group: {stats['tie_groups']} (alpha {comparison['alpha']}).",
        *([unresolved] if unresolved else []),
        f"Paired test: {comparison['method']}, {trials_phrase(comparison)}, "
        f"seed {comparison['seed']}, on {comparison['n_paired']} questions every system's "
        "figures are over (n); p-values Holm-adjusted; MDD at alpha 0.05 and 80% power.",
        f"Profile {document['profile']}, assay {document['assay_version']}, "
        f"evaluator sha256 {document['evaluator_sha256']}.",
    ]


def render_result_markdown(document: dict[str, Any]) -> str:
    """The whole Markdown report of a result document (or of a structured report)."""
    if document.get("kind") == "assay.structured":
        return render_structured_markdown(document)
    metric = METRIC_TITLES[document["comparison"]["metric"]]
    parts = ["# assay results\n"]
    ci = f"{document['statistics']['confidence']:.0%}"
    rows = leaderboard_rows(document)
    counted = "correct/n" if any("k" in row for row in rows) else "n"  # docs/counts.md
    parts.append(render_leaderboard(rows, title=f"Leaderboard ({metric})", count_header=counted))
    parts.append("".join(f"- {escape_cell(note)}\n" for note in _notes(document)))
    pairwise = (
        pairwise_table(document)
        if document["comparison"]["pairs"]
        else "One system: nothing to compare pairwise.\n"
    )
    parts.append(f"## Pairwise differences ({metric}, {ci} CI)\n\n" + pairwise)
    parts.append("## Accounting\n\n" + accounting_table(document))
    parts.append(f"## Slices ({metric}, mean [{ci} CI])\n")
    dims = [d for d in SLICE_DIMENSIONS if d in document["slices"]]
    parts += [f"### {d}\n\n" + slice_table(document, d) for d in dims]
    if document.get("structured"):
        parts.append(render_structured_markdown(document["structured"], level=2))
    return "\n".join(parts)


def render_structured_markdown(report: dict[str, Any], level: int = 1) -> str:
    """Headline rates (k/n with Wilson interval) and the format × fact cross-tab."""
    hashes = "#" * level
    rows = []
    for h in report["headlines"]:
        ci = h.get("ci95") or [None, None]
        rows.append(
            [h["name"], format_number(h["rate"]), format_interval(ci[0], ci[1]),
             f"{h['k']}/{h['n']}"]
        )  # fmt: skip
    headers, cross_rows = cross_tab_cells(report["cross_tab"])
    return "\n".join(
        [
            f"{hashes} Structured output\n",
            markdown_table(["headline", "rate", "95% CI (Wilson)", "k/n"], rows, "lrrr"),
            f"{hashes}# Format × fact\n",
            markdown_table(headers, cross_rows, "l" + "r" * (len(headers) - 1)),
        ]
    )  # fmt: skip


def cross_tab_cells(cross: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Headers and cells of the format × fact cross-tab (blank where a row has no column)."""
    columns: list[str] = [c for c in CROSS_COLUMNS if any(c in r for r in cross["rows"].values())]
    for row in cross["rows"].values():
        columns += sorted(c for c in row if c != "total" and c not in columns)
    names = [n for n in CROSS_ROWS if n in cross["rows"]]
    names += sorted(n for n in cross["rows"] if n not in names)
    rows = [
        [name, *(str(row[c]) if c in row else "" for c in columns), str(row["total"])]
        for name, row in ((n, cross["rows"][n]) for n in names)
    ]
    rows.append(["total", *([""] * len(columns)), str(cross["total"])])
    return ["row", *(c.replace("_", " ") for c in columns), "total"], rows

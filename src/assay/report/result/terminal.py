"""Rich terminal view of a result document.

Leaderboard with intervals and tie groups, the pairwise matrix, the accounting
identity and the per-slice tables.

Reads only the numbers in the document; formatting matches the Markdown renderer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assay.report.markdown import format_interval, format_number
from assay.report.result.markdown import METRIC_TITLES, estimate_text, p_text, trials_phrase

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table


def leaderboard_table(document: dict[str, Any]) -> Table:
    """Rank group, system, every metric with its interval, and evaluated k/n.

    Evaluated counts the questions scored from a prediction: a system whose ids match
    none of the gold shows ``0/48``, not ``48/48``.
    """
    from rich.table import Table

    comparison = document["comparison"]
    ci = f"{document['statistics']['confidence']:.0%} CI"
    table = Table(title=f"Leaderboard by {METRIC_TITLES[comparison['metric']]} (rank = tie group)")
    table.add_column("group", justify="right")
    table.add_column("system")
    for metric in document["metrics"]:
        table.add_column(f"{METRIC_TITLES[metric]} [{ci}]", justify="right")
    table.add_column("accuracy k/n [Wilson]", justify="right")
    table.add_column("evaluated", justify="right")
    for system in document["systems"]:
        rate = system.get("accuracy_rate")
        wilson = (
            f"{rate['k']}/{rate['n']} {format_interval(rate['lower'], rate['upper'])}"
            if rate
            else "n/a"
        )
        table.add_row(
            str(system["tie_group"]),
            system["system"],
            *(estimate_text(system["overall"][m]) for m in document["metrics"]),
            wilson,
            evaluated_text(system),
        )
    return table


def evaluated_text(system: dict[str, Any]) -> str:
    """``k/n``: gold questions scored from a prediction (a missing one scored as "" is not)."""
    missing = system["accounting"]["buckets"].get("missing", 0)
    return f"{system['gold_count'] - missing}/{system['gold_count']}"


def pairwise_matrix(document: dict[str, Any]) -> Table:
    """Row minus column: difference and Holm-adjusted p (``*`` marks significance)."""
    from rich.table import Table

    comparison = document["comparison"]
    names = comparison["systems"]
    cells = {(p["a"], p["b"]): p for p in comparison["pairs"]}
    table = Table(
        title=f"Paired differences, row − column ({METRIC_TITLES[comparison['metric']]}); "
        f"p: {comparison['method']}, {trials_phrase(comparison)}, seed "
        f"{comparison['seed']}, Holm-adjusted"
    )
    table.add_column("")
    for name in names:
        table.add_column(name, justify="right")
    for row in names:
        out = []
        for col in names:
            pair = cells.get((row, col)) or cells.get((col, row))
            if pair is None:
                out.append("—")
                continue
            sign = 1.0 if pair["a"] == row else -1.0
            diff = pair["test"]["difference"]
            mark = "*" if pair["significant"] else ""
            value = "n/a" if diff is None else f"{sign * diff:+.3f}"
            out.append(f"{value} (p={p_text(pair['p_holm'])}){mark}")
        table.add_row(row, *out)
    return table


def accounting_table(document: dict[str, Any]) -> Table:
    """The accounting identity per system: total = sum of the buckets."""
    from rich.table import Table

    buckets = list(document["systems"][0]["accounting"]["buckets"]) if document["systems"] else []
    table = Table(title="Accounting: total = " + " + ".join(buckets))
    table.add_column("system")
    table.add_column("total", justify="right")
    for name in buckets:
        table.add_column(name, justify="right")
    table.add_column("holds")
    for system in document["systems"]:
        accounting = system["accounting"]
        table.add_row(
            system["system"],
            str(accounting["total"]),
            *(str(accounting["buckets"].get(name, 0)) for name in buckets),
            "yes" if accounting["holds"] else "NO",
        )
    return table


def slice_table(document: dict[str, Any], dimension: str) -> Table:
    """Ranking metric per label of one dimension, one column per system."""
    from rich.table import Table

    metric = document["comparison"]["metric"]
    names = [s["system"] for s in document["systems"]]
    title = METRIC_TITLES[metric]
    table = Table(title=f"{title[0].upper()}{title[1:]} by {dimension}")
    table.add_column(dimension)
    table.add_column("n", justify="right")
    for name in names:
        table.add_column(name, justify="right")
    for label, per_system in document["slices"].get(dimension, {}).items():
        n = max(entry["n"] for entry in per_system.values())
        cells = [estimate_text(per_system.get(name, {}).get(metric)) for name in names]
        table.add_row(label, str(n), *cells)
    return table


def print_result(
    document: dict[str, Any],
    console: Console | None = None,
    *,
    dimensions: tuple[str, ...] = ("split",),
) -> None:
    """Print leaderboard, pairwise matrix, accounting, slices and provenance."""
    from rich.console import Console

    if console is None:
        console = Console() if Console().is_terminal else Console(width=150)
    console.print(leaderboard_table(document))
    console.print(pairwise_matrix(document))
    for pair in document["comparison"]["pairs"]:
        mdd = (pair["difference"] or {}).get("mdd")
        console.print(
            f"{pair['a']} vs {pair['b']}: minimum detectable difference {format_number(mdd)}",
            highlight=False,
        )
    console.print(accounting_table(document))
    for dimension in dimensions:
        console.print(slice_table(document, dimension))
    console.print(f"statistics: {document['statistics']['mean_interval']}", highlight=False)
    console.print(
        f"profile: {document['profile']} (assay {document['assay_version']}); "
        f"evaluator sha256: {document['evaluator_sha256']}",
        highlight=False,
    )

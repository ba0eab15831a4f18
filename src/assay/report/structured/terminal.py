"""Terminal view of a structured report: identity, headline numbers, cross-tab, reasons.

Reads ``StructuredReport.to_dict()`` output only; rich is imported lazily.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

FIELD_ERROR_ROWS = 10


def percent(value: float | None) -> str:
    """``0.3667`` → ``36.7%``; ``None`` → ``n/a``."""
    return "n/a" if value is None else f"{100 * value:.1f}%"


def interval_text(ci: list[float] | None) -> str:
    """``[0.21, 0.54]`` → ``[21.0%, 54.0%]``."""
    return "n/a" if ci is None else f"[{percent(ci[0])}, {percent(ci[1])}]"


def headline_beside(headline: dict[str, Any]) -> str:
    """The counts shown beside a headline (``contradicted 6 · insufficient 3``)."""
    return " · ".join(f"{k.replace('_', ' ')} {v}" for k, v in headline["extra"].items())


def load_rich() -> None:
    """Import the parts of rich this view uses (a caller with time to spare, ahead of need)."""
    import rich.console
    import rich.table
    import rich.text  # noqa: F401


def render_structured_terminal(report: dict[str, Any], console: Console | None = None) -> None:
    """Print the identity, the headline numbers, the cross-tab and the reason counts."""
    from rich.console import Console
    from rich.text import Text

    console = console or Console()
    options, contract = report["options"], report["contract"]
    fallback = "on" if options["read_facts_from_wrapped"] else "off"
    # the file name and the judge's name are the user's: Text, never read as markup or
    # emoji codes; highlighted as a printed str is
    line = console.highlighter
    console.print(
        line(Text.assemble(
            ("assay structured", "bold"),
            f" · {report['identity']['total']} items · contract {contract['source']} (Draft "
            f"{contract['draft']}, jsonschema {contract['jsonschema_version']}) · read facts "
            f"from wrapped JSON: {fallback}",
        )),
        soft_wrap=True,
    )  # fmt: skip
    console.print(line(Text(f"signature: {report['signature']}")), soft_wrap=True)
    _identity(console, report["identity"])
    console.print()
    console.print(_headlines(report["headlines"]))
    _definitions(console, report["headlines"])
    console.print()
    console.print(_cross_tab(report["cross_tab"]))
    console.print()
    console.print(_reasons(report))
    if report["format"]["field_errors"]:
        console.print()
        console.print(_field_errors(report["format"]["field_errors"]))


def _identity(console: Console, identity: dict[str, Any]) -> None:
    mark = "[green]✓ holds[/green]" if identity["holds"] else "[red]✗ broken[/red]"
    console.print(f"\n[bold]Accounting identity[/bold] {mark}")
    for line in identity["equations"]:
        console.print(f"  {line}")


def _headlines(headlines: list[dict[str, Any]]) -> Any:
    from rich.table import Table

    table = Table(title="Headline numbers (Wilson 95% intervals)", title_justify="left")
    for name, justify in (
        ("#", "right"),
        ("measure", "left"),
        ("k/n", "right"),
        ("rate", "right"),
        ("95% CI", "right"),
        ("beside", "left"),
    ):
        table.add_column(name, justify=justify, overflow="fold")  # type: ignore[arg-type]
    for number, h in enumerate(headlines, start=1):
        table.add_row(
            str(number),
            h["name"],
            f"{h['k']}/{h['n']}",
            percent(h["rate"]),
            interval_text(h["ci95"]),
            headline_beside(h),
        )
    return table


def _definitions(console: Console, headlines: list[dict[str, Any]]) -> None:
    console.print("Definitions:")
    for number, h in enumerate(headlines, start=1):
        console.print(f"  {number}. {h['name']}: {h['definition']}")


def _cross_tab(cross: dict[str, Any]) -> Any:
    from rich.table import Table

    rows = cross["rows"]
    table = Table(title="Format × fact", title_justify="left")
    for name in ("", "all supported", "not all supported", "total"):
        table.add_column(name, justify="left" if not name else "right")
    for key, label in (("format_pass", "format pass"), ("format_fail", "format fail")):
        row = rows[key]
        table.add_row(
            label, str(row["all_supported"]), str(row["not_all_supported"]), str(row["total"])
        )
    unscorable = rows["unscorable"]
    table.add_row(
        f"unscorable (pass {unscorable['format_pass']} · fail {unscorable['format_fail']})",
        "—",
        "—",
        str(unscorable["total"]),
    )
    table.add_row("empty", "—", "—", str(rows["empty"]["total"]), end_section=True)
    table.add_row("total", "", "", str(cross["total"]))
    return table


def _reasons(report: dict[str, Any]) -> Any:
    from rich.table import Table

    table = Table(title="Reason codes (items; one item may carry several)", title_justify="left")
    table.add_column("axis")
    table.add_column("code")
    table.add_column("items", justify="right")
    for code, count in report["format"]["reason_counts"].items():
        table.add_row("format", code, str(count))
    table.add_row(
        "format",
        "would_pass_if_unwrapped (diagnostic, not a pass)",
        str(report["format"]["would_pass_if_unwrapped"]),
        end_section=True,
    )
    for reason, count in report["fact"]["unscorable_reasons"].items():
        table.add_row("fact", f"unscorable: {reason}", str(count))
    for verdict, count in report["fact"]["claim_verdicts"].items():
        table.add_row("claims", verdict, str(count))
    return table


def _field_errors(rows: list[dict[str, Any]]) -> Any:
    from rich.table import Table
    from rich.text import Text

    table = Table(title="Fields that fail most", title_justify="left")
    table.add_column("field")
    table.add_column("keyword")
    table.add_column("count", justify="right")
    for row in rows[:FIELD_ERROR_ROWS]:  # field names are the contract's: Text, as written
        table.add_row(Text(row["field"]), Text(row["keyword"]), str(row["count"]))
    if len(rows) > FIELD_ERROR_ROWS:
        table.add_row(f"… {len(rows) - FIELD_ERROR_ROWS} more in the JSON report", "", "")
    return table

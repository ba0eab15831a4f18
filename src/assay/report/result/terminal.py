"""Rich terminal view of a result document.

Leaderboard with intervals and tie groups, the pairwise matrix, the accounting
identity and the per-slice tables.

Reads only the numbers in the document; formatting matches the Markdown renderer.

Text that comes from the inputs (system names, slice labels) is passed to rich as
``Text``, and the report's own lines are printed with markup and emoji codes off:
rich reads a ``str`` as markup, so a system named ``[/0]`` would stop the report
with a ``MarkupError`` and one named ``[bold]x`` or ``:smile:`` would be restyled.
"""

from __future__ import annotations

import os
import re
import sys
from typing import TYPE_CHECKING, Any

from assay.report.markdown import format_interval, format_number
from assay.report.result.markdown import (
    METRIC_TITLES,
    estimate_text,
    evaluated_cell,
    p_text,
    trials_phrase,
    unresolved_note,
)

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text


def literal(text: str) -> Text:
    """Input text (a system name, a label) as rich draws it: its characters, unstyled."""
    from rich.text import Text

    return Text(text)


def print_line(console: Console, line: str) -> None:
    """Print one of the report's lines as written (no markup, emoji codes or highlighting)."""
    console.print(line, markup=False, emoji=False, highlight=False)


def compact_interval(lower: float | None, upper: float | None) -> str:
    """``[.938–1.000]``: the interval without leading zeros or the space (terminal only)."""
    if lower is None or upper is None:
        return "n/a"
    return f"[{_short(lower)}–{_short(upper)}]"


def _short(value: float) -> str:
    text = f"{value:.3f}"
    return text[1:] if text.startswith("0.") else text.replace("-0.", "-.")


def _estimate_cell(estimate: dict[str, Any] | None, compact: bool) -> str:
    if not compact or estimate is None or estimate.get("mean") is None:
        return estimate_text(estimate)
    interval = compact_interval(estimate.get("lower"), estimate.get("upper"))
    return f"{format_number(estimate['mean'])} {interval}"


def _wilson_cell(rate: dict[str, Any] | None, compact: bool) -> str:
    if not rate:
        return "n/a"
    bounds = (compact_interval if compact else format_interval)(rate["lower"], rate["upper"])
    return f"{rate['k']}/{rate['n']} {bounds}"


WILSON = "accuracy correct/n [Wilson]"
_MARKUP = re.compile(r"\[[a-z#/@]")  # how rich's markup tags begin (rich.markup.RE_TAGS)


def leaderboard_table(
    document: dict[str, Any],
    *,
    compact: bool = False,
    drop: tuple[str, ...] = (),
) -> Table:
    """Rank group, system, every metric with its interval, and evaluated k/n.

    Evaluated counts the questions scored from a prediction: a system whose ids match
    none of the gold shows ``0/48``, not ``48/48``.

    Args:
        document: the result document.
        compact: intervals as ``[.938–1.000]`` (terminal only), to fit narrow widths.
        drop: columns left out (metric names, ``wilson``, ``evaluated``).
    """
    from rich.table import Table

    comparison = document["comparison"]
    ci = f"{document['statistics']['confidence']:.0%} CI"
    table = Table(title=f"Leaderboard by {METRIC_TITLES[comparison['metric']]} (rank = tie group)")
    table.add_column("group", justify="right")
    table.add_column("system")
    metrics = [m for m in document["metrics"] if m not in drop]
    for metric in metrics:
        table.add_column(f"{METRIC_TITLES[metric]} [{ci}]", justify="right", no_wrap=True)
    if "wilson" not in drop:
        table.add_column(WILSON, justify="right", no_wrap=True)
    if "evaluated" not in drop:
        table.add_column("evaluated", justify="right", no_wrap=True)
    for system in document["systems"]:
        cells = [_estimate_cell(system["overall"][m], compact) for m in metrics]
        if "wilson" not in drop:
            cells.append(_wilson_cell(system.get("accuracy_rate"), compact))
        if "evaluated" not in drop:
            cells.append(evaluated_text(system))
        table.add_row(str(system["tie_group"]), literal(system["system"]), *cells)
    return table


def evaluated_text(system: dict[str, Any]) -> str:
    """``evaluated/gold``: the questions with a prediction (:mod:`assay.evaluation.counts`)."""
    return evaluated_cell(system)


def _needed_width(console: Console, table: Table) -> int:
    """The width a table takes without wrapping any cell."""
    return console.measure(table, options=console.options.update_width(10_000)).maximum


_ONE_CELL = frozenset("–−—·…")  # non-ASCII characters one terminal cell wide


def _plain_width(cell: object) -> int:
    """The width of a cell rich draws as its own characters; 0 for any other cell.

    Plain: a one-line ``str`` of printable ASCII (and :data:`_ONE_CELL`) with no
    backslash, no ``:`` (emoji codes) and nothing that opens a markup tag; or a
    :func:`literal` ``Text`` (no styles) of such characters.
    """
    if not isinstance(cell, str):
        from rich.text import Text

        if type(cell) is not Text or cell.spans:
            return 0
        cell = cell.plain
    elif "\\" in cell or ":" in cell or _MARKUP.search(cell):
        return 0
    if not all(c in _ONE_CELL or (c.isascii() and c.isprintable()) for c in cell):
        return 0
    return len(cell)


def _fits(console: Console, table: Table) -> bool:
    """Whether ``table`` fits the console unwrapped (``_needed_width <= console.width``).

    A table needs at least the sum over its columns of the widest plain cell (header
    included; padding and borders come on top), so when that sum alone is past the
    width the answer is no without rich measuring every cell.
    """
    bound = sum(
        max((_plain_width(c) for c in (column.header, *column.cells)), default=0)
        for column in table.columns
    )
    return bound <= console.width and _needed_width(console, table) <= console.width


def fitted_leaderboard(document: dict[str, Any], console: Console) -> tuple[Table, str | None]:
    """The widest leaderboard that fits the console, and a note naming what was left out.

    Tried in order: as is; compact intervals; without the Wilson column; without
    ``evaluated``; with the ranking metric alone. Intervals never wrap.
    """
    ranking = document["comparison"]["metric"]
    others = tuple(m for m in document["metrics"] if m != ranking)
    variants: list[tuple[bool, tuple[str, ...]]] = [
        (False, ()), (True, ()), (True, ("wilson",)), (True, ("wilson", "evaluated")),
        (True, ("wilson", "evaluated", *others)),
    ]  # fmt: skip
    for compact, drop in variants:
        table = leaderboard_table(document, compact=compact, drop=drop)
        if _fits(console, table):
            break
    if not drop:
        return table, None
    names = [WILSON if d == "wilson" else METRIC_TITLES.get(d, d) for d in drop]
    note = f"(not shown at {console.width} columns: {', '.join(names)}; see the Markdown report)"
    return table, note


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
        table.add_column(literal(name), justify="right")
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
        table.add_row(literal(row), *out)
    return table


def pair_list(document: dict[str, Any]) -> Table:
    """Every pair on its own row (for more systems than a matrix can show at this width)."""
    from rich.table import Table

    comparison = document["comparison"]
    table = Table(
        title=f"Paired differences, a − b ({METRIC_TITLES[comparison['metric']]}); "
        f"p: {comparison['method']}, {trials_phrase(comparison)}, seed "
        f"{comparison['seed']}, Holm-adjusted"
    )
    for name, justify in (("a", "left"), ("b", "left"), ("a − b", "right"),
                          ("p (Holm)", "right"), ("significant", "left"),
                          ("MDD", "right")):  # fmt: skip
        table.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for pair in comparison["pairs"]:
        diff = pair["test"]["difference"]
        table.add_row(
            literal(pair["a"]), literal(pair["b"]), "n/a" if diff is None else f"{diff:+.3f}",
            p_text(pair["p_holm"]), "yes" if pair["significant"] else "no",
            format_number(_mdd(pair)),
        )  # fmt: skip
    return table


def _mdd(pair: dict[str, Any]) -> float | None:
    value: float | None = (pair["difference"] or {}).get("mdd")
    return value


PAIR_LINES = 6  # up to this many pairs, one minimum-detectable-difference line each


def mdd_lines(document: dict[str, Any]) -> list[str]:
    """Each pair's minimum detectable difference (MDD); one summary line for many pairs.

    The pair list carries an MDD column, so this is for the matrix view. With more than
    :data:`PAIR_LINES` pairs, one line gives the smallest and largest MDD and their pairs
    (each pair's value is in the Markdown and JSON reports).
    """
    pairs = document["comparison"]["pairs"]
    if len(pairs) <= PAIR_LINES:
        return [
            f"{p['a']} vs {p['b']}: minimum detectable difference {format_number(_mdd(p))}"
            for p in pairs
        ]
    known = sorted((m, p["a"], p["b"]) for p in pairs if (m := _mdd(p)) is not None)
    if not known:
        return [f"minimum detectable difference: n/a for all {len(pairs)} pairs"]
    low, high = known[0], known[-1]
    return [
        f"minimum detectable difference over {len(pairs)} pairs: {format_number(low[0])} "
        f"({low[1]} vs {low[2]}) to {format_number(high[0])} ({high[1]} vs {high[2]}); "
        "per pair in the Markdown report"
    ]


def fitted_pairwise(document: dict[str, Any], console: Console) -> Table:
    """The row − column matrix when it fits the console without wrapping, else the pair list."""
    matrix = pairwise_matrix(document)
    for column in matrix.columns:
        column.no_wrap = True
    return matrix if _fits(console, matrix) else pair_list(document)


def print_pairwise(document: dict[str, Any], console: Console) -> None:
    """The fitted pairwise view, then the MDD lines unless the pair list holds them."""
    table = fitted_pairwise(document, console)
    console.print(table)
    if table.columns[-1].header != "MDD":
        for line in mdd_lines(document):
            print_line(console, line)


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
            literal(system["system"]),
            str(accounting["total"]),
            *(str(accounting["buckets"].get(name, 0)) for name in buckets),
            "yes" if accounting["holds"] else "NO",
        )
    return table


def fitted_slice_table(document: dict[str, Any], dimension: str, console: Console) -> Table:
    """The first of :func:`fitted_slice_tables` (a single table whenever one fits)."""
    return fitted_slice_tables(document, dimension, console)[0]


def fitted_slice_tables(document: dict[str, Any], dimension: str, console: Console) -> list[Table]:
    """A slice table that fits the console, no interval wrapping; several when none does.

    Tried in order: one column per system; the same with compact intervals; turned
    round (one row per system, one column per label); the compact table cut into
    groups of systems, each group a table that fits (titled ``systems i–j of N``).
    """
    names = [s["system"] for s in document["systems"]]
    tables = [slice_table(document, dimension), slice_table(document, dimension, compact=True),
              slice_table_by_system(document, dimension)]  # fmt: skip
    for table in tables:
        if _fits(console, table):
            return [table]
    groups: list[list[str]] = [[]]
    for name in names:
        trial = slice_table(document, dimension, compact=True, systems=[*groups[-1], name])
        if groups[-1] and not _fits(console, trial):
            groups.append([])
        groups[-1].append(name)
    starts = [sum(len(g) for g in groups[:i]) for i in range(len(groups))]
    return [
        slice_table(document, dimension, compact=True, systems=group,
                    part=_part(start + 1, start + len(group), len(names)))
        for start, group in zip(starts, groups, strict=True)
    ]  # fmt: skip


def _part(first: int, last: int, total: int) -> str:
    return f"system {first} of {total}" if first == last else f"systems {first}–{last} of {total}"


def _slice_title(document: dict[str, Any], dimension: str) -> str:
    title = METRIC_TITLES[document["comparison"]["metric"]]
    return f"{title[0].upper()}{title[1:]} by {dimension}"


def slice_table(
    document: dict[str, Any],
    dimension: str,
    *,
    compact: bool = False,
    systems: list[str] | None = None,
    part: str | None = None,
) -> Table:
    """Ranking metric per label of one dimension, one column per system.

    Args:
        document: the result document.
        dimension: the slice dimension (``split``, ``domain``, ...).
        compact: intervals as ``[.938–1.000]``.
        systems: the systems shown (default: all, in document order).
        part: said in the title when the table is one of several.
    """
    from rich.table import Table

    metric = document["comparison"]["metric"]
    names = systems if systems is not None else [s["system"] for s in document["systems"]]
    title = _slice_title(document, dimension)
    table = Table(title=title if part is None else f"{title} ({part})")
    table.add_column(dimension)
    table.add_column("n", justify="right")
    for name in names:
        table.add_column(literal(name), justify="right", no_wrap=True)
    for label, per_system in document["slices"].get(dimension, {}).items():
        n = max(entry["n"] for entry in per_system.values())
        cells = [_estimate_cell(per_system.get(name, {}).get(metric), compact) for name in names]
        table.add_row(literal(label), str(n), *cells)
    return table


def slice_table_by_system(document: dict[str, Any], dimension: str) -> Table:
    """The slice table turned round: one row per system, one column per label (``label (n)``)."""
    from rich.table import Table

    metric = document["comparison"]["metric"]
    slices = document["slices"].get(dimension, {})
    table = Table(title=f"{_slice_title(document, dimension)} (rows: systems)")
    table.add_column("system")
    for label, per_system in slices.items():
        n = max(entry["n"] for entry in per_system.values())
        table.add_column(literal(f"{label} (n={n})"), justify="right", no_wrap=True)
    for system in document["systems"]:
        name = system["system"]
        cells = [_estimate_cell(per.get(name, {}).get(metric), True) for per in slices.values()]
        table.add_row(literal(name), *cells)
    return table


def print_leaderboard(document: dict[str, Any], console: Console) -> None:
    """The leaderboard fitted to the console's width, with its note when columns were left out."""
    leaderboard, note = fitted_leaderboard(document, console)
    console.print(leaderboard)
    if note:
        print_line(console, note)


def terminal_console(*, stderr: bool = False) -> Console:
    """A console for the terminal report: the terminal's width, ``$COLUMNS`` when set, else 150.

    Output to a pipe or file has no width of its own; ``COLUMNS=100 assay eval … | less``
    lays the tables out for 100 columns, and without ``COLUMNS`` a pipe gets 150.
    """
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    fixed = stream.isatty() or os.environ.get("COLUMNS", "").strip().isdigit()
    return Console(stderr=stderr, width=None if fixed else 150)


def print_result(
    document: dict[str, Any],
    console: Console | None = None,
    *,
    dimensions: tuple[str, ...] = ("split",),
) -> None:
    """Print leaderboard, pairwise matrix, accounting, slices and provenance."""
    if console is None:
        console = terminal_console()
    print_leaderboard(document, console)
    unresolved = unresolved_note(document["comparison"])
    if unresolved:
        print_line(console, unresolved)
    print_pairwise(document, console)
    console.print(accounting_table(document))
    for dimension in dimensions:
        for table in fitted_slice_tables(document, dimension, console):
            console.print(table)
    print_line(console, f"statistics: {document['statistics']['mean_interval']}")
    print_line(
        console,
        f"profile: {document['profile']} (assay {document['assay_version']}); "
        f"evaluator sha256: {document['evaluator_sha256']}",
    )

"""One self-contained HTML file from a result document (no network, no CDN).

Plots are inline SVG from :mod:`assay.report.result.svg`, scaled to the viewport. The
per-item tables are embedded once as compact column data
(:mod:`assay.report.result.html_data`) and drawn a page at a time by inline vanilla
JavaScript that sorts, filters and pages over every row. With more than
``MATRIX_MAX_SYSTEMS`` systems the pairwise matrix gives way to the pair list. Every
plot has a caption saying what is plotted and over which denominator. The output is
byte-identical for identical documents; a generation time appears only when asked
for, in the page footer outside the scored content.
"""

from __future__ import annotations

import math
from collections import Counter
from operator import itemgetter
from typing import Any

from assay.report.markdown import format_interval, format_number
from assay.report.result import svg
from assay.report.result.html_data import (
    COMPRESS_OVER,
    DATA_BUDGET,
    embed_within,
    item_columns,
    structured_columns,
)
from assay.report.result.markdown import (
    METRIC_TITLES,
    cross_tab_cells,
    estimate_text,
    evaluated_cell,
    leaderboard_rows,
    p_text,
    trials_phrase,
    unresolved_note,
)

SLICE_PLOTS = ("domain", "difficulty", "reasoning_type", "answer_format", "evidence_source")
MATRIX_MAX_SYSTEMS = 8
BINS = ("0", "(0, .25)", "[.25, .5)", "[.5, .75)", "[.75, 1)", "1")


def _bin(value: float) -> int:
    if value <= 0.0:
        return 0
    if value >= 1.0:
        return 5
    return 1 + min(int(value * 4), 3)


def _plot(key: str, title: str, image: str, caption: str) -> dict[str, str]:
    return {"id": f"plot-{key}", "title": title, "svg": image, "caption": caption}


def system_plots(document: dict[str, Any]) -> list[dict[str, str]]:
    """Per metric: each system's mean with its interval whisker."""
    stats = document["statistics"]
    plots = []
    for metric in document["metrics"]:
        rows = [
            (s["system"], s["overall"][metric]["mean"], s["overall"][metric]["lower"],
             s["overall"][metric]["upper"])
            for s in document["systems"]
        ]  # fmt: skip
        counts = ", ".join(
            f"{s['system']} n={s['overall'][metric]['n']}, evaluated {evaluated_cell(s)}"
            for s in document["systems"]
        )
        caption = (
            f"Mean per-question {METRIC_TITLES[metric]} per system (dot) with its "
            f"{stats['confidence']:.0%} {stats['mean_interval']} (whisker, clipped to [0, 1]). "
            f"Denominator n: the questions each mean is over, a missing prediction scored as "
            f"\"\" unless --ignore-missing ({counts})."
        )
        title = f"{METRIC_TITLES[metric]} per system"
        plots.append(_plot(f"systems-{metric}", title, svg.dot_whisker(rows, title), caption))
    return plots


def slice_plots(document: dict[str, Any]) -> list[dict[str, str]]:
    """Per slice dimension: the ranking metric per label, one bar per system."""
    metric = document["comparison"]["metric"]
    names = [s["system"] for s in document["systems"]]
    plots = []
    for dimension in SLICE_PLOTS:
        labels = document["slices"].get(dimension, {})
        categories = []
        for label, per_system in labels.items():
            n = max(entry["n"] for entry in per_system.values())
            values = [
                per_system[name][metric]["mean"] if name in per_system else None for name in names
            ]
            categories.append((f"{label} (n={n})", values))
        extra = (
            " A question counts once in each source it lists."
            if dimension == "evidence_source"
            else ""
        )
        caption = (
            f"Mean {METRIC_TITLES[metric]} per {dimension} label, one bar per system. "
            "Denominator n: the system's questions with that label that the means are "
            f"over (n in the label).{extra}"
        )
        title = f"{METRIC_TITLES[metric]} by {dimension}"
        plots.append(
            _plot(f"slice-{dimension}", title, svg.grouped_bars(categories, names, title), caption)
        )
    return plots


def matrix_plot(document: dict[str, Any]) -> dict[str, str]:
    """The paired-difference matrix (row − column) with Holm-adjusted p-values."""
    comparison = document["comparison"]
    names = comparison["systems"]
    pairs = {(p["a"], p["b"]): p for p in comparison["pairs"]}
    cells = []
    for row in names:
        line: list[tuple[str, str, float | None]] = []
        for col in names:
            pair = pairs.get((row, col)) or pairs.get((col, row))
            diff = None if pair is None else pair["test"]["difference"]
            if pair is None or diff is None:
                line.append(("—", "", None))
                continue
            value = diff if pair["a"] == row else -diff
            star = " *" if pair["significant"] else ""
            line.append((f"{value:+.3f}{star}", f"p={p_text(pair['p_holm'])}", value))
        cells.append(line)
    metric = METRIC_TITLES[comparison["metric"]]
    caption = (
        f"Paired difference in mean {metric}, row system minus column system, over the "
        f"{comparison['n_paired']} questions every system's figures are over (n); p: "
        f"{comparison['method']} "
        f"({trials_phrase(comparison)}, seed {comparison['seed']}), Holm-adjusted over "
        f"all {len(comparison['pairs'])} pairs; * marks p ≤ {comparison['alpha']}."
    )
    title = f"Paired differences ({metric})"
    return _plot("matrix", title, svg.heatmap(names, names, cells, title), caption)


def score_bins(document: dict[str, Any]) -> dict[tuple[str, str], list[int]]:
    """Per (metric, system): how many of the system's questions fall in each of :data:`BINS`.

    The (system, scores) pairs are tallied in one ``Counter`` pass over the items (many
    repeat: 0/1 scores), then each distinct pair is binned once, its count added.
    """
    names = [s["system"] for s in document["systems"]]
    metrics = document["metrics"]
    counts = {(m, name): [0] * len(BINS) for m in metrics for name in names}
    if not metrics:
        return counts
    pick = itemgetter(*metrics, metrics[0])  # a tuple even for one metric (one extra entry)
    tally = Counter(
        [
            (name, pick(result))
            for item in document["items"]
            for name, result in item["results"].items()
        ]
    )
    bins: dict[float, int] = {}  # scores repeat (0, 1, 1/2, ...): each value binned once
    for (name, values), n in tally.items():
        for metric, value in zip(metrics, values, strict=False):  # values: one extra
            found = bins.get(value)
            if found is None:
                found = bins[value] = _bin(value)
            counts[metric, name][found] += n
    return counts


def distribution_plots(document: dict[str, Any]) -> list[dict[str, str]]:
    """Per metric: how many questions fall in each score bin, per system."""
    names = [s["system"] for s in document["systems"]]
    counts = score_bins(document)
    plots = []
    metrics = document["metrics"]
    for metric in metrics:
        series = [(name, counts[metric, name]) for name in names]
        caption = (
            f"Number of questions per per-question {METRIC_TITLES[metric]} bin, one bar per "
            "system. Denominator n: the questions each mean is over."
        )
        title = f"Distribution of {METRIC_TITLES[metric]}"
        plots.append(_plot(f"dist-{metric}", title, svg.histogram(BINS, series, title), caption))
    return plots


def scatter_plots(document: dict[str, Any]) -> list[dict[str, str]]:
    """Per ``--scatter X:Y`` entry: one metric against another per item, with Spearman's ρ."""
    from assay.report.result.scatter_svg import GRID, is_binned, scatter

    names = [s["system"] for s in document["systems"]]
    plots = []
    for entry in document.get("scatters") or []:
        rho = entry["rank_correlation"]
        rho_text = "n/a" if rho["rho"] is None else f"{rho['rho']:.3f}"
        excluded = ", ".join(f"{k} {v}" for k, v in entry["excluded"].items()) or "none"
        drawn = (
            f"binned: the {len(entry['points'])} points are drawn as one dot per system and "
            f"cell of a {GRID} × {GRID} grid, at the cell's mean point, its area growing "
            "with the count (the tooltip gives it)"
            if is_binned(entry)
            else "one dot per question and system"
        )
        caption = (
            f"Per-item {entry['x']} (x) against {entry['y']} (y), {drawn}, "
            f"coloured by system. Spearman's rank correlation ρ = {rho_text} "
            f"(n = {entry['n']}). Denominator: the rows in the scored bucket "
            f"(left out: {excluded}). Signatures: x {entry['x_signature']}; "
            f"y {entry['y_signature']}."
        )
        title = f"{entry['x']} vs {entry['y']}"
        key = f"scatter-{entry['x']}-{entry['y']}"
        plots.append(_plot(key, title, scatter(entry, names, title), caption))
    return plots


def structured_plots(report: dict[str, Any]) -> list[dict[str, str]]:
    """The reason histogram and the format × fact cross-tab of a structured report."""
    reasons = [
        (f"format: {code}", [float(n)]) for code, n in report["format"]["reason_counts"].items()
    ]
    unwrapped = report["format"].get("would_pass_if_unwrapped")
    if unwrapped is not None:
        reasons.append(("diagnostic: would_pass_if_unwrapped", [float(unwrapped)]))
    reasons += [
        (f"fact unscorable: {why}", [float(n)])
        for why, n in report["fact"]["unscorable_reasons"].items()
    ]
    peak = max([v[0] or 0.0 for _, v in reasons] + [1.0])
    peak = 5.0 * math.ceil(peak / 5.0)  # integer axis ticks
    total = report["identity"]["total"]
    reason_svg = svg.grouped_bars(reasons, ["items"], "Reasons", hi=peak, value_format="{:.0f}")
    headers, rows = cross_tab_cells(report["cross_tab"])
    cells = [
        [(cell or "·", "", float(cell) / total if cell else None) for cell in row[1:]]
        for row in rows
    ]
    row_names = [row[0].replace("_", " ") for row in rows]
    cross_svg = svg.heatmap(row_names, headers[1:], cells, "Format × fact")
    return [
        _plot("reasons", "Reasons (structured output)", reason_svg,
              f"Count of items per format failure reason and per reason an item has no fact "
              f"judgement; 'diagnostic' counts format failures whose inner JSON satisfies the "
              f"contract (reported, never a pass). Denominator: all {total} items (an item may "
              f"have several reasons)."),
        _plot("crosstab", "Format × fact (structured output)", cross_svg,
              f"Items by format outcome (rows) and fact outcome (columns); shade = share of all "
              f"{total} items. {report['cross_tab']['definition']}. The unscorable row is "
              f"split by format outcome; · = does not apply."),
    ]  # fmt: skip


CLAIM_VERDICTS = ("supported", "contradicted", "insufficient", "judge_failed")


def _reason_text(fmt: dict[str, Any]) -> str:
    """Format reason codes, each schema code with the JSON pointers of its field errors."""
    parts = []
    for code in fmt["reasons"]:
        pointers = [e["pointer"] or "/" for e in fmt["field_errors"] if e["keyword"] == code]
        parts.append(f"{code} {' '.join(pointers)}" if pointers else code)
    return ", ".join(parts)


def structured_item_row(item: dict[str, Any]) -> dict[str, Any]:
    """One row of the structured per-item table: both axes, the claim counts, the response."""
    fmt, fact = item["format"], item["fact"]
    unwrapped = fmt.get("would_pass_if_unwrapped")
    return {
        "id": item["id"], "bucket": item["bucket"], "passed": item["end_to_end_pass"],
        "verdict": fmt["verdict"], "reasons": _reason_text(fmt),
        "unwrapped": "" if unwrapped is None else ("yes" if unwrapped else "no"),
        "fact_status": fact["status"], "fact_reason": fact.get("reason") or "",
        "counts": [fact["counts"].get(v, 0) for v in CLAIM_VERDICTS],
        "response": item.get("response", ""),
    }  # fmt: skip


def leaderboard_cells(document: dict[str, Any]) -> list[list[str]]:
    """Leaderboard rows as text: group, system, each metric with interval, correct/n, evaluated.

    The words are those of :mod:`assay.evaluation.counts`.
    """
    out = []
    for system, row in zip(document["systems"], leaderboard_rows(document), strict=True):
        rate = system.get("accuracy_rate")
        wilson = (
            f"{rate['k']}/{rate['n']} {format_interval(rate['lower'], rate['upper'])}"
            if rate
            else "n/a"
        )
        metrics = [estimate_text(system["overall"][m]) for m in document["metrics"]]
        out.append([str(row["group"]), system["system"], *metrics, wilson,
                    evaluated_cell(system)])  # fmt: skip
    return out


def pair_cells(pair: dict[str, Any]) -> list[tuple[str, float | None]]:
    """One pair-list row: (text, sort value) for pair, difference, Holm p, MDD, McNemar p."""
    diff = pair["test"]["difference"]
    mdd = (pair["difference"] or {}).get("mdd")
    mcnemar = (pair.get("mcnemar") or {}).get("p_value")
    star = " *" if pair["significant"] else ""
    return [
        (f"{pair['a']} − {pair['b']}", None),
        ("n/a" if diff is None else f"{diff:+.3f}{star}", diff),
        (p_text(pair["p_holm"]), pair["p_holm"]),
        (format_number(mdd), mdd),
        (p_text(mcnemar), mcnemar),
    ]


def _benchmark_context(document: dict[str, Any]) -> dict[str, Any]:
    comparison = document["comparison"]
    return {
        "metric_titles": [METRIC_TITLES[m] for m in document["metrics"]],
        "leaderboard": leaderboard_cells(document),
        "system_plots": system_plots(document),
        "matrix": (
            matrix_plot(document)
            if len(document["comparison"]["systems"]) <= MATRIX_MAX_SYSTEMS
            else None
        ),
        "slice_plots": slice_plots(document),
        "distribution_plots": distribution_plots(document),
        "scatter_plots": scatter_plots(document),
        "item_count": sum(len(item["results"]) for item in document["items"]),
        "unresolved": unresolved_note(comparison),
        "trials": trials_phrase(comparison),
        "pairs": [pair_cells(p) for p in comparison["pairs"]],
        "accounting": [
            (s["system"], s["accounting"]["equation"], s["accounting"]["holds"])
            for s in document["systems"]
        ],  # fmt: skip
    }


def page_context(
    document: dict[str, Any],
    *,
    timestamp: str | None = None,
    compress_over: int = COMPRESS_OVER,
    budget: int = DATA_BUDGET,
) -> dict[str, Any]:
    """What the page shows of a document (see :func:`render_html` for the arguments)."""
    from markupsafe import Markup

    structured = (
        document if document.get("kind") == "assay.structured" else document.get("structured")
    )
    context: dict[str, Any] = {"doc": document, "timestamp": timestamp, "structured": structured}
    data: dict[str, Any] = {}
    if document.get("kind") != "assay.structured":
        context.update(_benchmark_context(document))
        data["items"] = item_columns(document)
    if structured:
        context["structured_plots"] = structured_plots(structured)
        context["claim_verdicts"] = CLAIM_VERDICTS
        context["structured_count"] = len(structured["items"])
        data["structured"] = structured_columns(
            [structured_item_row(i) for i in structured["items"]]
        )
    embedded, context["cut"] = embed_within(data, compress_over, budget)
    context["data"] = Markup(embedded)  # script-safe JSON (or base64): written unescaped
    return context


def render_html(
    document: dict[str, Any],
    *,
    timestamp: str | None = None,
    compress_over: int = COMPRESS_OVER,
    budget: int = DATA_BUDGET,
) -> str:
    """The HTML report of a result document or a structured report.

    The page is ``templates/report.html.j2`` rendered with :func:`page_context`, written
    by :func:`assay.report.result.html_page.render_page` (the same bytes, without a
    template engine).

    Args:
        document: a result document (kind ``assay.result``) or a structured report.
        timestamp: shown in the footer when given (off by default, for byte-identity).
        compress_over: embed the per-item data deflated when its JSON is longer than
            this many characters (see :mod:`assay.report.result.html_data`).
        budget: characters the deflated per-item data may take before long predictions
            are cut (see :func:`assay.report.result.html_data.embed_within`).
    """
    from assay.report.result.html_page import render_page

    context = page_context(
        document, timestamp=timestamp, compress_over=compress_over, budget=budget
    )
    return render_page(context)

"""Hand-built, deterministic inline SVG plots for the HTML report.

Every coordinate is written with two decimals and every label is XML-escaped, so
identical numbers give identical bytes. Plots never compute a statistic: they
draw the numbers they are given. Interval bounds outside the axis are clipped at
its edge (the caption says so).

Series colours come from the Okabe–Ito palette (distinguishable under the common
colour-vision deficiencies). A report with more than eight systems keeps them apart
with a second channel: series 9–16 reuse the eight hues as hollow marks (light fill,
solid outline). Every plot has a ``viewBox``, so the page's CSS scales it to the
viewport.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

# Okabe & Ito (2008), "Color Universal Design": blue, orange, bluish green, reddish
# purple, sky blue, vermillion, yellow, black.
PALETTE = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#000000")
FONT = 'font-family="sans-serif" font-size="11"'
LABEL_WIDTH = 170.0
PLOT_WIDTH = 420.0


def label_width(labels: Sequence[str]) -> float:
    """Room for the longest row label (about 6.5 px per character at 11 px), at least 170."""
    return max(LABEL_WIDTH, 6.5 * max((len(label) for label in labels), default=0) + 16)


def colour(index: int) -> str:
    """The series hue at ``index`` (cycles through the palette)."""
    return PALETTE[index % len(PALETTE)]


def hollow(index: int) -> bool:
    """Whether series ``index`` is drawn hollow (the palette's second round, 9–16)."""
    return (index // len(PALETTE)) % 2 == 1


def paint(index: int) -> str:
    """Fill (and, for hollow series, outline) attributes of series ``index``'s marks."""
    hue = colour(index)
    if hollow(index):
        return f'fill="{hue}" fill-opacity="0.2" stroke="{hue}" stroke-width="1.5"'
    return f'fill="{hue}"'


def _f(value: float) -> str:
    return f"{value:.2f}"


def text_at(x: float, y: float, text: str, anchor: str = "start", extra: str = "") -> str:
    """A ``<text>`` element at ``(x, y)``, its text escaped."""
    return (
        f'<text x="{_f(x)}" y="{_f(y)}" text-anchor="{anchor}" {FONT}{extra}>{escape(text)}</text>'
    )


def svg_document(width: float, height: float, label: str, body: list[str]) -> str:
    """The ``<svg>`` element of a plot around ``body``, labelled for screen readers."""
    # Inline SVG in HTML needs no xmlns; leaving it out keeps the file free of any URL.
    return (
        f'<svg class="plot" role="img" '
        f'aria-label="{escape(label)}" width="{_f(width)}" height="{_f(height)}" '
        f'viewBox="0 0 {_f(width)} {_f(height)}">' + "".join(body) + "</svg>"
    )


def _axis(x0: float, width: float, y: float, lo: float, hi: float, ticks: int = 5) -> list[str]:
    """A horizontal axis with tick labels from ``lo`` to ``hi``."""
    out = [f'<line x1="{_f(x0)}" y1="{_f(y)}" x2="{_f(x0 + width)}" y2="{_f(y)}" stroke="#444"/>']
    for i in range(ticks + 1):
        value = lo + (hi - lo) * i / ticks
        x = x0 + width * i / ticks
        out.append(f'<line x1="{_f(x)}" y1="{_f(y)}" x2="{_f(x)}" y2="{_f(y + 4)}" stroke="#444"/>')
        out.append(text_at(x, y + 16, f"{value:g}", "middle"))
    return out


def legend(series: Sequence[str], x: float, y: float) -> list[str]:
    """One colour swatch and name per series, from ``(x, y)`` down."""
    out = []
    for index, name in enumerate(series):
        yy = y + index * 16
        out.append(f'<rect x="{_f(x)}" y="{_f(yy - 9)}" width="10" height="10" {paint(index)}/>')
        out.append(text_at(x + 14, yy, name))
    return out


def dot_whisker(
    rows: Sequence[tuple[str, float | None, float | None, float | None]],
    label: str,
    lo: float = 0.0,
    hi: float = 1.0,
) -> str:
    """One row per system: a dot at the score and a whisker over its interval."""
    row_h, top = 26.0, 10.0
    height = top + row_h * len(rows) + 30
    scale = PLOT_WIDTH / (hi - lo)
    left = label_width([row[0] for row in rows])

    def x_of(value: float) -> float:
        return left + (min(max(value, lo), hi) - lo) * scale

    body: list[str] = []
    for index, (name, mean, lower, upper) in enumerate(rows):
        y = top + row_h * index + row_h / 2
        body.append(text_at(left - 8, y + 4, name, "end"))
        if mean is None:
            body.append(text_at(left + 4, y + 4, "empty"))
            continue
        if lower is not None and upper is not None:
            body.append(
                f'<line x1="{_f(x_of(lower))}" y1="{_f(y)}" x2="{_f(x_of(upper))}" '
                f'y2="{_f(y)}" stroke="{colour(index)}" stroke-width="2"/>'
            )
        fill = "#ffffff" if hollow(index) else colour(index)
        body.append(
            f'<circle cx="{_f(x_of(mean))}" cy="{_f(y)}" r="5" fill="{fill}" '
            f'stroke="{colour(index)}" stroke-width="2"/>'
        )
        body.append(text_at(left + PLOT_WIDTH + 8, y + 4, f"{mean:.3f}"))
    body += _axis(left, PLOT_WIDTH, top + row_h * len(rows) + 4, lo, hi)
    return svg_document(left + PLOT_WIDTH + 60, height, label, body)


def grouped_bars(
    categories: Sequence[tuple[str, Sequence[float | None]]],
    series: Sequence[str],
    label: str,
    hi: float = 1.0,
    value_format: str = "{:.2f}",
) -> str:
    """Horizontal bars: one group per category, one bar per series (``None``: no bar)."""
    bar_h, gap, top = 12.0, 10.0, 10.0
    group_h = bar_h * max(len(series), 1) + gap
    plot_h = group_h * len(categories)
    height = top + plot_h + 30 + 16 * len(series)
    scale = PLOT_WIDTH / hi if hi > 0 else 0.0
    left = label_width([name for name, _ in categories])
    body: list[str] = []
    for gi, (name, values) in enumerate(categories):
        y0 = top + gi * group_h
        body.append(text_at(left - 8, y0 + group_h / 2, name, "end"))
        for si, value in enumerate(values):
            y = y0 + si * bar_h
            if value is None:
                body.append(text_at(left + 4, y + bar_h - 2, "empty", extra=' fill="#888"'))
                continue
            w = max(value, 0.0) * scale
            body.append(
                f'<rect x="{_f(left)}" y="{_f(y)}" width="{_f(w)}" '
                f'height="{_f(bar_h - 2)}" {paint(si)}/>'
            )
            body.append(text_at(left + w + 4, y + bar_h - 3, value_format.format(value)))
    body += _axis(left, PLOT_WIDTH, top + plot_h, 0.0, hi)
    body += legend(series, left, top + plot_h + 38)
    return svg_document(left + PLOT_WIDTH + 60, height, label, body)


def heatmap(
    rows: Sequence[str],
    columns: Sequence[str],
    cells: Sequence[Sequence[tuple[str, str, float | None]]],
    label: str,
) -> str:
    """A table of coloured cells: each cell is (first line, second line, signed value).

    Positive values shade blue, negative vermillion, by magnitude (clipped at 1);
    ``None`` is grey.
    """
    cell_w, cell_h, top = 120.0, 40.0, 40.0
    width = LABEL_WIDTH + cell_w * len(columns) + 10
    height = top + cell_h * len(rows) + 10
    body = [
        text_at(LABEL_WIDTH + cell_w * (ci + 0.5), top - 10, name, "middle")
        for ci, name in enumerate(columns)
    ]
    for ri, name in enumerate(rows):
        y = top + ri * cell_h
        body.append(text_at(LABEL_WIDTH - 8, y + cell_h / 2 + 4, name, "end"))
        for ci, (first, second, value) in enumerate(cells[ri]):
            x = LABEL_WIDTH + ci * cell_w
            body.append(
                f'<rect x="{_f(x)}" y="{_f(y)}" width="{_f(cell_w - 2)}" '
                f'height="{_f(cell_h - 2)}" fill="{_shade(value)}"/>'
            )
            body.append(text_at(x + cell_w / 2, y + 16, first, "middle"))
            body.append(text_at(x + cell_w / 2, y + 31, second, "middle"))
    return svg_document(width, height, label, body)


def _shade(value: float | None) -> str:
    if value is None:
        return "#eeeeee"
    strength = min(abs(value), 1.0)
    base = (0, 114, 178) if value >= 0 else (213, 94, 0)  # Okabe–Ito blue / vermillion
    mix = [round(255 - (255 - c) * (0.15 + 0.6 * strength)) for c in base]
    return "#{:02x}{:02x}{:02x}".format(*mix)


def histogram(bins: Sequence[str], series: Sequence[tuple[str, Sequence[int]]], label: str) -> str:
    """Vertical grouped bars: item counts per score bin, one bar per series."""
    plot_h, top, left = 160.0, 22.0, 40.0
    # Bars narrow as systems are added, so 13 systems stay about 1,000 px wide.
    group_w = min(max(44.0, 8.0 + 18.0 * len(series)), 150.0)
    bar_w = (group_w - 8) / max(len(series), 1)
    most = max([max(counts, default=0) for _, counts in series] + [1])
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 200, 500) if most / s <= 6 or s == 500)
    step = max(step, -(-most // 6))
    peak = step * -(-most // step)  # the axis top: a whole number of steps
    width = left + group_w * len(bins) + 20
    height = top + plot_h + 40 + 16 * len(series)
    body = [text_at(left - 30, top - 10, "questions (count)")]
    for tick in range(0, peak + 1, step):
        y = top + plot_h - plot_h * tick / peak
        body.append(
            f'<line x1="{_f(left)}" y1="{_f(y)}" x2="{_f(width - 10)}" y2="{_f(y)}" '
            f'stroke="{"#444" if tick == 0 else "#e4e4e4"}"/>'
        )
        body.append(text_at(left - 6, y + 4, str(tick), "end"))
    for bi, name in enumerate(bins):
        x0 = left + bi * group_w
        body.append(text_at(x0 + group_w / 2, top + plot_h + 14, name, "middle"))
        for si, (_, counts) in enumerate(series):
            h = plot_h * counts[bi] / peak
            body.append(
                f'<rect x="{_f(x0 + 4 + si * bar_w)}" y="{_f(top + plot_h - h)}" '
                f'width="{_f(bar_w)}" height="{_f(h)}" {paint(si)}/>'
            )
    body += legend([name for name, _ in series], left, top + plot_h + 36)
    return svg_document(max(width, 260.0), height, label, body)

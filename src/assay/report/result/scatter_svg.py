"""The per-item scatter plot (one metric against another) as deterministic inline SVG.

It draws the points and the ρ that :mod:`assay.evaluation.scatter` stored in the
document; it computes nothing. Both axes run from 0 to 1 (every assay metric lies
there); one colour per system, listed in the legend.

Up to :data:`MAX_DOTS` points each is one dot. Past that (13 systems × 5,000 questions
would be 65,000 SVG elements) the points are binned deterministically: a
:data:`GRID` × :data:`GRID` grid over the unit square, one dot per system and occupied
cell at the mean of its points, its area growing with the count, its tooltip giving
the count and the cell. :func:`is_binned` tells the caption to say so.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Any

from assay.report.result import svg

SIZE = 300.0
LEFT = 50.0
TOP = 14.0
MAX_DOTS = 2000
GRID = 50


def _f(value: float) -> str:
    return f"{value:.2f}"


def _frame() -> list[str]:
    out = [
        f'<rect x="{_f(LEFT)}" y="{_f(TOP)}" width="{_f(SIZE)}" height="{_f(SIZE)}" '
        'fill="none" stroke="#444"/>'
    ]
    for i in range(6):
        value = i / 5
        x = LEFT + SIZE * value
        y = TOP + SIZE * (1 - value)
        out.append(svg.text_at(x, TOP + SIZE + 16, f"{value:g}", "middle"))
        out.append(svg.text_at(LEFT - 6, y + 4, f"{value:g}", "end"))
    return out


def is_binned(entry: dict[str, Any]) -> bool:
    """Whether the scatter of ``entry`` is drawn binned (more than :data:`MAX_DOTS` points)."""
    return len(entry["points"]) > MAX_DOTS


def _unit(value: float) -> float:
    return min(1.0, max(0.0, value))


def _dot(x: float, y: float, r: float, paint: str, tip: str) -> str:
    cx, cy = LEFT + SIZE * _unit(x), TOP + SIZE * (1 - _unit(y))
    return (
        f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(r)}" opacity="0.7" '
        f"{paint}><title>{escape(tip)}</title></circle>"
    )


def _cell(value: float) -> int:
    return min(GRID - 1, int(_unit(value) * GRID))


def _binned(points: list[dict[str, Any]], index: dict[str, int]) -> list[str]:
    """One dot per (system, grid cell): at the cell's mean point, area ~ count."""
    cells: dict[tuple[int, int, int], list[float]] = {}
    for point in points:
        key = (index.get(point["system"], 0), _cell(point["x"]), _cell(point["y"]))
        sums = cells.get(key)
        if sums is None:
            sums = cells[key] = [0.0, 0.0, 0.0]
        sums[0] += point["x"]
        sums[1] += point["y"]
        sums[2] += 1
    names = {i: name for name, i in index.items()}
    out = []
    for (system, cx, cy), (sx, sy, count) in sorted(cells.items()):
        x_cell = f"[{cx / GRID:.2f}, {(cx + 1) / GRID:.2f})"
        y_cell = f"[{cy / GRID:.2f}, {(cy + 1) / GRID:.2f})"
        tip = f"{names.get(system, '?')}: {count:.0f} questions with x in {x_cell}, y in {y_cell}"
        radius = min(12.0, 2.0 + 1.5 * math.sqrt(count - 1))
        out.append(_dot(sx / count, sy / count, radius, svg.paint(system), tip))
    return out


def scatter(entry: dict[str, Any], systems: Sequence[str], label: str) -> str:
    """An x/y scatter of ``entry["points"]`` coloured by system (binned past ``MAX_DOTS``)."""
    index = {name: i for i, name in enumerate(systems)}
    body = _frame()
    if is_binned(entry):
        body += _binned(entry["points"], index)
    else:
        for point in entry["points"]:
            tip = f"{point['question_id']} · {point['system']}: {point['x']:.3f}, {point['y']:.3f}"
            paint = svg.paint(index.get(point["system"], 0))
            body.append(_dot(point["x"], point["y"], 3.0, paint, tip))
    body.append(svg.text_at(LEFT + SIZE / 2, TOP + SIZE + 34, entry["x"], "middle"))
    body.append(
        svg.text_at(14, TOP + SIZE / 2, entry["y"], "middle",
                  f' transform="rotate(-90 14 {_f(TOP + SIZE / 2)})"')
    )  # fmt: skip
    body += svg.legend(list(systems), LEFT + SIZE + 16, TOP + 10)
    width = LEFT + SIZE + 16 + svg.label_width(list(systems))
    return svg.svg_document(width, TOP + SIZE + 44, label, body)

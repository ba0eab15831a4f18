"""The per-item scatter plot (one metric against another) as deterministic inline SVG.

It draws the points and the ρ that :mod:`assay.evaluation.scatter` stored in the
document; it computes nothing. Both axes run from 0 to 1 (every assay metric lies
there); one colour per system, listed in the legend.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from assay.report.result import svg

SIZE = 300.0
LEFT = 50.0
TOP = 14.0


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
        out.append(svg._text(x, TOP + SIZE + 16, f"{value:g}", "middle"))
        out.append(svg._text(LEFT - 6, y + 4, f"{value:g}", "end"))
    return out


def scatter(entry: dict[str, Any], systems: Sequence[str], label: str) -> str:
    """An x/y scatter of ``entry["points"]`` coloured by system."""
    index = {name: i for i, name in enumerate(systems)}
    body = _frame()
    for point in entry["points"]:
        x = LEFT + SIZE * min(1.0, max(0.0, point["x"]))
        y = TOP + SIZE * (1 - min(1.0, max(0.0, point["y"])))
        tip = f"{point['question_id']} · {point['system']}: {point['x']:.3f}, {point['y']:.3f}"
        body.append(
            f'<circle cx="{_f(x)}" cy="{_f(y)}" r="3" opacity="0.7" '
            f'{svg.paint(index.get(point["system"], 0))}><title>{escape(tip)}</title></circle>'
        )
    body.append(svg._text(LEFT + SIZE / 2, TOP + SIZE + 34, entry["x"], "middle"))
    body.append(
        svg._text(14, TOP + SIZE / 2, entry["y"], "middle",
                  f' transform="rotate(-90 14 {_f(TOP + SIZE / 2)})"')
    )  # fmt: skip
    body += svg._legend(list(systems), LEFT + SIZE + 16, TOP + 10)
    width = LEFT + SIZE + 16 + svg.label_width(list(systems))
    return svg._svg(width, TOP + SIZE + 44, label, body)

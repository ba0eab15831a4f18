"""The HTML scatter plot past MAX_DOTS points: binned deterministically, and it says so."""

from __future__ import annotations

import random
import re
from typing import Any

from assay.report.result.html import scatter_plots
from assay.report.result.scatter_svg import GRID, MAX_DOTS, scatter

SYSTEMS = ["a", "b", "c"]


def _entry(per_system: int, seed: int = 7) -> dict[str, Any]:
    rng = random.Random(seed)
    points = []
    for name in SYSTEMS:
        for q in range(per_system):
            x = rng.choice([0.0, 1.0, 0.5, rng.random()])
            points.append({"x": x, "y": min(1.0, x * rng.random() * 2), "question_id": f"q{q}",
                           "system": name})  # fmt: skip
    return {"x": "f1", "y": "anls", "points": points, "n": len(points),
            "rank_correlation": {"rho": 0.5}, "excluded": {}, "x_signature": "x",
            "y_signature": "y"}  # fmt: skip


def test_few_points_are_one_dot_each() -> None:
    entry = _entry(MAX_DOTS // 3)
    figure = scatter(entry, SYSTEMS, "t")
    assert figure.count("<circle ") == len(entry["points"])
    (plot,) = scatter_plots({"systems": [{"system": s} for s in SYSTEMS], "scatters": [entry]})
    assert "one dot per question and system" in plot["caption"]


def test_many_points_become_one_dot_per_system_and_cell() -> None:
    entry = _entry(5000)  # 15,000 points
    figure = scatter(entry, SYSTEMS, "t")
    cells: dict[tuple[str, int, int], int] = {}
    for p in entry["points"]:  # the grid cell, computed here independently
        key = (p["system"], min(GRID - 1, int(p["x"] * GRID)), min(GRID - 1, int(p["y"] * GRID)))
        cells[key] = cells.get(key, 0) + 1
    assert figure.count("<circle ") == len(cells) <= min(3 * GRID * GRID, 15_000 // 5)
    counts = [int(c) for c in re.findall(r": (\d+) questions with x in", figure)]
    assert sorted(counts) == sorted(cells.values()) and sum(counts) == 15_000
    assert figure == scatter(entry, SYSTEMS, "t")  # deterministic
    (plot,) = scatter_plots({"systems": [{"system": s} for s in SYSTEMS], "scatters": [entry]})
    assert f"binned: the 15000 points are drawn as one dot per system and cell of a {GRID}" in (
        plot["caption"]
    )

"""The HTML report's score distributions: per system and metric, questions per bin."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from assay.cli.main import main
from assay.report.result.html import BINS, score_bins


def _reference_bin(value: float) -> str:
    """The bin label of ``value``, read off the labels' own intervals."""
    if value <= 0:
        return "0"
    if value >= 1:
        return "1"
    for label, low, high in (("(0, .25)", 0, 0.25), ("[.25, .5)", 0.25, 0.5),
                             ("[.5, .75)", 0.5, 0.75), ("[.75, 1)", 0.75, 1)):  # fmt: skip
        if low <= value < high:
            return label
    raise AssertionError(value)


def _reference(document: dict[str, Any]) -> dict[tuple[str, str], list[int]]:
    """One count per item, system and metric, item by item."""
    counts = {
        (m, s["system"]): [0] * len(BINS) for m in document["metrics"] for s in document["systems"]
    }
    for item in document["items"]:
        for name, result in item["results"].items():
            for metric in document["metrics"]:
                counts[metric, name][BINS.index(_reference_bin(result[metric]))] += 1
    return counts


SCORE = st.one_of(
    st.sampled_from([0.0, 1.0, 0.25, 0.5, 0.75, 1e-300, 0.2499999999, 0.9999999]),
    st.floats(0, 1),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.one_of(st.none(), st.tuples(SCORE, SCORE)), min_size=3, max_size=3)))
def test_bins_count_every_score_once(rows: list[list[tuple[float, float] | None]]) -> None:
    names = ["a", "b", "c"]
    items = [
        {
            "results": {
                n: {"f1": r[0], "em": r[1]}
                for n, r in zip(names, row, strict=True)
                if r is not None
            }
        }
        for row in rows
    ]  # a system may miss an item (None)
    document = {"systems": [{"system": n} for n in names], "metrics": ["f1", "em"], "items": items}
    assert score_bins(document) == _reference(document)


def test_bins_of_the_demo(tmp_path: Path) -> None:
    try:
        main(["demo", "--out", str(tmp_path)])
    except SystemExit as done:
        assert not done.code
    document = json.loads((tmp_path / "assay-result.json").read_text("utf-8"))
    counts = score_bins(document)
    assert counts == _reference(document)
    assert sum(sum(c) for c in counts.values()) == len(document["metrics"]) * sum(
        len(item["results"]) for item in document["items"]
    )

"""assay.report.markdown: byte-exact golden output from plain rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.errors import InvalidInputError
from assay.report.markdown import (
    format_interval,
    format_number,
    markdown_table,
    render_leaderboard,
    render_report,
)

GOLDEN = Path(__file__).parent / "golden" / "report_markdown.md"

LEADERBOARD = [
    {
        "system": "gpt-x",
        "score": 0.8131,
        "lower": 0.75,
        "upper": 0.875,
        "group": 1,
        "n": 16,
        "k": 13,
    },
    {"system": "llama|7b", "score": 0.78125, "lower": 0.7, "upper": 0.86, "group": 1, "n": 16},
    {"system": "baseline", "score": 0.5, "lower": None, "upper": None, "group": 2, "n": 1},
    {"system": "nothing", "score": None, "n": 0, "group": 3},
]
SLICES = {
    "domain": [
        {"slice": "news", "score": 0.9, "lower": 0.8, "upper": 0.95, "n": 10},
        {"slice": "legal", "score": None, "n": 0},
    ],
    "difficulty": [{"slice": "hard", "score": 0.25, "lower": 0.1, "upper": 0.5, "n": 4, "k": 1}],
}
NOTE = "Tie groups: Holm-adjusted approximate randomisation, 10000 trials, seed 12345, alpha 0.05."


def test_report_matches_golden_byte_for_byte() -> None:
    text = render_report(LEADERBOARD, SLICES, title="Demo results", notes=[NOTE])
    assert text == GOLDEN.read_text(encoding="utf-8")
    assert text == render_report(LEADERBOARD, SLICES, title="Demo results", notes=[NOTE])


def test_leaderboard_without_groups_ranks_by_position() -> None:
    text = render_leaderboard([{"system": "a", "score": 1.0}, {"system": "b", "score": 0.5}])
    assert text.splitlines()[2:] == [
        "| 1 | a | 1.000 | n/a | n/a |",
        "| 2 | b | 0.500 | n/a | n/a |",
    ]


def test_formatting_helpers() -> None:
    assert format_number(None) == "n/a"
    assert format_number(0.5, digits=1) == "0.5"
    assert format_interval(0.1, None) == "n/a"
    assert format_interval(0.1, 0.2, digits=2) == "[0.10, 0.20]"
    with pytest.raises(InvalidInputError, match="expected a number"):
        format_number("0.5")  # type: ignore[arg-type]


def test_bad_rows_are_typed_errors() -> None:
    with pytest.raises(InvalidInputError, match="'system'"):
        render_leaderboard([{"score": 0.5}])
    with pytest.raises(InvalidInputError, match="one entry per header"):
        markdown_table(["a", "b"], [["1"]], "lr")

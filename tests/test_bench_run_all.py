"""bench/run_all.py keeps every TARGET row in its table, notes included."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_SPEC = importlib.util.spec_from_file_location(
    "run_all", Path(__file__).resolve().parent.parent / "bench" / "run_all.py"
)
assert _SPEC is not None and _SPEC.loader is not None
run_all = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(run_all)


def test_plain_rows_parse() -> None:
    assert run_all.parse_target("TARGET a | 1 s | <= 2 s | MET") == ("a", "1 s", "<= 2 s", "MET")
    assert run_all.parse_target("TARGET a | 3 s | <= 2 s | NOT MET")[3] == "NOT MET"
    assert run_all.parse_target("ter 1.0x MET") is None


def test_a_verdict_with_a_note_keeps_its_row_and_its_note() -> None:
    row = run_all.parse_target("TARGET ter x floor | 23.11x | <= 3x | NOT MET (x inherent: 4.95x)")
    assert row == ("ter x floor", "23.11x (x inherent: 4.95x)", "<= 3x", "NOT MET")
    assert run_all.parse_target("TARGET e | 2.5x | <= 3x | MET (note)")[3] == "MET"


def test_a_malformed_target_line_is_not_dropped_silently() -> None:
    with pytest.raises(ValueError, match="not a target line"):
        run_all.parse_target("TARGET only | two")
    with pytest.raises(ValueError, match="not a target line"):
        run_all.parse_target("TARGET a | b | c | METRIC")

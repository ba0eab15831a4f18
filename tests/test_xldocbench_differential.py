"""Differential test: ``assay eval --profile xldocbench`` against tests/xl_reference.py.

The reference is a literal re-implementation of the released evaluator written from
the spec and issue 9 (it imports nothing from assay). Seeded cases from
tests/xl_generator.py cover every class of the issue; per-question rows, report.json
bytes and per-question CSV bytes must be identical, and where the reference fails
assay must refuse with one ``error:`` line. ``XL_DIFF_CASES`` raises the case count
(``bench/xldocbench_differential.py`` runs a bigger sweep and prints the count).
"""

import os
import random
from pathlib import Path

from xl_differential import compare_case
from xl_generator import break_case, make_case

CASES = int(os.environ.get("XL_DIFF_CASES", "100"))
QUESTIONS = 40


def test_generated_cases_identical(tmp_path: Path) -> None:
    compared = broken = 0
    differences = []
    for seed in range(CASES):
        case = make_case(seed, QUESTIONS)
        if seed % 25 == 24 and not case.broken:
            break_case(random.Random(seed), case)  # some released-fails cases in every run
        outcome = compare_case(case, tmp_path / str(seed))
        compared += outcome.questions
        broken += outcome.broken
        if outcome.difference is not None:
            differences.append(f"seed {seed}: {outcome.difference}")
    assert differences == []
    assert compared >= 0.9 * CASES * QUESTIONS  # most cases are scored, not refused
    assert broken >= 1  # the released-fails path is exercised too

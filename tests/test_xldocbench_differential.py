"""Differential test: ``assay eval --profile xldocbench`` against the released evaluator itself.

The oracle is ``../shared/peers/xldocbench_evaluate.py`` run as a separate process
(skipped, with the reason, when ``../shared/`` is not beside the repository). Seeded
cases from tests/xl_generator.py cover every class of issues 9 and 27; the stdout
bytes, the set of files written, the report.json and per-question CSV bytes and every
per-question row must be identical, and where the released script fails assay must
refuse with one ``error:`` line and write nothing. Each class the generator draws
rarely is forced into one case, so this small run (``XL_DIFF_CASES`` cases of 60
questions) holds every one; ``bench/xldocbench_differential.py`` runs 25,000+ questions.
"""

import os
from pathlib import Path

import pytest

from xl_differential import RELEASED, SKIP_REASON, compare_case
from xl_generator import FORCED, make_case

CASES = int(os.environ.get("XL_DIFF_CASES", "14"))
QUESTIONS = 60

pytestmark = pytest.mark.skipif(RELEASED is None, reason=SKIP_REASON)


def test_generated_cases_identical_to_the_released_evaluator(tmp_path: Path) -> None:
    assert RELEASED is not None
    rows = identical = refused = reports = tables = 0
    differences = []
    for seed in range(max(CASES, len(FORCED))):
        force = FORCED[seed] if seed < len(FORCED) else None
        outcome = compare_case(make_case(seed, QUESTIONS, force), tmp_path / str(seed), RELEASED)
        rows += outcome.rows
        identical += outcome.rows_identical
        refused += outcome.refused
        reports += outcome.report_compared
        tables += outcome.csv_compared
        differences += [f"seed {seed} ({force}): {d}" for d in outcome.differences]
    assert differences == []
    assert identical == rows >= 150  # a few hundred rows: most cases are scored, not refused
    assert refused >= 4  # directory, loop, dangling, broken: the released script fails there
    assert reports >= 4 and tables >= 4  # report.json and CSV bytes compared in several cases

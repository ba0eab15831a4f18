"""The big differential sweep: ``assay eval --profile xldocbench`` against the released evaluator.

Runs the released XL-DocBench evaluator itself (``../shared/peers/xldocbench_evaluate.py``,
a separate process per case) and ``assay eval --profile xldocbench`` on seeded cases
from tests/xl_generator.py (every class of issues 9 and 27; the first cases force the
rare ones: gold FIFOs, directories, symlink loops, dangling links, all-empty gold,
broken files, stdout only), and prints:

    rows identical N/N, report.json identical on R/R runs, CSV identical on C/C runs,
    stdout identical on S/S runs, no extra files on F/F runs, ...

Usage: PYTHONPATH=src python bench/xldocbench_differential.py [CASES] [QUESTIONS]
(default 640 cases of 40 questions: 25,600 generated questions). Exits 1 when any
output differs (each difference is printed first), 2 when the released file is absent.
"""

import sys
import tempfile
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "tests")]

from xl_differential import RELEASED, SKIP_REASON, compare_case  # noqa: E402
from xl_generator import FORCED, make_case  # noqa: E402


def main() -> int:
    if RELEASED is None:
        print(SKIP_REASON)
        return 2
    cases = int(sys.argv[1]) if len(sys.argv) > 1 else 640
    questions = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    start = time.perf_counter()
    generated = rows = identical = refused = 0
    reports = [0, 0]  # identical, compared
    tables = [0, 0]
    stdout = [0, 0]
    files = [0, 0]
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(cases):
            force = FORCED[seed] if seed < len(FORCED) else None
            case = make_case(seed, questions, force)
            generated += case.questions
            outcome = compare_case(case, Path(folder) / str(seed), RELEASED)
            for line in outcome.differences:
                print(f"seed {seed} ({force}): {line}")
            kinds = " ".join(outcome.differences)
            rows += outcome.rows
            identical += outcome.rows_identical
            refused += outcome.refused
            _count(reports, outcome.report_compared, "report.json bytes differ" not in kinds)
            _count(tables, outcome.csv_compared, "CSV bytes differ" not in kinds)
            _count(stdout, True, "stdout" not in kinds and "assay exit" not in kinds)
            _count(files, True, "files" not in kinds)
    print(
        f"generated questions {generated} in {cases} runs ({refused} refused by both); "
        f"rows identical {identical}/{rows}, report.json identical on {reports[0]}/{reports[1]} "
        f"runs, CSV identical on {tables[0]}/{tables[1]} runs, stdout identical on "
        f"{stdout[0]}/{stdout[1]} runs, no extra files on {files[0]}/{files[1]} runs; "
        f"{time.perf_counter() - start:.0f} s"
    )
    same = identical == rows and all(c[0] == c[1] for c in (reports, tables, stdout, files))
    return 0 if same else 1


def _count(counter: list[int], compared: bool, same: bool) -> None:
    if compared:
        counter[1] += 1
        counter[0] += same


if __name__ == "__main__":
    sys.exit(main())

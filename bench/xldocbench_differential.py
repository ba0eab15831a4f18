"""Bigger differential sweep: assay's xldocbench profile vs the literal reference.

Usage: PYTHONPATH=src:tests python bench/xldocbench_differential.py [CASES] [QUESTIONS]
Prints the number of generated questions compared and the cases that differ.
"""

import sys
import tempfile
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "tests")]

from xl_differential import compare_case  # noqa: E402
from xl_generator import make_case  # noqa: E402


def main() -> None:
    cases = int(sys.argv[1]) if len(sys.argv) > 1 else 700
    questions = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    start, compared, refused, differ = time.perf_counter(), 0, 0, 0
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(cases):
            outcome = compare_case(make_case(seed, questions), Path(folder) / str(seed))
            compared += outcome.questions
            refused += outcome.broken
            if outcome.difference is not None:
                differ += 1
                print(f"seed {seed}: {outcome.difference}")
    print(
        f"cases {cases}, questions compared {compared}, both-refused cases {refused}, "
        f"differing cases {differ}, {time.perf_counter() - start:.1f} s"
    )


if __name__ == "__main__":
    main()

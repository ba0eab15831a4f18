"""Per-sample sandbox overhead and pass@k on the bundled code set.

Overhead: median wall time of a trivial passing Python sample run through the sandbox
(namespaces, init process, cgroup, cleanup) minus the median wall time of the same
interpreter started as a plain subprocess. The issue names no target, so no MET/NOT MET.
"""

from __future__ import annotations

import statistics
import subprocess
import time
from pathlib import Path

from assay.code import Limits, evaluate
from assay.code.languages import LANGUAGES, interpreter

DATA = Path(__file__).resolve().parents[1] / "src" / "assay" / "data" / "code"
RUNS = 20
PROBLEM = {"task_id": "t", "test": "assert f() == 1\n"}
SAMPLE = {"task_id": "t", "completion": "def f():\n    return 1\n"}


def plain(python: str) -> float:
    started = time.perf_counter()
    subprocess.run([python, "-s", "-B", "-c", "def f():\n    return 1\nassert f() == 1\n"],
                   check=True)  # fmt: skip
    return time.perf_counter() - started


def sandboxed() -> float:
    started = time.perf_counter()
    evaluate([PROBLEM], [SAMPLE], k=(1,), allow_execution=True)
    return time.perf_counter() - started


def main() -> None:
    python = str(interpreter(LANGUAGES["python"], for_other_user=True))
    sandboxed()  # warm the probe
    base = statistics.median(plain(python) for _ in range(RUNS))
    boxed = statistics.median(sandboxed() for _ in range(RUNS))
    print(f"plain interpreter start: {1000 * base:.1f} ms (median of {RUNS})")
    print(f"sandboxed sample:        {1000 * boxed:.1f} ms (median of {RUNS})")
    print(f"per-sample sandbox overhead: {1000 * (boxed - base):.1f} ms")
    for workers in (1, 2):
        started = time.perf_counter()
        report = evaluate(DATA / "problems.jsonl", DATA / "samples.jsonl", k=(1, 2, 3),
                          allow_execution=True, workers=workers,
                          limits=Limits(timeout_seconds=3, cpu_seconds=2))  # fmt: skip
        took = time.perf_counter() - started
        doc = report.to_dict()
        print(f"bundled set, workers={workers}: {took:.1f} s, outcomes {doc['accounting']}")
    for name, entry in doc["pass_at_k"].items():  # type: ignore[union-attr]
        print(f"  {name}: {entry['value']} over {entry['tasks']}/{entry['of']} tasks")


if __name__ == "__main__":
    main()

"""Fuzz every assay command with seeded mutations of the bundled data, on demand.

    FUZZ_RUNS=3000 FUZZ_SEED=15 .venv/bin/python bench/fuzz.py
    FUZZ_RUNS=200 FUZZ_COMMANDS=rescore_eval,judge .venv/bin/python bench/fuzz.py

Prints the figures (runs, mutation classes, tracebacks, hangs, silent losses,
nondeterministic outputs, exit codes) and every finding; exits 1 when anything was
found. The CI-sized run is ``tests/test_fuzz.py`` (120 cases).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fuzz_harness import fuzz, make_seeds  # noqa: E402


def main() -> int:
    """Run ``FUZZ_RUNS`` cases (default 3000) with ``FUZZ_SEED`` (default 15)."""
    runs = int(os.environ.get("FUZZ_RUNS", "3000"))
    seed = int(os.environ.get("FUZZ_SEED", "15"))
    named = os.environ.get("FUZZ_COMMANDS", "")
    only = frozenset(n.strip() for n in named.split(",") if n.strip()) or None
    with tempfile.TemporaryDirectory(prefix="assay-fuzz-") as folder:
        work = Path(folder)
        seeds = make_seeds(work / "seeds")
        started = time.monotonic()
        figures = fuzz(seeds, work, runs, seed, report=lambda line: print(line, flush=True),
                       only=only)
        seconds = time.monotonic() - started
    print(f"fuzz (seed {seed}): {figures.summary()}")
    print(f"per class: {dict(sorted(figures.classes.items()))}")
    print(f"{seconds:.0f} s, {seconds / max(figures.runs, 1) * 1000:.0f} ms per case")
    found = figures.problems()
    print("fuzz findings: " + ("0 — MET" if not found else f"{len(found)} — NOT MET"))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())

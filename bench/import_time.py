"""Start-up: ``import assay`` and ``assay --help`` in fresh processes (issue 10, item 5).

Three figures, each the best of 7 fresh interpreters (wall time of the whole process,
started with ``subprocess``; the best run is the one the machine's other load
disturbed least):

* ``python -c pass``: the interpreter alone, the floor under both targets;
* ``python -c "import assay"``: target < 0.2 s;
* ``python -m assay --help``: the whole CLI start-up and help text, target < 0.25 s.

The CPU time (user + system) of each child is printed beside its wall time: on a
busy machine the wall time includes waiting for a core, the CPU time does not.
Also printed: the time ``import assay`` itself takes inside the interpreter
(``time.perf_counter`` around the import), and which heavy modules it loaded.

Run: ``PYTHONPATH=src python bench/import_time.py``.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time

REPEAT = 7
INSIDE = (
    "import time, sys; t = time.perf_counter(); import assay; "
    "print(time.perf_counter() - t); "
    "print(','.join(m for m in ('numpy', 'jsonschema', 'rich', 'jinja2', 'click', 'rapidfuzz', "
    "'regex') if m in sys.modules))"
)


def best_wall(args: list[str]) -> tuple[float, float]:
    """Best wall time and best CPU time (user + system) of the child process."""
    walls, cpus = [], []
    for _ in range(REPEAT):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return min(walls), min(cpus)


def main() -> None:
    python = sys.executable
    bare = best_wall([python, "-c", "pass"])
    imported = best_wall([python, "-c", "import assay"])
    helped = best_wall([python, "-m", "assay", "--help"])
    inside = []
    loaded = ""
    for _ in range(REPEAT):
        out = subprocess.check_output([python, "-c", INSIDE], text=True).splitlines()
        inside.append(float(out[0]))
        loaded = out[1] if len(out) > 1 else ""
    print(f"python -c pass: {bare[0] * 1000:.0f} ms wall, {bare[1] * 1000:.0f} ms CPU")
    print(
        f"import assay inside the interpreter: {min(inside) * 1000:.1f} ms; heavy modules "
        f"loaded: {loaded or 'none'}"
    )
    for name, (wall, cpu), goal in (
        ("import assay (whole process)", imported, 0.2),
        ("assay --help (whole process)", helped, 0.25),
    ):
        met = "MET" if wall < goal else "NOT MET"
        print(
            f"TARGET {name} | {wall:.3f} s wall ({cpu:.3f} s CPU; python -c pass "
            f"{bare[0]:.3f} s wall) | < {goal} s | {met}"
        )


if __name__ == "__main__":
    main()

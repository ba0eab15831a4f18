"""Run every benchmark in one go (``make bench``) and print one table of targets at the end.

Convention for every bench: a target is printed as one line
``TARGET <name> | <measured> | <target> | MET`` (or ``NOT MET``). Each bench's output
is shown as it runs; the ``TARGET`` lines are collected and printed again, together,
as the final table (with the bench that printed each).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

BENCHES = (
    "import_time.py",
    "eval_bench.py",
    "eval_scale.py",
    "ngram_bench.py",
    "edit_rate_bench.py",
    "tokenizer_bench.py",
    "metric_bench.py",
    "bench_stats.py",
    "bench_structured.py",
    "bench_report.py",
    "bench_code.py",
    "bench_humaneval.py",
    "bench_judge.py",
)
PREFIX = "TARGET "


def parse_target(line: str) -> tuple[str, str, str, str] | None:
    """``(name, measured, target, verdict)`` of a ``TARGET`` line, else ``None``.

    A verdict may carry a note after it (``NOT MET (x inherent work: ...)``): the
    note moves to the measured column, so the row stays in the table with it.

    Raises:
        ValueError: a line starting ``TARGET `` that is not a target line (a row
            must never drop out of the table unseen).
    """
    if not line.startswith(PREFIX):
        return None
    parts = [part.strip() for part in line[len(PREFIX) :].split(" | ")]
    verdict = parts[-1] if len(parts) == 4 else ""
    for word in ("NOT MET", "MET"):
        if verdict == word or verdict.startswith(word + " "):
            note = verdict[len(word) :].strip()
            measured = f"{parts[1]} {note}" if note else parts[1]
            return parts[0], measured, parts[2], word
    raise ValueError(f"not a target line: {line!r}")


def run_bench(path: Path) -> tuple[int, list[tuple[str, str, str, str]], float]:
    """Run one bench, echoing its output; return its exit code, targets and wall time."""
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, str(path)], stdout=subprocess.PIPE, text=True, bufsize=1
    )
    targets = []
    assert process.stdout is not None
    for line in process.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
        try:
            parsed = parse_target(line.rstrip("\n"))
        except ValueError as exc:
            parsed = (str(exc), "?", "?", "NOT MET")
        if parsed is not None:
            targets.append(parsed)
    return process.wait(), targets, time.perf_counter() - start


def table(rows: list[tuple[str, str, str, str, str]]) -> str:
    """The targets as one aligned text table."""
    header = ("bench", "target", "measured", "goal", "verdict")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(5)]
    lines = [" | ".join(cell.ljust(w) for cell, w in zip(header, widths, strict=True))]
    lines.append("-+-".join("-" * w for w in widths))
    lines += [" | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    return "\n".join(lines)


def main() -> int:
    here = Path(__file__).parent
    failed, rows = [], []
    for name in BENCHES:
        print(f"\n=== bench/{name} ===", flush=True)
        code, targets, seconds = run_bench(here / name)
        print(f"--- bench/{name}: {seconds:.1f} s", flush=True)
        if code != 0:
            failed.append(name)
        rows += [(name, *target) for target in targets]
    print("\n=== targets ===")
    print(table(rows) if rows else "no TARGET lines printed")
    met = sum(r[4] == "MET" for r in rows)
    print(f"\n{met} of {len(rows)} targets met")
    if failed:
        print(f"failed to run: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

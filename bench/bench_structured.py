"""``assay structured`` on N items (default 10,000) end to end, and where the time goes.

The items are the bundled product-catalogue example (30 responses: clean, fenced,
prose-wrapped, invalid and empty) repeated to N with fresh ids, with their
references, written as JSONL files in a temporary folder. Then:

* **end to end**: ``python -m assay structured --items … --schema … --references …
  --output report.json`` as a subprocess, wall time, best of 2 (interpreter start,
  reading, scoring, aggregation, the terminal report and the JSON file);
* **stages** (one process, best of 2): reading + scoring (``score_structured``),
  aggregation (``to_dict``) and rendering the JSON report, beside the standard
  library's ``json.dumps(..., indent=2)`` that it replaces (same bytes, checked).

Run: ``PYTHONPATH=src python bench/bench_structured.py [N] [--profile]``. Prints
``TARGET assay structured 10,000 items end to end | … | <= 1.5 s | MET/NOT MET``.
``--profile`` also runs the command once in this process under cProfile and prints
the functions with the most own time (and the cumulative top).
"""

from __future__ import annotations

import contextlib
import cProfile
import io
import json
import pstats
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from assay.io.bundled import data_path
from assay.report.structured.files import render_structured_json
from assay.structured.api import score_structured


def best_of(fn: Callable[[], Any], repeat: int = 2) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def write_inputs(folder: Path, n: int) -> tuple[Path, Path, Path]:
    base = data_path("structured")
    rows = [json.loads(line) for line in (base / "responses.jsonl").open(encoding="utf-8")]
    refs = {}
    for line in (base / "references.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        refs[row["id"]] = row
    items, references = folder / "items.jsonl", folder / "references.jsonl"
    with items.open("w", encoding="utf-8") as out, references.open("w", encoding="utf-8") as ref:
        for i in range(n):
            row = dict(rows[i % len(rows)])
            original, row["id"] = row["id"], f"item-{i:06d}"
            out.write(json.dumps(row) + "\n")
            if original in refs:
                ref.write(json.dumps({**refs[original], "id": row["id"]}) + "\n")
    return items, base / "product.schema.json", references


def profile(command: list[str], top: int = 25) -> None:
    """Run ``assay structured`` in this process under cProfile; print the top functions."""
    from assay.cli.main import main as cli

    profiler = cProfile.Profile()
    with contextlib.redirect_stdout(io.StringIO()):  # the terminal report is not shown
        profiler.enable()
        try:
            cli(command[3:])
        except SystemExit:
            pass
        profiler.disable()
    for order in ("tottime", "cumulative"):
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats(order).print_stats(top)
        print(f"--- profile: top {top} by {order} ---")
        print(text.getvalue().split("\n", 4)[-1].strip("\n"))


def main(n: int, with_profile: bool = False) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        items, schema, references = write_inputs(folder, n)
        command = [sys.executable, "-m", "assay", "structured", "--items", str(items)]
        command += ["--schema", str(schema), "--references", str(references)]
        command += ["--output", str(folder / "report.json")]
        run = lambda: subprocess.run(command, check=True, stdout=subprocess.DEVNULL)  # noqa: E731
        end_to_end, _ = best_of(run)
        size = (folder / "report.json").stat().st_size
        if with_profile:
            profile(command)
        scored, report = best_of(lambda: score_structured(items, schema, references=references))
        aggregated, data = best_of(report.to_dict)
        rendered, text = best_of(lambda: render_structured_json(data))
        stdlib, expected = best_of(
            lambda: json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
        )
    print(f"items: {n:,}; JSON report {size / 1e6:.1f} MB")
    print(f"read + score (both axes): {scored:.3f} s ({n / scored:,.0f} items/s)")
    print(f"aggregate (to_dict): {aggregated:.3f} s")
    print(
        f"render JSON: {rendered:.3f} s (json.dumps indent=2: {stdlib:.3f} s, "
        f"{stdlib / rendered:.1f}x; same bytes: {text == expected})"
    )
    met = "MET" if end_to_end <= 1.5 else "NOT MET"
    print(f"TARGET assay structured {n:,} items end to end | {end_to_end:.2f} s | <= 1.5 s | {met}")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--profile"]
    main(int(args[0]) if args else 10_000, "--profile" in sys.argv[1:])

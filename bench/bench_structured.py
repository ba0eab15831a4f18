"""Throughput of structured scoring on the bundled example, repeated to N items.

Run: PYTHONPATH=src python bench/bench_structured.py [N]
Prints items/s for scoring (both axes) and for rendering the JSON report.
"""

import sys
import time
from dataclasses import replace

from assay import score_structured
from assay.report.structured.files import render_structured_json
from assay.structured.example import bundled_example_paths
from assay.structured.items import attach_references, read_items


def main(n: int) -> None:
    with bundled_example_paths() as paths:
        base = attach_references(read_items(paths.items), paths.references)
        schema = paths.schema
        items = [replace(base[i % len(base)], id=f"{i}") for i in range(n)]
        start = time.perf_counter()
        report = score_structured(items, schema)
        scored = time.perf_counter() - start
        start = time.perf_counter()
        text = render_structured_json(report.to_dict())
        rendered = time.perf_counter() - start
    print(f"items: {n}")
    print(f"score (both axes): {scored:.3f} s  ({n / scored:,.0f} items/s)")
    print(f"aggregate + JSON render: {rendered:.3f} s  ({len(text) / 1e6:.1f} MB)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)

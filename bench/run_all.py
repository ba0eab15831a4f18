"""Run every benchmark in one go (``make bench``); each prints its own figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCHES = (
    "import_time.py",
    "eval_bench.py",
    "ngram_bench.py",
    "edit_rate_bench.py",
    "tokenizer_bench.py",
    "bench_stats.py",
    "bench_structured.py",
    "bench_report.py",
    "bench_code.py",
    "bench_judge.py",
)


def main() -> int:
    here = Path(__file__).parent
    failed = []
    for name in BENCHES:
        print(f"\n=== bench/{name} ===", flush=True)
        if subprocess.run([sys.executable, str(here / name)], check=False).returncode != 0:
            failed.append(name)
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Print how long ``import assay`` takes in a fresh interpreter (best of 5)."""

import subprocess
import sys

CODE = "import time; t = time.perf_counter(); import assay; print(time.perf_counter() - t)"


def main() -> None:
    runs = [
        float(subprocess.check_output([sys.executable, "-c", CODE], text=True)) for _ in range(5)
    ]
    best, worst = min(runs) * 1000, max(runs) * 1000
    print(f"import assay: best {best:.1f} ms, worst {worst:.1f} ms (target < 200 ms)")


if __name__ == "__main__":
    main()

"""Time assay.stats on benchmark-sized inputs and print the figures.

Run: PYTHONPATH=src python bench/bench_stats.py
"""

from __future__ import annotations

import time

import numpy as np

from assay.stats import (
    bootstrap,
    compare_systems,
    paired_approximate_randomization,
    paired_bootstrap,
    ratio_reducer,
)


def timed(label: str, fn, *args, **kwargs):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    print(f"{label:<62} {time.perf_counter() - start:7.3f} s")
    return result


def main() -> None:
    rng = np.random.default_rng(0)
    n = 10_000
    a = rng.random(n)
    b = np.clip(a + rng.normal(0.0, 0.1, n), 0.0, 1.0)
    ratio_stats = rng.integers(0, 5, size=(n, 2)).astype(float) + [0.0, 1.0]
    timed(f"bootstrap mean, n={n}, 1000 resamples", bootstrap, a, n_resamples=1000)
    timed(
        f"bootstrap ratio of sums, n={n}, 1000 resamples",
        bootstrap,
        ratio_stats,
        ratio_reducer(0, 1),
        n_resamples=1000,
    )
    timed(f"paired bootstrap mean, n={n}, 1000 resamples", paired_bootstrap, a, b)
    timed(
        f"approximate randomisation mean, n={n}, 10000 trials",
        paired_approximate_randomization,
        a,
        b,
    )
    systems = {f"sys{i}": np.clip(a + rng.normal(0, 0.05, n), 0, 1) for i in range(5)}
    timed(f"compare_systems 5 systems (10 pairs), n={n}, AR 10000", compare_systems, systems)


if __name__ == "__main__":
    main()

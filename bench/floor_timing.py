r"""The floor the metric benches divide by, and the timer they share.

**The floor** of a corpus: read its JSONL file, ``json.loads`` every line and
``re.compile(r"\w+").findall`` the prediction and every target (no lowercasing):
the least any metric that reads its input and looks at words must do. A bench
times its metric on the rows already in memory (the read is *not* in the metric's
time), so ``x floor`` = metric time / floor time is strict.

Used by ``metric_bench.py`` and ``ngram_bench.py`` (run as scripts from ``bench/``,
so this sibling module is importable), both through :class:`Regime`.
"""

from __future__ import annotations

import gc
import json
import re
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

WORD = re.compile(r"\w+")


def best_of(fn: Callable[[], object], repeat: int) -> float:
    """Best wall time of ``repeat`` runs, garbage collector off during each (as ``timeit``)."""
    times = []
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
        finally:
            gc.enable()
    return min(times)


def best_of_pair(
    first: Callable[[], object], second: Callable[[], object], repeat: int
) -> tuple[float, float]:
    """Best wall times of two functions run alternately ``repeat`` times each.

    Alternating puts both under the same load, so a load spike on a shared machine
    does not land on one side only (as it can when one side's runs all come first).
    """
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeat):
        for fn, out in zip((first, second), times, strict=True):
            out.append(best_of(fn, 1))
    return min(times[0]), min(times[1])


def read_and_tokenize(path: Path) -> None:
    r"""Read + ``json.loads`` + ``\w+`` findall of the prediction and every target."""
    findall = WORD.findall
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            findall(row["prediction"])
            for target in row["targets"]:
                findall(target)


def floor_time(rows: Sequence[dict[str, object]], repeat: int) -> float:
    """The floor of ``rows`` (``prediction``/``targets`` dicts), best of ``repeat`` runs."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "corpus.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        return best_of(lambda: read_and_tokenize(path), repeat)


def target(name: str, measured: str, goal: str, met: bool, note: str = "") -> None:
    """Print one ``TARGET`` line (collected by ``run_all.py`` into the final table)."""
    print(f"TARGET {name} | {measured} | {goal} | {'MET' if met else 'NOT MET'}{note}", flush=True)


class Regime:
    """One regime's corpus in memory (predictions, target lists) with its floor time."""

    def __init__(self, name: str, rows: Sequence[dict[str, object]], repeat: int) -> None:
        self.name, self.n, self.repeat = name, len(rows), repeat
        self.preds = [str(r["prediction"]) for r in rows]
        self.targets = [list(r["targets"]) for r in rows]  # type: ignore[call-overload]
        self.floor = floor_time(rows, 2 * repeat)

    def us(self, seconds: float) -> str:
        """``seconds`` for the whole regime as microseconds per item."""
        return f"{1e6 * seconds / self.n:.1f} us/item"

r"""The floor the metric benches divide by, and the timer they share.

**The floor** of a corpus: read its JSONL file, ``json.loads`` every line and
``re.compile(r"\w+").findall`` the prediction and every target (no lowercasing):
the least any metric that reads its input and looks at words must do. A bench
times its metric on the rows already in memory (the read is *not* in the metric's
time), so ``x floor`` = metric time / floor time is strict.

**Interleaved, per measurement** (:meth:`Regime.timed`): the floor is timed again
beside every metric, in rounds of *floor, metric, floor*, and each side keeps its
best run (the metric ``repeat`` runs, the floor ``2 * repeat``, as when it was timed
once per regime at start-up). On a shared machine a floor taken once, minutes
before the metric, saw another load than the metric did, and the short-item
ratios swung by tens of percent between identical runs; alternating puts both
sides under the same load. A regime may also give a time budget: cheap corpora
then get more rounds (at most five times as many), for both sides alike. The
floor's work is unchanged: the same file, read, parsed and tokenised the same way.

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
MAX_ROUNDS_FACTOR = 5
""":meth:`Regime.timed` runs at most this many times ``repeat`` rounds (within its budget)."""


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


def target(name: str, measured: str, goal: str, met: bool, note: str = "") -> None:
    """Print one ``TARGET`` line (collected by ``run_all.py`` into the final table)."""
    print(f"TARGET {name} | {measured} | {goal} | {'MET' if met else 'NOT MET'}{note}", flush=True)


class Regime:
    """One regime's corpus in memory (predictions, target lists) and on disk (for its floor).

    Attributes:
        floors: every floor time :meth:`timed` measured (best per call), in order.
    """

    def __init__(
        self, name: str, rows: Sequence[dict[str, object]], repeat: int, budget: float = 0.0
    ) -> None:
        self.name, self.n, self.repeat, self.budget = name, len(rows), repeat, budget
        self.preds = [str(r["prediction"]) for r in rows]
        self.targets = [list(r["targets"]) for r in rows]  # type: ignore[call-overload]
        self._tmp = tempfile.TemporaryDirectory()  # removed with the object (or at exit)
        self.path = Path(self._tmp.name) / "corpus.jsonl"
        self.path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        self.floors: list[float] = []

    def read_floor(self) -> None:
        """One run of the floor: :func:`read_and_tokenize` of this regime's file."""
        read_and_tokenize(self.path)

    def timed(self, *fns: Callable[[], object]) -> tuple[float, ...]:
        """Best times of ``fns`` and, last, of the floor, measured interleaved.

        Each round runs the floor, every function in order, then the floor again,
        so every side sees the same load; the floor gets twice the runs of each
        function. There are :attr:`repeat` rounds, and more (up to
        ``MAX_ROUNDS_FACTOR * repeat``) while the call has taken less than
        :attr:`budget` seconds: cheap corpora get more runs, so a best time is less
        likely to hold a pause of the shared machine, on both sides alike.
        """
        times: list[list[float]] = [[] for _ in range(len(fns) + 1)]
        start = time.perf_counter()
        rounds = 0
        while rounds < self.repeat or (
            rounds < MAX_ROUNDS_FACTOR * self.repeat
            and time.perf_counter() - start < self.budget
        ):
            times[-1].append(best_of(self.read_floor, 1))
            for fn, out in zip(fns, times, strict=False):
                out.append(best_of(fn, 1))
            times[-1].append(best_of(self.read_floor, 1))
            rounds += 1
        self.floors.append(min(times[-1]))
        return tuple(min(t) for t in times)

    def floor_range(self) -> str:
        """The floors measured so far, as ``min-max us/item``."""
        low, high = (1e6 * f(self.floors) / self.n for f in (min, max))
        return f"{low:.1f}-{high:.1f} us/item"

    def us(self, seconds: float) -> str:
        """``seconds`` for the whole regime as microseconds per item."""
        return f"{1e6 * seconds / self.n:.1f} us/item"

"""Local single process vs a Dask LocalCluster, side by side (issue 11).

    python bench/dask_bench.py            # the issue's sizes: 200 x 20,000 and a 5 GB-class file
    python bench/dask_bench.py --quick    # small sizes, for development (a minute when idle)

Generated XL-DocBench-shaped data (concise, medium and verbose answers). Prints:

- one prediction file of about ``--big-gb`` GB (scaled down to a third of the free
  disk, and said so), evaluated on ``local:N`` in byte-range blocks, with the
  peak RSS of the client and of each worker (a fresh cluster, so the peaks are
  this step's);
- cluster start-up time;
- a size series from the small job (13 x 1,345) up: wall time in process and on
  ``local:N``, whether the results are identical, and the first size at which the
  cluster wins;
- the large job (``--systems`` x ``--questions``, default 200 x 20,000);
- ``score --file --dask`` on a pairs file of ``--pairs-gb`` GB and on one a quarter
  of its size, read in blocks on the workers, each in a fresh process with a
  fresh cluster: wall time, peak RSS of the client and of each worker. A worker's
  peak should follow the block size, not the file's size.

Each figure is printed with the machine's load average beside it: on a shared
machine the times are noisy, the ratios less so. ``TARGET`` lines follow the
convention of ``bench/run_all.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from assay.evaluation.runs import SystemInput, evaluate
from assay.io import blocks

WORDS = (
    "the of annual revenue board chair growth percent million report page table figure "
    "net income quarter fiscal year operating margin segment total assets liabilities "
    "equity cash flow dividend share price earnings guidance outlook risk"
).split()


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.1f} {five:.1f} {fifteen:.1f}"


def target(name: str, measured: str, goal: str, met: bool) -> None:
    """One ``TARGET`` line (see ``bench/run_all.py``)."""
    print(f"TARGET {name} | {measured} | {goal} | {'MET' if met else 'NOT MET'}", flush=True)


def answer(rng: random.Random, value: str, correct: float, verbose: int) -> str:
    """A prediction: the gold value (or a wrong one), padded to a realistic length."""
    text = value if rng.random() < correct else " ".join(rng.choices(WORDS, k=3))
    if verbose:
        text = f"{text} " + " ".join(rng.choices(WORDS, k=20 * verbose))
    return text


def make_gold(folder: Path, questions: int, seed: int = 5) -> tuple[Path, list[str]]:
    """An XL-DocBench-shaped gold file; returns its path and the answer values."""
    rng = random.Random(seed)
    gold = folder / "gold.jsonl"
    answers = []
    with gold.open("w", encoding="utf-8") as out:
        for i in range(questions):
            kind = rng.choice(["Str", "Int", "Float"])
            value = (
                " ".join(rng.choices(WORDS, k=3)) if kind == "Str" else str(rng.randint(1, 9999))
            )
            answers.append(value)
            out.write(json.dumps({
                "question_id": f"q{i}", "task_type": "single_doc", "question": "?",
                "answer": {"value": value, "format": kind},
                "metadata": {"domain": rng.choice(["finance", "law"]),
                             "evidence_sources": ["text"]},
            }) + "\n")  # fmt: skip
    return gold, answers


def make_systems(
    folder: Path, answers: list[str], systems: int, seed: int = 7
) -> list[SystemInput]:
    """``systems`` prediction files: a third concise, a third medium, a third verbose."""
    rng = random.Random(seed)
    entries = []
    for s in range(systems):
        path = folder / f"sys{s:03d}.jsonl"
        with path.open("w", encoding="utf-8") as out:
            for i, value in enumerate(answers):
                text = answer(rng, value, 0.6, s % 3)
                out.write(json.dumps({"question_id": f"q{i}", "prediction": text}) + "\n")
        entries.append(SystemInput(path.stem, (str(path),)))
    return entries


def timed(gold: Path, systems: list[SystemInput], executor: Any) -> tuple[Any, float]:
    """Evaluate once; return the result and the wall time."""
    start = time.perf_counter()
    result = evaluate([gold], systems, executor=executor)
    return result, time.perf_counter() - start


def compare(label: str, root: Path, systems: int, questions: int, client: Any) -> bool:
    """One size in process and on the cluster; prints both; True when the cluster wins."""
    folder = root / f"{systems}x{questions}"
    folder.mkdir()
    made = time.perf_counter()
    gold, answers = make_gold(folder, questions)
    entries = make_systems(folder, answers, systems)
    made = time.perf_counter() - made
    here, t_here = timed(gold, entries, None)
    there, t_there = timed(gold, entries, client)
    rows = systems * questions
    print(
        f"{label} {systems} x {questions:,} ({rows:,} predictions, written in {made:.1f} s): "
        f"in process {t_here:.2f} s, "
        f"cluster {t_there:.2f} s, ratio {t_here / t_there:.2f}x, identical {here == there}; "
        f"{_load()}",
        flush=True,
    )
    target(f"dask {systems}x{questions} identical to local", str(here == there), "True",
           here == there)  # fmt: skip
    shutil.rmtree(folder)
    return t_there < t_here


def _cluster(workers: int) -> Any:
    from dask.distributed import LocalCluster

    from assay.parallel import CLUSTER_QUIET  # loopback, ephemeral HTTP ports, quiet logs

    return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, **CLUSTER_QUIET)


def big_file(root: Path, gigabytes: float, workers: int) -> None:
    """One large prediction file, read in blocks on a fresh cluster; peak memory per process."""
    from dask.distributed import Client

    free = shutil.disk_usage(root).free / 1e9
    size = min(gigabytes, free / 3)
    if size < gigabytes:
        print(f"big file: scaled down to {size:.2f} GB (free disk {free:.1f} GB)")
    folder = root / "big"
    folder.mkdir()
    gold, answers = make_gold(folder, 20_000)
    path = folder / "huge.jsonl"
    rng = random.Random(11)
    start = time.perf_counter()
    with path.open("w", encoding="utf-8") as out:
        for i, value in enumerate(answers):  # every gold question once, then other ids
            out.write(
                json.dumps({"question_id": f"q{i}", "prediction": answer(rng, value, 0.6, 1)})
            )
            out.write("\n")
        pads = [" ".join(rng.choices(WORDS, k=k)) for k in (3, 20, 40, 60) for _ in range(50)]
        written, n, limit = out.tell(), 0, int(size * 1e9)
        while written < limit:
            line = f'{{"question_id": "other-{n}", "prediction": "{pads[n % len(pads)]}"}}\n'
            out.write(line)
            written += len(line)
            n += 1
    print(f"big file: {path.stat().st_size / 1e9:.2f} GB, {len(answers) + n:,} rows, written in "
          f"{time.perf_counter() - start:.1f} s", flush=True)  # fmt: skip
    before = _peak_mib()
    with _cluster(workers) as cluster, Client(cluster) as client:
        start = time.perf_counter()
        result = evaluate([gold], [SystemInput("huge", (str(path),))], executor=client)
        wall = time.perf_counter() - start
        peaks = client.run(lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    overall = result.systems[0].overall
    parts = -(-path.stat().st_size // blocks.BLOCK_BYTES)
    print(f"big file on local:{workers}, {parts} blocks of {blocks.BLOCK_BYTES / 2**20:g} MiB: "
          f"{wall:.1f} s ({path.stat().st_size / 1e9 / wall:.3f} "
          f"GB/s), accuracy {overall.accuracy:.4f}; {_load()}", flush=True)  # fmt: skip
    client_peak = max(before, _peak_mib())
    print(f"  peak RSS client {client_peak:.0f} MiB")
    for address, mib in sorted(peaks.items()):
        print(f"  peak RSS worker {address}: {mib:.0f} MiB")
    gib = path.stat().st_size / 2**30
    target(f"big file {gib:.1f} GiB: client peak RSS", f"{client_peak:.0f} MiB", "< 1024 MiB",
           client_peak < 1024)  # fmt: skip
    target(f"big file {gib:.1f} GiB: worker peak RSS", f"{max(peaks.values()):.0f} MiB",
           "< 1024 MiB", max(peaks.values()) < 1024)  # fmt: skip
    path.unlink()


def write_pairs(path: Path, size: float, seed: int = 13) -> int:
    """A pairs file of about ``size`` GB (realistic lengths); returns its row count."""
    rng = random.Random(seed)
    texts = [" ".join(rng.choices(WORDS, k=k)) for k in (2, 5, 12, 30, 60) for _ in range(40)]
    written, n, limit = 0, 0, int(size * 1e9)
    with path.open("w", encoding="utf-8") as out:
        while written < limit:
            line = (f'{{"id": "p{n}", "prediction": "{texts[n % 199]}", '
                    f'"targets": ["{texts[(n * 7) % 200]}"]}}\n')  # fmt: skip
            out.write(line)
            written += len(line)
            n += 1
    return n


def score_pairs_step(path: str, workers: int, block_bytes: int) -> None:
    """In a fresh process: ``score --file --dask local:N``; print wall time and peak RSS as JSON."""
    from dask.distributed import Client

    from assay.cli.score_file import score_file
    from assay.cli.score_output import Interval
    from assay.metrics.registry import get_metric

    blocks.BLOCK_BYTES = block_bytes
    with _cluster(workers) as cluster, Client(cluster) as client:
        start = time.perf_counter()
        entries = score_file([get_metric("f1").bind()], Path(path), Interval(None, 0, 2),
                             executor=client)  # fmt: skip
        wall = time.perf_counter() - start
        peaks = client.run(lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    print(json.dumps({"wall": wall, "client": _peak_mib(), "workers": sorted(peaks.values()),
                      "n": entries[0]["n"], "value": entries[0]["value"]}))  # fmt: skip


def pairs_file(root: Path, gigabytes: float, workers: int) -> None:
    """``score --file`` in blocks at two file sizes: the workers' peaks follow the block size."""
    free = shutil.disk_usage(root).free / 1e9
    size = min(gigabytes, free / 3)
    if size < gigabytes:
        print(f"pairs file: scaled down to {size:.2f} GB (free disk {free:.1f} GB)")
    peaks = {}
    for share in (0.25, 1.0):
        path = root / f"pairs-{share}.jsonl"
        start = time.perf_counter()
        rows = write_pairs(path, size * share)
        made = time.perf_counter() - start
        code = (f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); "
                f"import dask_bench; dask_bench.score_pairs_step({str(path)!r}, {workers}, "
                f"{blocks.BLOCK_BYTES})")  # fmt: skip
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              check=True)  # fmt: skip
        figures = json.loads(done.stdout.strip().splitlines()[-1])
        gb = path.stat().st_size / 1e9
        parts = -(-path.stat().st_size // blocks.BLOCK_BYTES)
        print(f"score --file f1 --dask local:{workers}: {gb:.2f} GB, {rows:,} pairs (written in "
              f"{made:.1f} s), {parts} blocks of {blocks.BLOCK_BYTES / 2**20:g} MiB: "
              f"{figures['wall']:.1f} s, n={figures['n']:,}; peak RSS client "
              f"{figures['client']:.0f} MiB, workers "
              f"{', '.join(f'{w:.0f}' for w in figures['workers'])} MiB; {_load()}", flush=True)
        peaks[share] = figures
        path.unlink()
    small, full = max(peaks[0.25]["workers"]), max(peaks[1.0]["workers"])
    target("score --file blocks: worker peak RSS, full vs quarter file", f"{full:.0f} vs "
           f"{small:.0f} MiB", "<= 1.25x", full <= 1.25 * small)  # fmt: skip
    target("score --file blocks: client peak RSS", f"{peaks[1.0]['client']:.0f} MiB",
           "< 1024 MiB", peaks[1.0]["client"] < 1024)  # fmt: skip


def main() -> int:
    """Run the comparison and print the figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="small sizes, for development")
    parser.add_argument("--systems", type=int, default=200)
    parser.add_argument("--questions", type=int, default=20_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--big-gb", type=float, default=5.0, help="size of the large file")
    parser.add_argument("--pairs-gb", type=float, default=5.0, help="size of the pairs file")
    parser.add_argument("--block-mb", type=float, default=64, help="block size (MiB)")
    parser.add_argument("--only", choices=["big", "pairs", "series"], default=None,
                        help="run one step only")  # fmt: skip
    args = parser.parse_args()
    series = [(13, 1345), (40, 5000), (100, 10_000)]
    if args.quick:
        args.systems, args.questions, args.big_gb, args.block_mb = 20, 2000, 0.05, 4
        args.pairs_gb = 0.04
        series = [(13, 1345)]
    blocks.BLOCK_BYTES = int(args.block_mb * 2**20)
    try:
        from dask.distributed import Client
    except ImportError:
        print("dask is not installed: pip install 'assay[dask]'")
        return 1
    print(f"{os.cpu_count()} cores; {_load()}; blocks of {args.block_mb:g} MiB", flush=True)
    print("eval steps: evaluate(profile='assay'), default options: scores and accounting per "
          "system; no intervals and no paired tests (evaluate computes none; compare does)",
          flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        if args.only in (None, "big"):
            big_file(root, args.big_gb, args.workers)
        if args.only in (None, "pairs"):
            pairs_file(root, args.pairs_gb, args.workers)
        if args.only not in (None, "series"):
            return 0
        start = time.perf_counter()
        with _cluster(args.workers) as cluster, Client(cluster) as client:
            print(f"cluster start-up (local:{args.workers}): {time.perf_counter() - start:.2f} s")
            wins = None
            for systems, questions in series:
                label = "small job" if (systems, questions) == (13, 1345) else "series"
                if compare(label, root, systems, questions, client) and wins is None:
                    wins = f"{systems} x {questions:,}"
            won = compare("large job", root, args.systems, args.questions, client)
            if wins is None and won:
                wins = f"{args.systems} x {args.questions:,}"
        print(f"the cluster first wins at: {wins or 'no size measured here'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

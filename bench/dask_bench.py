"""Local single process vs a Dask LocalCluster, side by side (issue 11).

    python bench/dask_bench.py                 # 40 systems x 5,000 questions, 2 workers
    python bench/dask_bench.py --full          # 200 systems x 20,000 questions (long)
    python bench/dask_bench.py --big-rows 2000000   # one large prediction file too

Prints wall time of ``evaluate`` in process and on ``local:N`` (cluster start-up
timed apart), the ratio, the overhead on a small job (13 x 1,345), whether the
results are identical, and peak RSS of the client and of each worker.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from assay.evaluation.runs import SystemInput, evaluate

WORDS = "the of annual revenue board chair growth percent million report page table figure".split()


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def make_data(folder: Path, systems: int, questions: int, seed: int = 5) -> list[SystemInput]:
    """XL-DocBench-shaped gold and ``systems`` prediction files of mixed answer lengths."""
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
    entries = []
    for s in range(systems):
        path = folder / f"sys{s:03d}.jsonl"
        verbose = s % 3
        with path.open("w", encoding="utf-8") as out:
            for i, value in enumerate(answers):
                text = value if rng.random() < 0.6 else " ".join(rng.choices(WORDS, k=3))
                if verbose:
                    text = f"{text} " + " ".join(rng.choices(WORDS, k=20 * verbose))
                out.write(json.dumps({"question_id": f"q{i}", "prediction": text}) + "\n")
        entries.append(SystemInput(path.stem, (str(path),)))
    return entries


def run(label: str, gold: Path, systems: list[SystemInput], executor: Any) -> tuple[Any, float]:
    """Evaluate once; print and return the result and the wall time."""
    start = time.perf_counter()
    result = evaluate([gold], systems, executor=executor)
    wall = time.perf_counter() - start
    rows = len(systems) * sum(1 for _ in gold.open())
    print(f"  {label:<34} {wall:8.2f} s   {rows / wall:12,.0f} predictions/s")
    return result, wall


def main() -> int:
    """Run the comparison and print the figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--systems", type=int, default=40)
    parser.add_argument("--questions", type=int, default=5000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--full", action="store_true", help="200 systems x 20,000 questions")
    parser.add_argument("--big-rows", type=int, default=0, help="one extra file of N rows")
    args = parser.parse_args()
    if args.full:
        args.systems, args.questions = 200, 20000
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        print("dask is not installed: pip install 'assay[dask]'")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        small_dir, big_dir = root / "small", root / "big"
        small_dir.mkdir()
        big_dir.mkdir()
        small = make_data(small_dir, 13, 1345)
        big = make_data(big_dir, args.systems, args.questions)
        start = time.perf_counter()
        with (
            LocalCluster(n_workers=args.workers, threads_per_worker=1, dashboard_address=None,
                         silence_logs=40) as cluster,
            Client(cluster) as client,
        ):  # fmt: skip
            print(f"cluster start-up (local:{args.workers}): {time.perf_counter() - start:.2f} s")
            print("small job: 13 systems x 1,345 questions")
            a, t_local = run("in process", small_dir / "gold.jsonl", small, None)
            b, t_dask = run(f"local:{args.workers}", small_dir / "gold.jsonl", small, client)
            print(f"  identical: {a == b}; cluster overhead {t_dask - t_local:+.2f} s")
            print(f"large job: {args.systems} systems x {args.questions:,} questions")
            a, t_local = run("in process", big_dir / "gold.jsonl", big, None)
            b, t_dask = run(f"local:{args.workers}", big_dir / "gold.jsonl", big, client)
            print(
                f"  identical: {a == b}; speed-up {t_local / t_dask:.2f}x on {args.workers} workers"
            )
            if args.big_rows:
                _big_file(root, big_dir, args.big_rows, client)
            workers = client.run(lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
            for address, mib in sorted(workers.items()):
                print(f"  peak RSS worker {address}: {mib:.0f} MiB")
        print(f"  peak RSS client: {_peak_mib():.0f} MiB")
    return 0


def _big_file(root: Path, big_dir: Path, rows: int, client: Any) -> None:
    """One prediction file with ``rows`` rows (most of them extra ids), scored on the cluster."""
    path = root / "huge.jsonl"
    line = json.dumps({"question_id": "extra", "prediction": " ".join(WORDS * 4)}) + "\n"
    with path.open("w", encoding="utf-8") as out:
        for source in big_dir.glob("sys000.jsonl"):
            out.write(source.read_text(encoding="utf-8"))
        for i in range(rows):
            out.write(line.replace('"extra"', f'"x{i}"'))
    size = path.stat().st_size / 2**30
    before = _peak_mib()
    start = time.perf_counter()
    evaluate([big_dir / "gold.jsonl"], [SystemInput("huge", (str(path),))], executor=client)
    wall = time.perf_counter() - start
    print(f"big file: {rows:,} rows, {size:.2f} GiB on local workers: {wall:.2f} s; "
          f"client peak RSS {before:.0f} -> {_peak_mib():.0f} MiB")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())

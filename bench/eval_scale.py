"""Benchmark: `assay eval` at real scale, 13 systems, every output, against the released rules.

Data: bench/scale_data.py (XL-DocBench-shaped gold, 13 systems with concise, medium and
verbose answers). Targets (issue 10), each printed as
``TARGET <name> | <measured> | <target> | MET`` (or ``NOT MET``):

- 13 x 1,345: ``assay eval`` in one process with the default statistics and every output
  (report JSON, per-question CSV, results/, assay-result.json, HTML, Markdown) <= 1.5 s wall,
  and >= 20x the released evaluator run once per system (../shared/peers/
  xldocbench_evaluate.py itself, one subprocess per system writing its report.json and
  CSV, as its users run it; without ../shared/ this target is skipped, with the reason);
- 13 x 1,345 scoring alone (``evaluate()`` in process) <= 0.5 s;
- 13 x 5,000 the same as the first: <= 4 s;
- peak RSS of ``assay eval`` (one system, 1,345 gold) flat within 10 % from a prediction file
  of 1,345 rows to one of 500,000 rows (the extra rows are ids not in gold);
- ``assay score f1 --file`` on 1,000,000 pairs: peak RSS < 100 MiB.

Wall times are the best of a few runs of a fresh process (start-up included).

Run: ``python bench/eval_scale.py`` (``--profile`` prints cProfile top lists of the
13 x 1,345 run in one process, by cumulative and by own time; ``--profile-scoring`` the
same for the scoring alone, ``evaluate()``; ``--quick`` skips the
500,000-row and 1 M-pair files).
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import json
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import scale_data  # noqa: E402  (bench/ sibling module)

RSS = (
    "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
    "stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)
sys.path.insert(0, str(ROOT / "tests"))
from xl_released import RELEASED, SKIP_REASON  # noqa: E402  (imports nothing of assay)


def target(name: str, measured: str, goal: str, met: bool) -> bool:
    """Print one target line in the shared format and return whether it is met."""
    print(f"TARGET {name} | {measured} | {goal} | {'MET' if met else 'NOT MET'}", flush=True)
    return met


def eval_args(data: Path, out: Path) -> list[str]:
    """``assay eval`` with default statistics and every output."""
    return [
        "eval",
        "--gold-files",
        str(data / "qa_single_doc.jsonl"),
        "--predictions",
        str(data / "systems"),
        "--output",
        str(out / "report.json"),
        "--per-question-csv",
        str(out / "pq.csv"),
        "--results-dir",
        str(out),
        "--result-json",
        str(out / "assay-result.json"),
        "--html",
        str(out / "report.html"),
        "--markdown",
        str(out / "report.md"),
    ]


def best_wall(command: list[str], runs: int) -> float:
    """Best wall time of ``runs`` fresh processes (output discarded)."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - start)
    return best


def assay_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "assay", *args]


def reference_wall(data: Path, out: Path, script: Path) -> float:
    """The released evaluator once per system, one subprocess each, sequentially."""
    gold = str(data / "qa_single_doc.jsonl")
    start = time.perf_counter()
    for path in sorted((data / "systems").glob("*.jsonl")):
        report, csv = out / f"{path.stem}.json", out / f"{path.stem}.csv"
        subprocess.run(
            [sys.executable, str(script), "--gold-files", gold, "--predictions", str(path),
             "--output", str(report), "--per-question-csv", str(csv)],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
    return time.perf_counter() - start


def scoring_wall(data: Path, runs: int) -> float:
    """Best in-process time of ``evaluate()`` for every system (gold read included)."""
    from assay.evaluation.runs import SystemInput, evaluate

    files = sorted((data / "systems").glob("*.jsonl"))
    systems = [SystemInput(f.stem, (str(f),)) for f in files]
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        evaluate([data / "qa_single_doc.jsonl"], systems)
        best = min(best, time.perf_counter() - start)
    return best


def peak_rss_mib(command: list[str]) -> float:
    """Peak resident set size of one child process, in MiB."""
    done = subprocess.run(
        [sys.executable, "-c", RSS, *command], check=True, capture_output=True, text=True
    )
    return int(done.stdout.strip()) / 1024


def padded_predictions(data: Path, path: Path, rows: int) -> None:
    """System 00's predictions plus ids not in gold, ``rows`` rows in all."""
    real = (data / "systems" / "system00.jsonl").read_text("utf-8")
    count = real.count("\n")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(real)
        for k in range(rows - count):
            handle.write(json.dumps({"question_id": f"extra{k:07d}", "prediction": "x y z"}))
            handle.write("\n")


def memory_targets(data: Path, tmp: Path) -> bool:
    """Peak RSS of eval at 1,345 vs 500,000 prediction rows, and score --file on 1 M pairs."""
    small, big = tmp / "small" / "system00.jsonl", tmp / "big" / "system00.jsonl"
    for path, rows in ((small, 0), (big, 500_000)):
        path.parent.mkdir()
        padded_predictions(data, path, rows)
    gold = str(data / "qa_single_doc.jsonl")
    rss = {}
    for name, path in (("small", small), ("big", big)):
        rss[name] = peak_rss_mib(
            assay_command(
                "eval",
                "--gold-files",
                gold,
                "--predictions",
                str(path),
                "--output",
                str(tmp / f"{name}.json"),
            )
        )
    growth = rss["big"] / rss["small"] - 1
    ok = target(
        "eval peak RSS, 1,345 -> 500,000 prediction rows",
        f"{rss['small']:.1f} -> {rss['big']:.1f} MiB ({growth:+.1%})",
        "within 10 %",
        growth <= 0.10,
    )
    pairs = tmp / "pairs.jsonl"
    with open(pairs, "w", encoding="utf-8") as handle:
        for k in range(1_000_000):
            row = {"id": f"p{k}", "prediction": f"the cat sat {k % 97}", "targets": ["the cat sat"]}
            handle.write(json.dumps(row) + "\n")
    score_rss = peak_rss_mib(assay_command("score", "f1", "--file", str(pairs)))
    return (
        target(
            "score f1 --file, 1,000,000 pairs: peak RSS",
            f"{score_rss:.1f} MiB",
            "< 100 MiB",
            score_rss < 100,
        )
        and ok
    )


def profile_run(data: Path, out: Path, scoring: bool = False) -> None:
    """Print cProfile top lists of the 13-system run (or its scoring alone) in this process."""
    from assay.cli.main import main
    from assay.evaluation.runs import SystemInput, evaluate

    files = sorted((data / "systems").glob("*.jsonl"))
    systems = [SystemInput(f.stem, (str(f),)) for f in files]
    profiler = cProfile.Profile()
    profiler.enable()
    if scoring:
        evaluate([data / "qa_single_doc.jsonl"], systems)
    else:
        with contextlib.redirect_stdout(io.StringIO()):  # the eval's own tables are not wanted
            try:
                main(eval_args(data, out))
            except SystemExit:
                pass
    profiler.disable()
    what = "scoring alone (evaluate)" if scoring else "eval, every output"
    for order, count in (("cumulative", 40), ("tottime", 25)):
        text = io.StringIO()
        stats = pstats.Stats(profiler, stream=text)
        stats.strip_dirs().sort_stats(order).print_stats(count)
        print(f"--- 13 x 1,345 {what}: top {count} by {order} ---")
        print(text.getvalue())


def byte_compile_assay() -> None:
    """Byte-compile assay's modules once, as ``pip install`` does for an installed package.

    An editable install under ``PYTHONDONTWRITEBYTECODE=1`` (set on this machine) would
    otherwise recompile every imported assay module in each timed process (~0.2 s CPU).
    """
    import compileall

    import assay

    compileall.compile_dir(str(Path(assay.__file__).parent), quiet=1)
    print("note: assay's modules byte-compiled first (as an installed package is)", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", action="store_true", help="print a cProfile top list")
    parser.add_argument(
        "--profile-scoring", action="store_true", help="the same for evaluate() alone"
    )
    parser.add_argument("--quick", action="store_true", help="skip the memory targets")
    parser.add_argument("--runs", type=int, default=3, help="runs per wall time (best kept)")
    args = parser.parse_args()
    ok = True
    byte_compile_assay()
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        data, out = tmp / "d1345", tmp / "o1345"
        scale_data.write(data, 1345)
        out.mkdir()
        if args.profile or args.profile_scoring:
            profile_run(data, out, scoring=args.profile_scoring)
            return 0
        wall = best_wall(assay_command(*eval_args(data, out)), args.runs)
        ok &= target(
            "13 x 1,345 eval, default statistics, every output",
            f"{wall:.2f} s",
            "<= 1.5 s",
            wall <= 1.5,
        )
        (tmp / "ref").mkdir()
        if RELEASED is None:
            print(f"SKIPPED 13 x 1,345 eval vs the released evaluator: {SKIP_REASON}")
        else:
            reference = reference_wall(data, tmp / "ref", RELEASED)
            ratio = reference / wall
            ok &= target(
                "13 x 1,345 eval vs the released evaluator once per system",
                f"{ratio:.1f}x ({reference:.1f} s / {wall:.2f} s)",
                ">= 20x",
                ratio >= 20,
            )
        scoring = scoring_wall(data, args.runs)
        ok &= target(
            "13 x 1,345 scoring alone (evaluate)", f"{scoring:.2f} s", "<= 0.5 s", scoring <= 0.5
        )
        big, big_out = tmp / "d5000", tmp / "o5000"
        scale_data.write(big, 5000)
        big_out.mkdir()
        wall = best_wall(assay_command(*eval_args(big, big_out)), max(1, args.runs - 1))
        ok &= target(
            "13 x 5,000 eval, default statistics, every output",
            f"{wall:.2f} s",
            "<= 4 s",
            wall <= 4.0,
        )
        if not args.quick:
            ok &= memory_targets(data, tmp)
    print("all eval-scale targets met" if ok else "some eval-scale targets not met")
    return 0


if __name__ == "__main__":
    sys.exit(main())

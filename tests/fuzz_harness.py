"""Seeded mutation fuzzing of every assay command (issue 15).

The bundled data (the XL-DocBench-style sample, the QA pairs, the structured
example) plus a saved report, a saved result document and a release folder are the
seeds. Each run takes one seed file of one command, applies one mutation class and
runs the command in a worker process, then checks:

- **traceback**: the command raised something other than a clean exit (the worker
  catches any exception escaping ``assay.cli.main.main``), or exited non-zero
  without exactly one ``error:`` line on stderr;
- **hang**: the command did not finish within the time limit (the worker is killed);
- **silent loss**: the command exited 0 but its output does not account for every
  input row, counted here from the mutated input itself (gold questions, pairs,
  structured items, saved per-question rows);
- **nondeterminism**: the same command run again in a second worker with another
  ``PYTHONHASHSEED`` gives different stdout or output bytes.

Workers import assay once and run many commands (``python -m assay`` costs about a
second to start on a loaded machine); a hang or a crash kills only that worker.
``FUZZ_RUNS`` and ``FUZZ_SEED`` choose the size and seed (see ``bench/fuzz.py``).
"""

from __future__ import annotations

import json
import os
import random
import select
import shutil
import subprocess
import sys
import textwrap
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import fuzz_targets
from fuzz_mutations import LINK_KINDS, MUTATIONS, applies

SRC = Path(__file__).resolve().parents[1] / "src"
TIMEOUT = 30.0  # seconds per command; a healthy one takes well under one

WORKER = textwrap.dedent(
    """
    import contextlib, io, json, sys, traceback
    sys.setrecursionlimit(1000)
    from assay.cli.main import main
    real = sys.stdout
    for line in sys.stdin:
        args = json.loads(line)
        out, err = io.StringIO(), io.StringIO()
        code, crash = 0, None
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(args)
            except SystemExit as done:
                code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
            except BaseException:
                crash = traceback.format_exc()
        real.write(json.dumps({"code": code, "out": out.getvalue(), "err": err.getvalue(),
                               "crash": crash}) + "\\n")
        real.flush()
    """
)


class Worker:
    """One long-lived ``python`` running assay commands sent as JSON lines."""

    def __init__(self, hash_seed: str) -> None:
        """Start the worker with ``PYTHONHASHSEED=hash_seed``."""
        self.hash_seed = hash_seed
        self.process: subprocess.Popen[str] | None = None

    def _start(self) -> subprocess.Popen[str]:
        env = {**os.environ, "PYTHONPATH": str(SRC), "PYTHONHASHSEED": self.hash_seed,
               "COLUMNS": "200", "NO_COLOR": "1"}  # fmt: skip
        return subprocess.Popen(
            [sys.executable, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, env=env,
        )  # fmt: skip

    def run(self, args: list[str], timeout: float = TIMEOUT) -> dict[str, Any] | None:
        """The command's ``{code, out, err, crash}``, or ``None`` when it hung (worker killed)."""
        if self.process is None or self.process.poll() is not None:
            self.process = self._start()
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(args) + "\n")
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        line = self.process.stdout.readline() if ready else ""
        if not line:
            crashed = ready  # EOF: the worker died (a segfault, an os._exit)
            self.close()
            return {"code": -1, "out": "", "err": "", "crash": "worker died"} if crashed else None
        result: dict[str, Any] = json.loads(line)
        return result

    def close(self) -> None:
        """Stop the worker (killed: it may be stuck)."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


# -- commands --------------------------------------------------------------------------------


@dataclass
class Seeds:
    """The seed files, written once under ``root``."""

    root: Path
    files: dict[str, Path] = field(default_factory=dict)


def make_seeds(root: Path) -> Seeds:
    """Copy the bundled data and build a saved report, result and release folder."""
    from assay.cli.main import main

    data = Path(str(resources.files("assay") / "data"))
    seeds = Seeds(root)
    shutil.copytree(data / "xlsample", root / "xl")
    shutil.copytree(data / "structured", root / "structured")
    shutil.copy(data / "qa_pairs.jsonl", root / "pairs.jsonl")
    xl = root / "xl"
    seeds.files.update(
        gold_single=xl / "qa_single_doc.jsonl",
        gold_cross=xl / "qa_cross_doc.jsonl",
        pred_a=xl / "predictions" / "atlas-7b.jsonl",
        pred_b=xl / "predictions" / "cirrus-mini.jsonl",
        pairs=root / "pairs.jsonl",
        items=root / "structured" / "responses.jsonl",
        schema=root / "structured" / "product.schema.json",
        references=root / "structured" / "references.jsonl",
        report=root / "saved" / "report.json",
        report_b=root / "saved" / "cirrus.json",
        result=root / "saved" / "result.json",
    )
    gold = ["--gold-files", str(seeds.files["gold_single"]), str(seeds.files["gold_cross"])]
    quiet = open(os.devnull, "w")  # noqa: SIM115 - closed below
    import contextlib

    def run(args: list[str]) -> None:
        try:
            main(args)
        except SystemExit as done:
            assert not done.code, args

    with contextlib.redirect_stdout(quiet), contextlib.redirect_stderr(quiet):
        for args in (
            ["eval", *gold, "--predictions", str(seeds.files["pred_a"]),
             "--output", str(seeds.files["report"])],
            ["eval", *gold, "--predictions", str(seeds.files["pred_b"]),
             "--output", str(seeds.files["report_b"])],
            ["compare", *gold, "--predictions", str(seeds.files["pred_a"]), "--predictions",
             str(seeds.files["pred_b"]), "--result-json", str(seeds.files["result"])],
            ["demo", "--out", str(root / "release")],
        ):  # fmt: skip
            run(args)
        fuzz_targets.add_seeds(root, seeds.files, run)
    quiet.close()
    release = root / "release"
    seeds.files["scores"] = next(release.rglob("scores.jsonl"))
    seeds.files["summary"] = next(release.rglob("summary.json"))
    seeds.files["release"] = seeds.files["scores"].parent.parent
    return seeds


# command name → (seed keys it may mutate, argument builder given {key: path} and out dir)
Builder = Callable[[dict[str, Path], Path], list[str]]


def _gold(f: dict[str, Path]) -> list[str]:
    return ["--gold-files", str(f["gold_single"]), str(f["gold_cross"])]


COMMANDS: dict[str, tuple[tuple[str, ...], Builder]] = {
    "eval": (
        ("gold_single", "gold_cross", "pred_a"),
        lambda f, o: ["eval", *_gold(f), "--predictions", str(f["pred_a"]),
                      "--output", str(o / "r.json"), "--per-question-csv", str(o / "q.csv"),
                      "--markdown", str(o / "r.md"), "--results-dir", str(o)],
    ),
    "eval_xldocbench": (
        ("gold_single", "gold_cross", "pred_a"),
        lambda f, o: ["eval", "--profile", "xldocbench", *_gold(f), "--predictions",
                      str(f["pred_a"]), "--output", str(o / "r.json"),
                      "--per-question-csv", str(o / "q.csv")],
    ),
    "compare": (
        ("gold_single", "pred_a", "pred_b"),
        lambda f, o: ["compare", *_gold(f), "--predictions", str(f["pred_a"]),
                      "--predictions", str(f["pred_b"]), "--trials", "200",
                      "--result-json", str(o / "res.json"), "--html", str(o / "r.html")],
    ),
    "compare_reports": (
        ("report", "report_b"),
        lambda f, o: ["compare", str(f["report"]), str(f["report_b"]), "--trials", "200",
                      "--result-json", str(o / "res.json")],
    ),
    "report_result": (
        ("result",),
        lambda f, o: ["report", str(f["result"]), "--format", "md", "--output", str(o / "r.md")],
    ),
    "report_result_csv": (
        ("result",),
        lambda f, o: ["report", str(f["result"]), "--format", "csv", "--output",
                      str(o / "r.csv")],
    ),
    "report_report": (
        ("report",),
        lambda f, o: ["report", str(f["report"]), "--format", "html", "--output",
                      str(o / "r.html")],
    ),
    "diff": (
        ("report", "report_b"),
        lambda f, o: ["diff", str(f["report"]), str(f["report_b"])],
    ),
    "score_file": (
        ("pairs",),
        lambda f, o: ["score", "token_f1", "--file", str(f["pairs"])],
    ),
    "structured": (
        ("items", "references", "schema"),
        lambda f, o: ["structured", "--items", str(f["items"]), "--schema", str(f["schema"]),
                      "--references", str(f["references"]), "--output", str(o / "s.json"),
                      "--per-item", str(o / "s.csv")],
    ),
    "check": (
        ("scores", "summary"),
        lambda f, o: ["check", str(f["release"])],
    ),
    **fuzz_targets.COMMANDS,
}  # fmt: skip


# -- one run ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One fuzz run: a command, the seed file it mutates and the mutation."""

    number: int
    command: str
    target: str
    mutation: str
    seed: int

    def prepare(self, seeds: Seeds, folder: Path) -> tuple[list[str], dict[str, Path], Path | None]:
        """Copy the seeds into ``folder`` and mutate one: the arguments, the files, and an
        input that must stay unchanged (an output was hard-linked to it), if any."""
        rng = random.Random(self.seed)
        if folder.exists():
            shutil.rmtree(folder)
        (folder / "out").mkdir(parents=True)
        files = {}
        for key, source in seeds.files.items():
            if key == "release":
                continue
            files[key] = source
        release = folder / "release"
        shutil.copytree(seeds.files["release"], release)
        files["release"] = release
        files["scores"] = release / seeds.files["scores"].relative_to(seeds.files["release"])
        files["summary"] = release / seeds.files["summary"].relative_to(seeds.files["release"])
        for key in COMMANDS[self.command][0]:  # every file the command reads, in the case
            if key not in ("scores", "summary"):
                group = folder / "in" / fuzz_targets.GROUPS.get(key, key)
                group.mkdir(parents=True, exist_ok=True)
                files[key] = Path(shutil.copy(files[key], group / files[key].name))
        target = files[self.target]
        guard = None
        if self.mutation == "link":
            guard = _link(rng, target, folder, self.command)
        else:
            target.write_bytes(MUTATIONS[self.mutation](target.read_bytes(), rng))
        if self.mutation == "hostile_judge" and "ledger" in files:
            files["ledger"].write_bytes(b"")  # no vote recorded: every request is sent
        args = COMMANDS[self.command][1](files, folder / "out")
        if self.mutation == "output_onto_read":
            args = _onto_read(rng, args, folder)
        return args, files, guard

    def hostile(self) -> str | None:
        """The judge server's hostile reply for this case (``None``: the scripted judge)."""
        if self.mutation != "hostile_judge":
            return None
        return random.Random(self.seed).choice(fuzz_targets.HOSTILE)


def _inputs(folder: Path, args: list[str]) -> dict[Path, bytes]:
    """The files the case's command reads and their bytes (the release folder: ``check``)."""
    found = fuzz_targets.snapshot(folder / "in")
    if args[0] == "check":
        found.update(fuzz_targets.snapshot(folder / "release"))
    return found


def _onto_read(rng: random.Random, args: list[str], folder: Path) -> list[str]:
    """The arguments with one output path replaced by a file the command reads."""
    out = str(folder / "out")
    outputs = [i for i, a in enumerate(args) if a.startswith(out) and Path(a).suffix]
    read = sorted(_inputs(folder, args))
    if not outputs or not read:
        return args
    changed = list(args)
    changed[rng.choice(outputs)] = str(rng.choice(read))
    return changed


def _link(rng: random.Random, target: Path, folder: Path, command: str) -> Path | None:
    """Replace ``target`` by a link of one kind; the input to keep unchanged, if any."""
    kind = rng.choice(LINK_KINDS)
    data = target.read_bytes()
    target.unlink()
    if kind == "symlink_loop":
        target.symlink_to(target.name)
    elif kind == "dangling":
        target.symlink_to(folder / "nowhere.jsonl")
    elif kind == "directory":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
        _FIFOS.append((target, data))
    else:  # an output of the command is a hard link to this input: it must be refused
        target.write_bytes(data)
        probe = COMMANDS[command][1]({k: target for k in _SEED_OF}, folder / "out")
        outputs = [a for a in probe if a.startswith(str(folder / "out"))]
        if outputs and Path(outputs[0]).suffix:
            os.link(target, outputs[0])
            return target
    return None


# FIFOs waiting for their writer (started just before the command runs).
_FIFOS: list[tuple[Path, bytes]] = []


def _feed(path: Path, data: bytes) -> None:
    """Write ``data`` into a FIFO once a reader opens it (a shell's ``<(cat file)``)."""
    try:
        with open(path, "wb") as handle:
            handle.write(data)
    except OSError:
        pass


def _release(path: Path) -> None:
    """Unblock a writer whose FIFO nobody opened (the command failed before reading)."""
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return
    try:
        while os.read(handle, 65536):
            pass
    except OSError:
        pass
    os.close(handle)


_SEED_OF: dict[str, Path] = {}


def cases(runs: int, seed: int, only: frozenset[str] | None = None) -> list[Case]:
    """``runs`` cases, every (command, mutation) class visited in turn, seeded.

    ``only``: just these commands (``FUZZ_COMMANDS`` of bench/fuzz.py).
    """
    rng = random.Random(seed)
    pairs = [(c, m) for c in COMMANDS for m in MUTATIONS
             if applies(c, m) and (only is None or c in only)]  # fmt: skip
    rng.shuffle(pairs)
    out = []
    for number in range(runs):
        command, mutation = pairs[number % len(pairs)]
        target = rng.choice(COMMANDS[command][0])
        out.append(Case(number, command, target, mutation, rng.randrange(2**32)))
    return out


# -- checks ----------------------------------------------------------------------------------


def _nonblank_lines(path: Path, universal: bool = False) -> int | None:
    """Rows in a JSONL file as counted here (``None`` when it is not a plain file)."""
    if not path.is_file():
        return None
    data = path.read_bytes().removeprefix(b"\xef\xbb\xbf")
    if universal:
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return sum(1 for line in data.split(b"\n") if line.strip(b" \t\r\n"))


def silent_loss(case: Case, files: dict[str, Path], out: Path, stdout: str) -> str | None:
    """What an exit-0 run lost, counted from its mutated input; ``None`` when nothing."""
    universal = case.command == "eval_xldocbench"
    if case.command in ("eval", "eval_xldocbench"):
        counts = [_nonblank_lines(files[k], universal) for k in ("gold_single", "gold_cross")]
        report = fuzz_targets.read_json(out / "r.json")
        if None in counts:
            return None  # a gold file given as a FIFO: not readable here again
        if report is None:
            return "no readable report.json after exit 0"
        gold = sum(c for c in counts if c is not None)
        rows = len(report.get("per_question", []))
        if report.get("gold_count") != gold or rows != gold:
            return (
                f"gold has {gold} rows; report gold_count {report.get('gold_count')}, {rows} rows"
            )
    elif case.command == "score_file":
        count = _nonblank_lines(files["pairs"])
        if count is not None and f"n={count})" not in stdout:
            return f"pairs file has {count} rows; stdout {stdout.strip()[:80]!r}"
    elif case.command == "structured":
        count = _nonblank_lines(files["items"])
        report = fuzz_targets.read_json(out / "s.json")
        if count is not None and (report is None or len(report.get("items", [])) != count):
            return f"items file has {count} rows; report holds a different number"
    elif case.command == "report_result_csv":
        document = fuzz_targets.read_json(files["result"])
        csv_text = (out / "r.csv").read_text(encoding="utf-8") if (out / "r.csv").exists() else ""
        if isinstance(document, dict) and isinstance(document.get("items"), list):
            expected = sum(len(i.get("results", {})) for i in document["items"])
            import csv
            import io

            rows = len(list(csv.reader(io.StringIO(csv_text, newline="")))) - 1
            if rows != expected:
                return f"result holds {expected} item results; CSV has {rows} rows"
    elif case.command in fuzz_targets.COMMANDS:
        return fuzz_targets.silent_loss(case.command, files, out, stdout)
    elif case.command == "compare_reports":
        result = fuzz_targets.read_json(out / "res.json")
        saved = [fuzz_targets.read_json(files[k]) for k in ("report", "report_b")]
        if any(not isinstance(s, dict) for s in saved):
            return None  # an input given as a FIFO: not readable here again
        if result is None:
            return "no readable result after exit 0"
        counts = [len(s.get("per_question", [])) for s in saved]  # type: ignore[union-attr]
        got = [s.get("evaluated_count") for s in result.get("systems", [])]
        if got != counts:
            return f"saved reports hold {counts} rows; result evaluated {got}"
    return None


def _outputs(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.is_file()}


@dataclass
class Figures:
    """What a fuzz session found."""

    runs: int = 0
    classes: Counter[str] = field(default_factory=Counter)
    tracebacks: list[str] = field(default_factory=list)
    hangs: list[str] = field(default_factory=list)
    losses: list[str] = field(default_factory=list)
    nondeterministic: list[str] = field(default_factory=list)
    exits: Counter[int] = field(default_factory=Counter)

    def problems(self) -> list[str]:
        """Every finding, one line each."""
        return [*self.tracebacks, *self.hangs, *self.losses, *self.nondeterministic]

    def summary(self) -> str:
        """The figures: runs, classes, tracebacks, hangs, losses, nondeterminism."""
        return (
            f"runs {self.runs}; classes {len(self.classes)} "
            f"({', '.join(sorted(self.classes))}); tracebacks {len(self.tracebacks)}; "
            f"hangs {len(self.hangs)}; silent losses {len(self.losses)}; "
            f"nondeterministic {len(self.nondeterministic)}; "
            f"exit codes {dict(sorted(self.exits.items()))}"
        )


def _clean_failure(result: dict[str, Any]) -> bool:
    lines = [line for line in result["err"].splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith(("error:", "Error:"))]
    return len(errors) == 1 and "Traceback" not in result["err"]


def fuzz(
    seeds: Seeds,
    work: Path,
    runs: int,
    seed: int,
    determinism_every: int = 1,
    report: Callable[[str], None] | None = None,
    only: frozenset[str] | None = None,
) -> Figures:
    """Run ``runs`` cases; every ``determinism_every``-th exit-0 run is repeated in a
    second worker (another hash seed) and its bytes compared."""
    _SEED_OF.update(seeds.files)
    first, second = Worker("1"), Worker("2")
    figures = Figures()
    try:
        reported: set[str] = set()
        for case in cases(runs, seed, only):
            _one(case, seeds, work, first, second, figures, determinism_every)
            for line in figures.problems():
                if report is not None and line not in reported:
                    report(line)
                reported.add(line)
    finally:
        first.close()
        second.close()
    return figures


def _run(worker: Worker, args: list[str], hostile: str | None = None) -> dict[str, Any] | None:
    """Run one command, feeding the FIFOs the case made (each exactly once); the judge
    server gives ``hostile``'s reply to every request meanwhile."""
    import threading

    if hostile is not None:
        fuzz_targets.judge_server().mode = hostile
    fifos, _FIFOS[:] = list(_FIFOS), []
    writers = [threading.Thread(target=_feed, args=f, daemon=True) for f in fifos]
    for writer in writers:
        writer.start()
    try:
        return worker.run(args)
    finally:
        if hostile is not None:
            fuzz_targets.judge_server().mode = None
        for (path, _), writer in zip(fifos, writers, strict=True):
            writer.join(0.2)
            if writer.is_alive():
                _release(path)
                writer.join(5)


def _changed_inputs(before: dict[Path, bytes], files: dict[str, Path]) -> list[str]:
    """Inputs whose bytes the command changed (an appended file may only grow at its end)."""
    appended = {files[k] for k in fuzz_targets.APPENDED if k in files}
    changed = []
    for path, data in before.items():
        try:
            now = path.read_bytes()
        except OSError:
            now = None
        if now == data or (path in appended and now is not None and now.startswith(data)):
            continue
        changed.append(path.name)
    return changed


def _one(
    case: Case, seeds: Seeds, work: Path, first: Worker, second: Worker, figures: Figures,
    determinism_every: int,
) -> None:  # fmt: skip
    folder = work / "case"
    args, files, guard = case.prepare(seeds, folder)
    kept = guard.read_bytes() if guard is not None else None
    inputs = _inputs(folder, args)
    label = f"#{case.number} {case.command} {case.mutation} of {case.target} (seed {case.seed})"
    if case.hostile() is not None:
        label += f" reply {case.hostile()}"
    figures.runs += 1
    figures.classes[case.mutation] += 1
    result = _run(first, args, case.hostile())
    if result is None:
        figures.hangs.append(f"{label}: no answer in {TIMEOUT:.0f} s")
        return
    figures.exits[result["code"]] += 1
    if guard is not None and guard.read_bytes() != kept:
        figures.losses.append(f"{label}: an input hard-linked to an output was overwritten")
    changed = _changed_inputs(inputs, files)
    if changed:
        figures.losses.append(f"{label}: an input was overwritten ({', '.join(changed)})")
    if result["crash"] is not None:
        tail = result["crash"].strip().splitlines()[-1]
        figures.tracebacks.append(f"{label}: {tail}")
        return
    if result["code"] != 0:
        if case.command == "check" and "problem(s) in" in result["out"]:
            return  # `assay check` lists the problems it found on stdout and exits 1
        if not _clean_failure(result):
            figures.tracebacks.append(
                f"{label}: exit {result['code']}, stderr {result['err']!r:.300}"
            )
        return
    loss = None
    if case.mutation != "output_onto_read":  # an output went elsewhere: counted above
        loss = silent_loss(case, files, folder / "out", result["out"])
    if loss is not None:
        figures.losses.append(f"{label}: {loss}")
    if case.number % determinism_every:
        return
    before = _outputs(folder / "out")
    args, files, _ = case.prepare(seeds, folder)
    again = _run(second, args, case.hostile())
    if again is None or again["out"] != result["out"] or _outputs(folder / "out") != before:
        figures.nondeterministic.append(f"{label}: a second run gave other bytes")

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


# -- mutations -------------------------------------------------------------------------------


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def truncate(data: bytes, rng: random.Random) -> bytes:
    """Cut the file at a random byte (a crash while it was written)."""
    return data[: rng.randrange(len(data) + 1)] if data else data


def byte_flip(data: bytes, rng: random.Random) -> bytes:
    """Replace 1-4 random bytes by random bytes (invalid UTF-8 included)."""
    if not data:
        return data
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        out[rng.randrange(len(out))] = rng.randrange(256)
    return bytes(out)


def _json_units(data: bytes) -> tuple[list[Any], bool] | None:
    """The file as JSON values: one per JSONL line, or the one document."""
    try:
        return [json.loads(data)], False
    except ValueError:
        pass
    try:
        return [json.loads(line) for line in _lines(data) if line.strip()], True
    except ValueError:
        return None


def _dump(units: list[Any], jsonl: bool) -> bytes:
    if jsonl:
        return b"".join(json.dumps(u, ensure_ascii=False).encode() + b"\n" for u in units)
    return json.dumps(units[0], ensure_ascii=False, indent=1).encode()


def _slots(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside a JSON value (dict keys, list indexes)."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _slots(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:20]):
            found += _slots(item, (*path, index))
    return found


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    copy: Any = dict(value) if isinstance(value, dict) else list(value)
    copy[head] = _replace(value[head], rest, new)
    return copy


def _structural(
    data: bytes, rng: random.Random, make: Callable[[random.Random, Any], Any]
) -> bytes:
    parsed = _json_units(data)
    if parsed is None or not parsed[0]:
        return byte_flip(data, rng)
    units, jsonl = parsed
    which = rng.randrange(len(units))
    slots = _slots(units[which])
    slot = rng.choice(slots[1:] or slots)
    old: Any = units[which]
    for part in slot:
        old = old[part]
    units[which] = _replace(units[which], slot, make(rng, old))
    return _dump(units, jsonl)


_TYPES: list[Any] = [None, True, 0, -1, 1.5, "", "x", [], [1], {}, {"a": 1}, [[]], "0", -0.0]


def wrong_type(data: bytes, rng: random.Random) -> bytes:
    """One value anywhere in one row replaced by a value of another JSON type."""

    def make(rng: random.Random, old: Any) -> Any:
        choices = [t for t in _TYPES if type(t) is not type(old)]
        return rng.choice(choices)

    return _structural(data, rng, make)


def _huge(rng: random.Random) -> Any:
    return rng.choice([
        10**400, -(10**4000), 1e308, 2**63, -(2**64), 5e-324,
        "1/" + "9" * 309, "10^" + "9" * 4000, "2e" + "9" * 4000, "9" * 5000,
        "x" * 200_000, "١٢٣" * 1000,
    ])  # fmt: skip


def huge_value(data: bytes, rng: random.Random) -> bytes:
    """One value replaced by a huge number, a huge-number text or a very long string."""
    return _structural(data, rng, lambda rng, old: _huge(rng))


def _with_literal(data: bytes, rng: random.Random, literal: bytes) -> bytes:
    """One value of one row replaced by the raw JSON text ``literal``."""
    parsed = _json_units(data)
    if parsed is None or not parsed[0]:
        return data + literal
    units, jsonl = parsed
    which = rng.randrange(len(units))
    marker = "@@MARK@@"
    slots = _slots(units[which])
    units[which] = _replace(units[which], rng.choice(slots[1:] or slots), marker)
    return _dump(units, jsonl).replace(json.dumps(marker).encode(), literal, 1)


def huge_literal(data: bytes, rng: random.Random) -> bytes:
    """A number literal Python cannot hold written into the text (``1e999``, 5,000 digits)."""
    literal = rng.choice([b"1" + b"0" * 5000, b"1e999", b"-1e400", b"9" * 4301 + b".5"])
    return _with_literal(data, rng, literal)


def deep_nesting(data: bytes, rng: random.Random) -> bytes:
    """One value wrapped in thousands of arrays or objects (or deeply nested JSON text)."""
    depth = rng.choice([600, 1200, 5000, 100_000])
    kind = rng.choice(["array", "object", "text"])
    if kind == "text":  # deep JSON inside a string: a structured response, a prediction
        return _structural(data, rng, lambda rng, old: "[" * depth + "]" * depth)
    opener, closer = (b"[", b"]") if kind == "array" else (b'{"a":', b"}")
    return _with_literal(data, rng, opener * depth + b"1" + closer * depth)


def drop_or_repeat(data: bytes, rng: random.Random) -> bytes:
    """A line removed, repeated or moved (duplicate ids, missing rows)."""
    lines = _lines(data)
    if len(lines) < 2:
        return data + data
    index = rng.randrange(len(lines))
    action = rng.choice(["drop", "repeat", "swap"])
    if action == "drop":
        del lines[index]
    elif action == "repeat":
        lines.insert(rng.randrange(len(lines)), lines[index])
    else:
        other = rng.randrange(len(lines))
        lines[index], lines[other] = lines[other], lines[index]
    return b"\n".join(lines)


def line_ends(data: bytes, rng: random.Random) -> bytes:
    """CRLF, lone CR, a byte-order mark, NUL or blank lines (encoding and line-end oddities)."""
    choice = rng.choice(["crlf", "cr", "bom", "nul", "blank", "empty", "nbsp"])
    if choice == "crlf":
        return data.replace(b"\n", b"\r\n")
    if choice == "cr":
        return data.replace(b"\n", b"\r", rng.randint(1, 3))
    if choice == "bom":
        return b"\xef\xbb\xbf" + data
    if choice == "nul":
        at = rng.randrange(len(data) + 1)
        return data[:at] + b"\x00" + data[at:]
    if choice == "blank":
        return data.replace(b"\n", b"\n\n  \n", 2)
    if choice == "nbsp":
        return data.replace(b"\n", b"\xc2\xa0\n", 2)
    return b""


MUTATIONS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "truncate": truncate,
    "byte_flip": byte_flip,
    "wrong_type": wrong_type,
    "huge_value": huge_value,
    "huge_literal": huge_literal,
    "deep_nesting": deep_nesting,
    "drop_or_repeat": drop_or_repeat,
    "line_ends": line_ends,
    "link": lambda data, rng: data,  # applied to the path, see Case.prepare
}
LINK_KINDS = ("symlink_loop", "dangling", "directory", "fifo", "output_is_input")


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
            try:
                main(args)
            except SystemExit as done:
                assert not done.code, args
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
        target = folder / ("in_" + files[self.target].name)
        if self.target in ("scores", "summary"):
            target = files[self.target]
        else:
            shutil.copy(files[self.target], target)
            files[self.target] = target
        guard = None
        if self.mutation == "link":
            guard = _link(rng, target, folder, self.command)
        else:
            target.write_bytes(MUTATIONS[self.mutation](target.read_bytes(), rng))
        args = COMMANDS[self.command][1](files, folder / "out")
        return args, files, guard


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


def cases(runs: int, seed: int) -> list[Case]:
    """``runs`` cases, every (command, mutation) class visited in turn, seeded."""
    rng = random.Random(seed)
    pairs = [(c, m) for c in COMMANDS for m in MUTATIONS]
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


def _json(path: Path) -> Any:
    if not path.is_file():  # a FIFO is read by the command, once
        return None
    try:
        return json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None


def silent_loss(case: Case, files: dict[str, Path], out: Path, stdout: str) -> str | None:
    """What an exit-0 run lost, counted from its mutated input; ``None`` when nothing."""
    universal = case.command == "eval_xldocbench"
    if case.command in ("eval", "eval_xldocbench"):
        counts = [_nonblank_lines(files[k], universal) for k in ("gold_single", "gold_cross")]
        report = _json(out / "r.json")
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
        report = _json(out / "s.json")
        if count is not None and (report is None or len(report.get("items", [])) != count):
            return f"items file has {count} rows; report holds a different number"
    elif case.command == "report_result_csv":
        document = _json(files["result"])
        csv_text = (out / "r.csv").read_text(encoding="utf-8") if (out / "r.csv").exists() else ""
        if isinstance(document, dict) and isinstance(document.get("items"), list):
            expected = sum(len(i.get("results", {})) for i in document["items"])
            import csv
            import io

            rows = len(list(csv.reader(io.StringIO(csv_text, newline="")))) - 1
            if rows != expected:
                return f"result holds {expected} item results; CSV has {rows} rows"
    elif case.command == "compare_reports":
        result = _json(out / "res.json")
        saved = [_json(files[k]) for k in ("report", "report_b")]
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
) -> Figures:
    """Run ``runs`` cases; every ``determinism_every``-th exit-0 run is repeated in a
    second worker (another hash seed) and its bytes compared."""
    _SEED_OF.update(seeds.files)
    first, second = Worker("1"), Worker("2")
    figures = Figures()
    try:
        for case in cases(runs, seed):
            found = len(figures.problems())
            _one(case, seeds, work, first, second, figures, determinism_every)
            if report is not None:
                for line in figures.problems()[found:]:
                    report(line)
    finally:
        first.close()
        second.close()
    return figures


def _run(worker: Worker, args: list[str]) -> dict[str, Any] | None:
    """Run one command, feeding the FIFOs the case made (each exactly once)."""
    import threading

    fifos, _FIFOS[:] = list(_FIFOS), []
    writers = [threading.Thread(target=_feed, args=f, daemon=True) for f in fifos]
    for writer in writers:
        writer.start()
    try:
        return worker.run(args)
    finally:
        for (path, _), writer in zip(fifos, writers, strict=True):
            writer.join(0.2)
            if writer.is_alive():
                _release(path)
                writer.join(5)


def _one(
    case: Case, seeds: Seeds, work: Path, first: Worker, second: Worker, figures: Figures,
    determinism_every: int,
) -> None:  # fmt: skip
    folder = work / "case"
    args, files, guard = case.prepare(seeds, folder)
    kept = guard.read_bytes() if guard is not None else None
    label = f"#{case.number} {case.command} {case.mutation} of {case.target} (seed {case.seed})"
    figures.runs += 1
    figures.classes[case.mutation] += 1
    result = _run(first, args)
    if result is None:
        figures.hangs.append(f"{label}: no answer in {TIMEOUT:.0f} s")
        return
    figures.exits[result["code"]] += 1
    if guard is not None and guard.read_bytes() != kept:
        figures.losses.append(f"{label}: an input hard-linked to an output was overwritten")
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
    loss = silent_loss(case, files, folder / "out", result["out"])
    if loss is not None:
        figures.losses.append(f"{label}: {loss}")
    if case.number % determinism_every:
        return
    before = _outputs(folder / "out")
    args, files, _ = case.prepare(seeds, folder)
    again = _run(second, args)
    if again is None or again["out"] != result["out"] or _outputs(folder / "out") != before:
        figures.nondeterministic.append(f"{label}: a second run gave other bytes")

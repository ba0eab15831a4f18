"""``assay.code.evaluate``: run every sample in the sandbox, classify it, estimate pass@k.

Samples run on ``workers`` threads, each starting sandboxed processes; results are put
back in the samples' order, so ``workers`` changes neither the results nor their order.
"""

from __future__ import annotations

import queue
import subprocess
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assay._version import __version__
from assay.code.languages import LANGUAGES, Language, get_language, interpreter
from assay.code.limits import Limits
from assay.code.outcomes import SampleResult, accounting, sample_result
from assay.code.passk import ESTIMATOR, PassAtK, mean_pass_at_k, parse_ks, pass_at_k
from assay.code.problems import Problem, Sample, program_text, read_problems, read_samples
from assay.code.sandbox import Isolation, Program, probe, run_program
from assay.errors import InvalidInputError, InvalidOptionError
from assay.signature import build_signature

Source = str | Path | Iterable[dict[str, object]]
LAYOUT = "humaneval"


class ExecutionNotAllowedError(InvalidOptionError):
    """Code execution was asked for without the explicit opt-in."""


NOT_ALLOWED = (
    "running untrusted programs needs an explicit opt-in: pass allow_execution=True "
    "(CLI: --allow-code-execution)"
)


@dataclass(frozen=True, slots=True)
class CodeReport:
    """The result of :func:`evaluate` (``to_dict()`` is the JSON report)."""

    ks: tuple[int, ...]
    limits: Limits
    isolation: Isolation
    interpreters: dict[str, dict[str, str]]
    problems: tuple[Problem, ...]
    results: tuple[SampleResult, ...]
    pass_at_k: tuple[PassAtK, ...]
    warnings: tuple[str, ...] = ()

    @property
    def signature(self) -> str:
        """``pass@k|est:…|layout:humaneval|timeout:…|cpu:…|as:…|sandbox:…|v:…``."""
        limits = self.limits
        return build_signature("pass@k", [
            ("est", ESTIMATOR), ("layout", LAYOUT), ("timeout", float(limits.timeout_seconds)),
            ("cpu", limits.cpu_seconds), ("as", limits.address_space_bytes),
            ("sandbox", self.isolation.backend)], __version__)  # fmt: skip

    def counts(self) -> list[tuple[str, int, int]]:
        """``(task_id, n, c)`` per problem, in the problems' order."""
        n = {p.task_id: 0 for p in self.problems}
        c = dict(n)
        for result in self.results:
            n[result.task_id] += 1
            c[result.task_id] += result.outcome == "passed"
        return [(p.task_id, n[p.task_id], c[p.task_id]) for p in self.problems]

    def per_sample(self) -> list[dict[str, object]]:
        """Per-sample records in the samples' order."""
        return [r.to_dict(self.limits.output_bytes) for r in self.results]

    def to_dict(self) -> dict[str, object]:
        """The JSON report: accounting, pass@k, tasks, limits, isolation, signature."""
        return {
            "kind": "code_exec",
            "assay_version": __version__,
            "signature": self.signature,
            "k": list(self.ks),
            "accounting": accounting((r.outcome for r in self.results), len(self.results)),
            "pass_at_k": {f"pass@{p.k}": p.to_dict() for p in self.pass_at_k},
            "tasks": [self._task(task, n, c) for task, n, c in self.counts()],
            "limits": self.limits.to_dict(),
            "sandbox": self.isolation.to_dict(),
            "interpreters": self.interpreters,
            "processes_left_behind": sum(r.left_behind for r in self.results),
            "warnings": list(self.warnings),
        }

    def _task(self, task: str, n: int, c: int) -> dict[str, object]:
        mine = [r.outcome for r in self.results if r.task_id == task]
        return {
            "task_id": task, "n": n, "c": c,
            "pass_at_k": {f"pass@{k}": pass_at_k(n, c, k) if n >= k else None for k in self.ks},
            "outcomes": accounting(mine, len(mine)),
        }  # fmt: skip


def _interpreters(problems: Sequence[Problem], isolation: Isolation) -> dict[str, Language]:
    """The language rows the problems need, each with a usable interpreter."""
    other_user = not isolation.user_namespace
    needed = sorted({p.language for p in problems})
    rows = {name: get_language(name) for name in needed}
    for name, row in rows.items():
        if interpreter(row, for_other_user=other_user) is None:
            raise InvalidInputError(
                f"no interpreter for language {name!r} on this machine (looked for "
                f"{', '.join(i for i in row.interpreters if not i.startswith('@'))} in "
                "/usr/local/bin, /usr/bin, /bin, executable by an unprivileged user); "
                "install one or drop those problems"
            )
    return rows


def _version(path: Path) -> str:
    try:
        done = subprocess.run([str(path), "--version"], capture_output=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return (done.stdout or done.stderr).decode(errors="replace").strip() or "unknown"


DEFAULT_KS = (1, 10, 100)


def _sample_counts(tasks: Sequence[Problem], rows: Sequence[Sample]) -> list[tuple[str, int]]:
    n = {p.task_id: 0 for p in tasks}
    for row in rows:
        n[row.task_id] += 1
    return list(n.items())


def choose_ks(
    k: Sequence[int] | str | None, counts: Sequence[tuple[str, int]]
) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The budgets to estimate, and warnings about them, before anything runs.

    ``k=None`` is the default 1, 10, 100, each kept when some task has that many samples
    (pass@1 always; the rest said in a warning). A ``k`` given that no task reaches is
    refused (it could only print ``n/a``). A ``k`` that some tasks do not reach is a
    warning: its mean is over fewer tasks than the others, so pass@k may fall as k grows.

    Raises:
        InvalidOptionError: a bad ``k``, or one greater than every task's sample count.
    """
    most = max((n for _, n in counts), default=0)
    warnings: list[str] = []
    if k is None:
        ks = tuple(v for v in DEFAULT_KS if v <= most) or (1,)
        dropped = [f"pass@{v}" for v in DEFAULT_KS if v not in ks]
        if dropped:
            warnings.append(f"{' and '.join(dropped)} not estimated: no task has "
                            f"{DEFAULT_KS[len(ks)]} samples (the most is {most}); choose "
                            "budgets with --k")  # fmt: skip
    else:
        ks = parse_ks(k)
        beyond = [v for v in ks if v > most]
        if beyond:
            top = next(task for task, n in counts if n == most)
            raise InvalidOptionError(
                f"pass@{beyond[0]} cannot be estimated: no task has {beyond[0]} samples (the "
                f"most is {most}, task {top!r}); give budgets up to {most}, e.g. --k "
                f"{','.join(str(v) for v in ks if v <= most) or '1'}"
            )
    for value in ks:
        short = [task for task, n in counts if n < value]
        if short:
            shown = ", ".join(short[:3]) + (f" and {len(short) - 3} more" if len(short) > 3 else "")
            lack = "no samples" if value == 1 else f"fewer than {value} samples"
            warnings.append(
                f"pass@{value} is over {len(counts) - len(short)} of {len(counts)} tasks ({shown} "
                f"{'has' if len(short) == 1 else 'have'} {lack}): do not compare it with a "
                "pass@k over other tasks"
            )
    return ks, tuple(warnings)


@dataclass(frozen=True)
class CodeRun:
    """Everything checked and ready to run (:func:`prepare`); :meth:`run` executes it.

    Attributes:
        ks: the budgets to estimate.
        warnings: what :func:`choose_ks` said about them (before anything ran).
        samples: the samples, in the file's order.
    """

    ks: tuple[int, ...]
    warnings: tuple[str, ...]
    limits: Limits
    isolation: Isolation
    tasks: tuple[Problem, ...]
    samples: tuple[Sample, ...]
    languages: dict[str, Language]
    paths: dict[str, Path | None]
    workers: int
    by_id: dict[str, Problem]

    def program(self, sample: Sample) -> Program:
        """The program a sample becomes, and how to run it."""
        problem = self.by_id[sample.task_id]
        row = self.languages[problem.language]
        command = (str(self.paths[problem.language]), *row.arguments)
        return Program(program_text(problem, sample.completion), row.suffix, command, row.env)

    def run(self, progress: Callable[[str], None] | None = None) -> CodeReport:
        """Run every sample; ``progress`` is called with ``task_id#index`` as each ends."""
        results = _run_all(self.samples, self.program, self.by_id, self.languages, self.limits,
                           self.isolation, self.workers, progress)  # fmt: skip
        interpreters = {name: {"path": str(path), "version": _version(path)}
                        for name, path in self.paths.items() if path is not None}  # fmt: skip
        parts = (self.ks, self.limits, self.isolation, interpreters, self.tasks, tuple(results))
        counts = CodeReport(*parts, ()).counts()
        passes = tuple(mean_pass_at_k(counts, value) for value in self.ks)
        return CodeReport(*parts, passes, self.warnings)


def prepare(
    problems: Source,
    samples: Source,
    k: Sequence[int] | str | None = None,
    *,
    allow_execution: bool = False,
    workers: int = 1,
    limits: Limits | None = None,
) -> CodeRun:
    """Read and check everything a run needs, running nothing; :meth:`CodeRun.run` runs it.

    Args:
        problems: JSONL path or mappings ``{task_id, prompt?, test, entry_point?, language?}``.
        samples: JSONL path or mappings ``{task_id, completion}`` (many per task).
        k: the budgets (``"1,10,100"`` or integers); ``None``: 1, 10 and 100, each where
            some task has that many samples (:func:`choose_ks`).
        allow_execution: must be ``True``: this runs untrusted programs.
        workers: samples run at once (results and their order do not depend on it).
        limits: resource limits (default :class:`Limits`: 10 s, 2 GiB, ...).

    Raises:
        ExecutionNotAllowedError: ``allow_execution`` is not ``True``.
        InputFileError: a bad problems or samples row (file, line, field).
        InvalidInputError: a language with no interpreter on this machine.
        InvalidOptionError: a bad ``k`` or one that no task has enough samples for.
    """
    if allow_execution is not True:
        raise ExecutionNotAllowedError(NOT_ALLOWED)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InvalidOptionError(f"workers must be a positive integer, got {workers!r}")
    if k is not None:
        parse_ks(k)  # a malformed k is refused before the files are read
    limits = limits or Limits()
    tasks = read_problems(problems, LANGUAGES)
    rows = read_samples(samples, [p.task_id for p in tasks])
    ks, warnings = choose_ks(k, _sample_counts(tasks, rows))
    isolation = probe()
    languages = _interpreters(tasks, isolation)
    paths = {name: interpreter(row, for_other_user=not isolation.user_namespace)
             for name, row in languages.items()}  # fmt: skip
    return CodeRun(ks, warnings, limits, isolation, tuple(tasks), tuple(rows), languages, paths,
                   workers, {p.task_id: p for p in tasks})  # fmt: skip


def evaluate(
    problems: Source, samples: Source, k: Sequence[int] | str | None = None, **options: Any
) -> CodeReport:
    """Run every sample against its problem's tests in the sandbox; estimate pass@k.

    ``prepare(problems, samples, k, **options).run()``: the same arguments
    (``allow_execution=True`` is required) and the same errors as :func:`prepare`.
    """
    return prepare(problems, samples, k, **options).run()


def _run_all(
    samples: Sequence[Sample], program: Callable[[Sample], Program], by_id: dict[str, Problem],
    languages: dict[str, Language], limits: Limits, isolation: Isolation, workers: int,
    progress: Callable[[str], None] | None = None,
) -> list[SampleResult]:  # fmt: skip
    slots: queue.Queue[int] = queue.Queue()
    for slot in range(workers):
        slots.put(slot)
    def one(sample: Sample) -> SampleResult:
        slot = slots.get()
        try:
            run = run_program(program(sample), limits, isolation, slot)
        finally:
            slots.put(slot)
        language = languages[by_id[sample.task_id].language]
        result = sample_result(sample.task_id, sample.index, sample.completion, run,
                               language, limits)  # fmt: skip
        if progress is not None:
            progress(f"{sample.task_id}#{sample.index}")
        return result

    if workers == 1:
        return [one(s) for s in samples]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(one, samples))


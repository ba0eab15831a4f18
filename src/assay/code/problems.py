"""Problems and samples files, and the program a sample becomes (HumanEval's layout)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from assay.errors import InputFileError
from assay.io.jsonl import iter_jsonl, json_type

PROBLEM_FIELDS = ("task_id", "prompt", "test", "entry_point", "language")


@dataclass(frozen=True, slots=True)
class Problem:
    """One task: ``{task_id, prompt?, test, entry_point?, language?}``."""

    task_id: str
    test: str
    prompt: str = ""
    entry_point: str | None = None
    language: str = "python"


@dataclass(frozen=True, slots=True)
class Sample:
    """One candidate: ``{task_id, completion}``; ``index`` counts samples per task from 0."""

    task_id: str
    completion: str
    index: int
    line: int


def program_text(problem: Problem, completion: str) -> str:
    r"""The program run for a sample (HumanEval's layout).

    ``prompt + completion + "\n" + test + "\n" + f"check({entry_point})"`` when the
    problem names an entry point, else ``completion + "\n" + test``.
    """
    if problem.entry_point:
        return (
            problem.prompt + completion + "\n" + problem.test + "\n"
            + f"check({problem.entry_point})"
        )  # fmt: skip
    return completion + "\n" + problem.test


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _text(row: dict[str, object], name: str, path: Path, line: int, *, required: bool) -> str:
    value = row.get(name)
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        problem = "missing" if name not in row else f"must be a string, got {json_type(value)}"
        raise InputFileError(path, f"{problem}; give the {name} text", line=line, field=name)
    lone = _LONE_SURROGATE.search(value)
    if lone is not None:
        raise InputFileError(
            path, f"holds a lone surrogate ({lone.group()!r} at character {lone.start()}, "
            "a JSON escape that is no Unicode character), so no program file can hold it "
            "as UTF-8; fix the text that produced it", line=line, field=name,
        )  # fmt: skip
    return value


def _task_id(row: dict[str, object], path: Path, line: int) -> str:
    value = row.get("task_id")
    if isinstance(value, bool) or not isinstance(value, (str, int)) or str(value).strip() == "":
        raise InputFileError(
            path, f"must be a non-empty string or integer, got {value!r}; give the task's id",
            line=line, field="task_id",
        )  # fmt: skip
    return str(value)


Rows = Iterable[tuple[int, dict[str, object]]]


def rows_of(source: str | Path | Iterable[dict[str, object]]) -> tuple[Path, Rows]:
    """``(name, numbered rows)`` of a JSONL path or of in-memory mappings (line = position)."""
    if isinstance(source, (str, Path)):
        return Path(source), iter_jsonl(source)
    rows = list(source)
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, dict):
            raise InputFileError("<rows>", f"expected a mapping, got {json_type(row)}",
                                 line=number)  # fmt: skip
    return Path("<rows>"), enumerate(rows, start=1)


def read_problems(
    source: str | Path | Iterable[dict[str, object]], languages: Iterable[str]
) -> list[Problem]:
    """Read problems (a JSONL path or mappings) in order.

    Raises:
        InputFileError: naming file, line and field (missing test, duplicate task_id,
            unknown language, no rows).
    """
    path, rows = rows_of(source)
    known = sorted(languages)
    seen: dict[str, int] = {}
    problems: list[Problem] = []
    for line, row in rows:
        task = _task_id(row, path, line)
        if task in seen:
            raise InputFileError(path, f"duplicate task_id {task!r} (first on line "
                                 f"{seen[task]}); task ids must be unique", line=line,
                                 field="task_id")  # fmt: skip
        seen[task] = line
        language = _text(row, "language", path, line, required=False) or "python"
        if language not in known:
            raise InputFileError(path, f"unknown language {language!r}; this machine runs: "
                                 f"{', '.join(known)}", line=line, field="language")  # fmt: skip
        entry = _text(row, "entry_point", path, line, required=False) or None
        problems.append(Problem(task, _text(row, "test", path, line, required=True),
                                _text(row, "prompt", path, line, required=False), entry,
                                language))  # fmt: skip
    if not problems:
        raise InputFileError(path, "no problems (the file is empty); give one "
                             "{task_id, test, ...} object per line")  # fmt: skip
    return problems


def read_samples(
    source: str | Path | Iterable[dict[str, object]], task_ids: Iterable[str]
) -> list[Sample]:
    """Read samples (a JSONL path or mappings) in order; ``index`` counts per task.

    Raises:
        InputFileError: a sample for an unknown task, a missing completion, no rows.
    """
    path, rows = rows_of(source)
    known = set(task_ids)
    counts: dict[str, int] = {}
    samples: list[Sample] = []
    for line, row in rows:
        task = _task_id(row, path, line)
        if task not in known:
            raise InputFileError(path, f"task_id {task!r} is not in the problems file; "
                                 "fix the id or add the problem", line=line,
                                 field="task_id")  # fmt: skip
        completion = _text(row, "completion", path, line, required=True)
        index = counts.get(task, 0)
        counts[task] = index + 1
        samples.append(Sample(task, completion, index, line))
    if not samples:
        raise InputFileError(path, "no samples (the file is empty); give one "
                             "{task_id, completion} object per line")  # fmt: skip
    return samples

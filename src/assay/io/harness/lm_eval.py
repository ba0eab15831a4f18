"""lm-evaluation-harness ``--log_samples`` output: samples files and results files.

lm-eval's ``EvaluationTracker`` writes, per run, ``results_<date>.json`` (the
aggregated results: ``lm_eval_version``, ``model_name``, ``versions``, ``n-shot``,
``configs``) and one ``samples_<task>_<date>.jsonl`` per task beside it (in
``OUTPUT/<model>/``). Each samples line is one document under one filter
(``lm_eval/result_schema.py``, ``SampleResult``): ``doc_id``, ``target`` (written as
``str(target)``), ``resps``, ``filtered_resps`` and ``filter``.

Mapping: the gold is ``target`` (a target written from a list of strings, e.g.
``"['a', 'b']"``, is read back as those strings); the prediction is the filtered
response, ``filtered_resps[0]``. Every filter of a task is a separate log unless one
is chosen.

A multiple-choice sample holds one ``[log-likelihood, is_greedy]`` pair per choice in
``filtered_resps`` and the choices' continuations in ``arguments`` (``gen_args_i`` →
``arg_1``, or ``[context, continuation]`` pairs). Its prediction is the chosen option,
the continuation with the highest log-likelihood (the first on a tie, as lm-eval's
``acc`` takes ``argmax``); its gold is the option ``target`` names by index (or the
target text itself when it is not an index). Both are stripped of the target
delimiter's whitespace, so ``exact_match`` on them is lm-eval's per-sample ``acc``.
A single log-likelihood (a ``loglikelihood`` task) holds no choice and is refused.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from assay.errors import InputFileError
from assay.io.harness.common import field, mapping, parse_json, read_json_file
from assay.io.harness.records import LM_EVAL, HarnessLog, HarnessSample
from assay.io.sources import open_source

_DATE = r"\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?"
SAMPLES_NAME = re.compile(rf"^samples_(?P<task>.+)_(?P<date>{_DATE})\.jsonl$")
RESULTS_NAME = re.compile(rf"^(?P<stem>.+)_(?P<date>{_DATE})\.json$")
PREDICTION_FROM = "filtered_resps[0]"
CHOICE_FROM = "arguments[argmax(filtered_resps)]"  # the option with the highest log-likelihood
UNKNOWN_TASK = "unknown"  # samples on standard input: the task is in the file name only


def is_results(document: Any) -> bool:
    """True for an lm-eval results document."""
    return isinstance(document, dict) and (
        "lm_eval_version" in document or {"results", "configs", "versions"} <= document.keys()
    )


def is_sample(record: Any) -> bool:
    """True for one line of an lm-eval samples file."""
    return isinstance(record, dict) and {"doc_id", "filtered_resps"} <= record.keys()


def read_samples_file(path: str | Path, *, filter_name: str | None = None) -> list[HarnessLog]:
    """The logs of one samples file: one per filter (or the one chosen).

    The task comes from the file name (``samples_<task>_<date>.jsonl``) and the
    harness version, model and task version from the results file of the same run
    beside it, when it is there.

    Raises:
        InputFileError: a line that is not an lm-eval sample (naming line and field),
            no samples, or ``filter_name`` absent from the file.
    """
    path = Path(path)
    match = SAMPLES_NAME.match(path.name)
    task = match.group("task") if match else path.stem.removeprefix("samples_")
    results = _results_beside(path, match.group("date")) if match else None
    return _logs(str(path), task, results, filter_name, _samples_of_file(path))


def read_samples_stream(
    handle: Iterable[bytes], name: str, *, filter_name: str | None = None
) -> list[HarnessLog]:
    """The logs of samples lines read from a stream without a file name (standard input).

    The task and the run's results file come from the file's name and place, so
    here the task is :data:`UNKNOWN_TASK` and the run's facts are not recorded.

    Raises:
        InputFileError: as :func:`read_samples_file`.
    """
    return _logs(name, UNKNOWN_TASK, None, filter_name, _samples_by_filter(handle, name))


def read_results_file(
    path: str | Path, document: dict[str, Any], *, filter_name: str | None = None
) -> list[HarnessLog]:
    """The logs of every task of a results file, read from its samples files.

    Raises:
        InputFileError: the name has no date, or a task's samples file is missing
            (the run was made without ``--log_samples``).
    """
    path = Path(path)
    match = RESULTS_NAME.match(path.name)
    configs = document.get("configs")
    if match is None or not isinstance(configs, dict) or not configs:
        raise InputFileError(
            path,
            "an lm-eval results file named <name>_<date>.json with its task configs is "
            "expected; give the samples_<task>_<date>.jsonl file instead",
        )
    logs = []
    for task in sorted(configs):
        samples = path.parent / f"samples_{task}_{match.group('date')}.jsonl"
        if not samples.is_file():
            raise InputFileError(
                path,
                f"task {task!r} has no samples file {samples.name} beside it; re-run lm-eval "
                "with --log_samples, or give the samples file",
            )
        found = _samples_of_file(samples)
        logs += _logs(str(samples), task, (path, document), filter_name, found)
    return logs


def _results_beside(samples: Path, date: str) -> tuple[Path, dict[str, Any]] | None:
    for candidate in sorted(samples.parent.glob(f"*_{date}.json")):
        document = read_json_file(candidate)
        if is_results(document):
            return candidate, document
    return None


def _logs(
    path: str,
    task: str,
    results: tuple[Path, dict[str, Any]] | None,
    filter_name: str | None,
    found: tuple[dict[str, list[HarnessSample]], set[str]],
) -> list[HarnessLog]:
    by_filter, choices = found
    if filter_name is not None:
        if filter_name not in by_filter:
            raise InputFileError(
                path,
                f"no samples under filter {filter_name!r}; the file has "
                + ", ".join(repr(f) for f in by_filter),
                field="filter",
            )
        by_filter = {filter_name: by_filter[filter_name]}
    facts = _provenance(task, results)
    return [
        HarnessLog(
            path=path,
            harness=LM_EVAL,
            log_format="lm-eval samples jsonl",
            format_version=None,
            task=task,
            filter=name,
            prediction_from=CHOICE_FROM if name in choices else PREDICTION_FROM,
            samples=tuple(samples),
            **facts,
        )
        for name, samples in by_filter.items()
    ]


def _provenance(task: str, results: tuple[Path, dict[str, Any]] | None) -> dict[str, Any]:
    if results is None:
        return {"harness_version": None, "task_version": None, "model": None,
                "extra": {"results_file": None}}  # fmt: skip
    path, doc = results
    version = mapping(doc, "versions").get(task)
    config = mapping(doc, "config")
    return {
        "harness_version": _text(doc.get("lm_eval_version")),
        "task_version": None if version is None else str(version),
        "model": _text(doc.get("model_name")) or _text(config.get("model")),
        "extra": {
            "model_source": _text(doc.get("model_source") or config.get("model")),
            "n_shot": mapping(doc, "n-shot").get(task),
            "results_file": path.name,
        },
    }


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def _samples_of_file(path: Path) -> tuple[dict[str, list[HarnessSample]], set[str]]:
    with open_source(path) as handle:
        return _samples_by_filter(handle, str(path))


def _samples_by_filter(
    handle: Iterable[bytes], name: str
) -> tuple[dict[str, list[HarnessSample]], set[str]]:
    """The samples of each filter, and the filters whose samples are multiple-choice."""
    by_filter: dict[str, list[HarnessSample]] = {}
    choices: set[str] = set()
    seen: dict[tuple[str, int | str], int] = {}  # (filter, doc_id) -> its first line
    for line, record in _records(handle, name):
        if not is_sample(record):
            raise InputFileError(
                name,
                "not an lm-eval sample (no doc_id/filtered_resps); give a "
                "samples_<task>_<date>.jsonl file written with --log_samples",
                line=line,
            )
        filter_name = field(record, "filter", str, name, line=line)
        sample, chosen = _sample(record, name, line)
        first = seen.setdefault((filter_name, sample.id), line)
        if first != line:
            raise InputFileError(
                name,
                f"doc_id {sample.id} under filter {filter_name!r} is also on line {first}; "
                "a samples file holds each document once per filter, remove the repeat",
                line=line,
                field="doc_id",
            )
        by_filter.setdefault(filter_name, []).append(sample)
        if chosen:
            choices.add(filter_name)
    if not by_filter:
        raise InputFileError(name, "holds no samples; is the run complete?")
    return by_filter, choices


def _records(handle: Any, name: str) -> Any:
    for number, raw in enumerate(handle, start=1):
        if raw.strip():
            yield number, parse_json(raw, name, line=number)


def _sample(record: dict[str, Any], path: str, line: int) -> tuple[HarnessSample, bool]:
    """The sample of one line, and whether it is a multiple-choice one."""
    doc_id = field(record, "doc_id", int, path, line=line)
    target = field(record, "target", str, path, line=line)
    responses = field(record, "filtered_resps", list, path, line=line)
    if len(responses) > 1 and all(_is_loglikelihood(r) for r in responses):
        prediction, gold = _chosen(record, responses, target, path, line)
        return HarnessSample(doc_id, None, (gold,), prediction, f"line {line}"), True
    sample = HarnessSample(
        id=doc_id,
        epoch=None,
        targets=targets_of(target),
        prediction=_response(responses, path, line),
        where=f"line {line}",
    )
    return sample, False


def _choices(record: dict[str, Any], count: int, path: str, line: int) -> list[str]:
    """The continuations of a multiple-choice sample's requests, in request order."""
    arguments = record.get("arguments")
    if isinstance(arguments, dict):  # lm-eval >= 0.4.3: {"gen_args_0": {"arg_0", "arg_1"}}
        pairs = [arguments.get(f"gen_args_{i}") for i in range(len(arguments))]
        texts = [p.get("arg_1") if isinstance(p, dict) else None for p in pairs]
    elif isinstance(arguments, list):  # older: [[context, continuation], ...]
        texts = [a[1] if isinstance(a, list) and len(a) == 2 else None for a in arguments]
    else:
        texts = []
    if len(texts) != count or not all(isinstance(t, str) for t in texts):
        raise InputFileError(
            path,
            f"a multiple-choice sample needs one [context, continuation] request per "
            f"log-likelihood ({count}); re-run lm-eval with --log_samples",
            line=line,
            field="arguments",
        )
    return [str(t).strip() for t in texts]


def _chosen(
    record: dict[str, Any], responses: list[Any], target: str, path: str, line: int
) -> tuple[str, str]:
    """``(chosen option, gold option)`` of a multiple-choice sample."""
    choices = _choices(record, len(responses), path, line)
    try:
        scores = [float(r[0]) for r in responses]
    except (TypeError, ValueError):
        raise InputFileError(
            path, "a log-likelihood that is not a number", line=line, field="filtered_resps"
        ) from None
    best = max(range(len(scores)), key=lambda i: (scores[i], -i))  # the first on a tie
    index = int(target) if target.strip().isdigit() else None
    if index is not None and not index < len(choices):
        raise InputFileError(
            path, f"option {index} of {len(choices)} choices", line=line, field="target"
        )
    return choices[best], choices[index] if index is not None else target.strip()


def targets_of(target: str) -> tuple[str, ...]:
    """The target strings: a written list of strings (``"['a', 'b']"``) read back."""
    if target.startswith("[") and target.endswith("]"):
        try:
            value = ast.literal_eval(target)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return (target,)
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            return tuple(value)
    return (target,)


def _response(responses: list[Any], path: str, line: int) -> str:
    first = responses[0] if len(responses) == 1 else None
    if isinstance(first, list) and len(first) == 1 and isinstance(first[0], str):
        first = first[0]
    if isinstance(first, str):
        return first
    if responses and all(_is_loglikelihood(r) for r in responses):
        problem = (
            "holds one log-likelihood (a loglikelihood task, no choice to score); rescore "
            "scores generated text and multiple-choice options"
        )
    else:
        problem = (
            "expected one response per document (a generate_until task whose filter "
            "ends in take_first)"
        )
    raise InputFileError(path, problem, line=line, field="filtered_resps")


def _is_loglikelihood(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and isinstance(value[1], bool | str)

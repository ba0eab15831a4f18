"""inspect_ai eval logs: the ``.json`` document and the ``.eval`` zip archive.

Both hold an ``EvalLog`` (inspect_ai ``log/_log.py``): ``version`` (the log format
version, 1 or 2), ``status``, ``eval`` (``task``, ``task_version``, ``model``,
``packages.inspect_ai``, ``dataset.sample_ids``) and the samples: in a ``.json`` log
a ``samples`` list; in a ``.eval`` archive one ``samples/<id>_epoch_<n>.json`` member
each, with the rest in ``header.json`` (or ``_journal/start.json`` while the run is
still going). Each sample has ``id``, ``epoch``, ``target`` (a string or a list of
strings), ``output.completion``, ``scores`` (``NAME → {value, answer, ...}``) and,
when it failed, ``error``.

Mapping: the gold is ``target``; the prediction is ``output.completion`` by default,
or the answer a scorer extracted (``scores.NAME.answer``, with ``scorer`` or
``scorer:NAME``). A sample with an ``error`` has no prediction. Samples are ordered
by the dataset's ``sample_ids``, then epoch, so both formats of one run agree.
"""

from __future__ import annotations

from pathlib import Path
from typing import IO, Any

from assay.errors import InputFileError
from assay.io.harness.common import field, mapping, parse_json
from assay.io.harness.records import INSPECT_AI, HarnessLog, HarnessSample
from assay.io.harness.zipped import ZipMembers

FORMAT_VERSIONS = (1, 2)
COMPLETION = "completion"
ATTACHMENT = "attachment://"


def is_log(document: Any) -> bool:
    """True for an inspect_ai ``.json`` eval log document."""
    return isinstance(document, dict) and {"version", "eval"} <= document.keys()


def read_json_log(path: str | Path, document: dict[str, Any], prediction_from: str) -> HarnessLog:
    """The log of a ``.json`` eval log already parsed.

    Raises:
        InputFileError: an unknown format version, a missing field, or no samples.
    """
    name = str(path)
    samples = document.get("samples")
    if not isinstance(samples, list) or not samples:
        raise InputFileError(
            name, "holds no samples; write the log with samples (the default)", field="samples"
        )
    records = [(f"samples[{i}]", s) for i, s in enumerate(samples)]
    return _log(name, "inspect_ai json", document, records, prediction_from)


def read_eval_log(
    source: str | Path | IO[bytes], prediction_from: str, *, name: str | None = None
) -> HarnessLog:
    """The log of a ``.eval`` archive (zip; members deflate or Zstandard).

    Args:
        source: the archive's path, or a seekable stream of its bytes.
        prediction_from: see :func:`assay.io.harness.read_harness_logs`.
        name: the archive in messages and provenance (default: the path).

    Raises:
        InputFileError: not a readable archive, a corrupt member, a missing field,
            or no samples.
    """
    name = str(source) if name is None else name
    with ZipMembers(source, name) as archive:
        members = archive.names()
        head = "header.json" if "header.json" in members else "_journal/start.json"
        header = parse_json(archive.read(head), f"{name}!{head}")
        if not isinstance(header, dict):
            raise InputFileError(name, "expected a JSON object", field=head)
        records = [
            (member, parse_json(archive.read(member), f"{name}!{member}"))
            for member in members
            if member.startswith("samples/") and member.endswith(".json")
        ]
    if not records:
        raise InputFileError(name, "holds no samples/ members; is the run complete?")
    return _log(name, "inspect_ai eval", header, records, prediction_from)


def _log(
    path: str,
    log_format: str,
    header: dict[str, Any],
    records: list[tuple[str, Any]],
    prediction_from: str,
) -> HarnessLog:
    version = field(header, "version", int, path)
    if version not in FORMAT_VERSIONS:
        raise InputFileError(
            path,
            f"log format version {version} is not one this reader knows "
            f"({', '.join(map(str, FORMAT_VERSIONS))})",
            field="version",
        )
    spec = field(header, "eval", dict, path)
    samples = [_sample(where, record, path, prediction_from) for where, record in records]
    _refuse_repeats(samples, path)
    packages = mapping(spec, "packages")
    task_version = spec.get("task_version")
    return HarnessLog(
        path=path,
        harness=INSPECT_AI,
        harness_version=_text(packages.get("inspect_ai")),
        log_format=log_format,
        format_version=version,
        task=field(spec, "task", str, path),
        task_version=None if task_version is None else str(task_version),
        model=_text(spec.get("model")),
        filter=None,
        prediction_from=_prediction_label(prediction_from),
        samples=tuple(_ordered(samples, spec)),
        extra={"status": _text(header.get("status"))},
    )


def _refuse_repeats(samples: list[HarnessSample], path: str) -> None:
    """Refuse a sample epoch logged twice (each (id, epoch) is one scored unit)."""
    seen: dict[tuple[str, int | None], HarnessSample] = {}
    for sample in samples:
        first = seen.setdefault((repr(sample.id), sample.epoch), sample)
        if first is not sample:
            raise InputFileError(
                f"{path} ({sample.where})",
                f"sample {sample.id!r} epoch {sample.epoch} is also {first.where}; a log "
                "holds each sample epoch once, remove the repeat",
                field="id",
            )


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def _prediction_label(prediction_from: str) -> str:
    if prediction_from == COMPLETION:
        return "output.completion"
    scorer = prediction_from.partition(":")[2]
    return f"scores.{scorer or '<first>'}.answer"


def _ordered(samples: list[HarnessSample], spec: dict[str, Any]) -> list[HarnessSample]:
    ids = mapping(spec, "dataset").get("sample_ids")
    ids = ids if isinstance(ids, list) else []
    order = {repr(v): i for i, v in enumerate(ids)}
    position = {id(s): i for i, s in enumerate(samples)}
    return sorted(
        samples, key=lambda s: (order.get(repr(s.id), len(order)), s.epoch or 0, position[id(s)])
    )


def _sample(where: str, record: Any, path: str, prediction_from: str) -> HarnessSample:
    located = f"{path} ({where})"
    if not isinstance(record, dict):
        raise InputFileError(located, "expected a JSON object (an inspect_ai sample)")
    sample_id = field(record, "id", (str, int), located)
    epoch = field(record, "epoch", int, located)
    error = record.get("error")
    attachments = mapping(record, "attachments")
    targets = _targets(field(record, "target", (str, list), located), located, attachments)
    if error:
        message = error.get("message") if isinstance(error, dict) else str(error)
        return HarnessSample(sample_id, epoch, targets, None, where, str(message))
    prediction = _prediction(record, located, prediction_from, attachments)
    return HarnessSample(sample_id, epoch, targets, prediction, where)


def _targets(value: str | list[Any], path: str, attachments: dict[str, Any]) -> tuple[str, ...]:
    items = [value] if isinstance(value, str) else value
    if not items or not all(isinstance(t, str) for t in items):
        raise InputFileError(path, "expected a string or a non-empty list of strings",
                             field="target")  # fmt: skip
    return tuple(_resolve(t, attachments) for t in items)


def _prediction(
    record: dict[str, Any], path: str, prediction_from: str, attachments: dict[str, Any]
) -> str:
    if prediction_from == COMPLETION:
        output = field(record, "output", dict, path)
        return _resolve(field(output, "completion", str, path), attachments)
    scores = field(record, "scores", dict, path)
    wanted = prediction_from.partition(":")[2] or next(iter(scores), "")
    score = scores.get(wanted)
    if not isinstance(score, dict):
        known = ", ".join(repr(k) for k in scores) or "none"
        raise InputFileError(path, f"no scorer {wanted!r} (scorers: {known})", field="scores")
    answer = score.get("answer")
    if not isinstance(answer, str):
        raise InputFileError(
            path,
            f"scorer {wanted!r} recorded no answer; rescore its output.completion instead",
            field=f"scores.{wanted}.answer",
        )
    return _resolve(answer, attachments)


def _resolve(text: str, attachments: dict[str, Any]) -> str:
    """A condensed ``attachment://<hash>`` reference replaced by its content."""
    if text.startswith(ATTACHMENT):
        content = attachments.get(text[len(ATTACHMENT) :])
        if isinstance(content, str):
            return content
    return text

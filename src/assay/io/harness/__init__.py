"""Other harnesses' logs as samples to re-score: lm-evaluation-harness and inspect_ai.

:func:`read_harness_logs` takes files or folders and recognises each log by its
content: an inspect_ai ``.eval`` archive (zip), an inspect_ai ``.json`` log
(``version`` + ``eval``), an lm-eval results file (``lm_eval_version``; its tasks'
samples files are read) or an lm-eval samples file (lines with ``doc_id`` and
``filtered_resps``). A folder is searched (recursively, in sorted order) for
``samples_*.jsonl``, ``*.eval`` and inspect_ai ``*.json`` logs.

``-`` reads one log from standard input, held in memory (a ``.eval`` archive is a
zip, read by seeking) and recognised by its content the same way; so does a pipe
or FIFO given as a file (``<(cat log.json)``): read once, never peeked at and
opened again. An lm-eval samples file read there has no name to take the task
from (the task is ``unknown``) and no results file beside it; an lm-eval results
file there is refused, as its samples files are found beside it.
"""

from __future__ import annotations

import io
import stat
from collections.abc import Iterable
from pathlib import Path

from assay.errors import InputFileError, InvalidOptionError
from assay.io.harness import inspect_log, lm_eval
from assay.io.harness.common import parse_json
from assay.io.harness.records import INSPECT_AI, LM_EVAL, HarnessLog, HarnessSample
from assay.io.harness.zipped import is_zip
from assay.io.inputs_read import note_read
from assay.io.sources import STDIN, display_name, open_source

__all__ = ["INSPECT_AI", "LM_EVAL", "HarnessLog", "HarnessSample", "read_harness_logs"]

STDIN_NAME = display_name(STDIN)


def read_harness_logs(
    paths: Iterable[str | Path],
    *,
    filter_name: str | None = None,
    prediction_from: str = inspect_log.COMPLETION,
) -> list[HarnessLog]:
    """Every task log in the files and folders given, in the order given.

    Args:
        paths: log files or folders; ``-`` is standard input.
        filter_name: lm-eval only: the filter whose responses are scored (default:
            every filter, each a separate log).
        prediction_from: inspect_ai only: ``completion`` (``output.completion``),
            ``scorer`` (the first scorer's answer) or ``scorer:NAME``.

    Raises:
        InputFileError: a file that is not such a log, or a bad record in one
            (naming file, line or member, and field).
        InvalidOptionError: a bad ``prediction_from``.
    """
    check_prediction_from(prediction_from)
    given = [Path(path) for path in paths]
    if sum(str(path) == STDIN for path in given) > 1:
        raise InputFileError(STDIN_NAME, "- (standard input) is given twice; give it once")
    logs: list[HarnessLog] = []
    for path in given:
        if str(path) == STDIN:
            logs += _read_stdin(filter_name, prediction_from)
        elif path.is_dir():
            logs += _read_folder(path, filter_name, prediction_from)
        else:
            logs += _read_file(path, filter_name, prediction_from)
    return logs


def check_prediction_from(value: str) -> None:
    """Refuse a ``prediction_from`` other than ``completion``, ``scorer``, ``scorer:NAME``."""
    if value != inspect_log.COMPLETION and value.partition(":")[0] != "scorer":
        raise InvalidOptionError(
            f"prediction source {value!r}: use 'completion', 'scorer' or 'scorer:NAME'"
        )


def _read_folder(folder: Path, filter_name: str | None, prediction_from: str) -> list[HarnessLog]:
    logs: list[HarnessLog] = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        if lm_eval.SAMPLES_NAME.match(path.name):
            logs += lm_eval.read_samples_file(path, filter_name=filter_name)
        elif path.suffix == ".eval":
            logs.append(inspect_log.read_eval_log(path, prediction_from))
        elif path.suffix == ".json" and not lm_eval.RESULTS_NAME.match(path.name):
            document = parse_json(_read_bytes(path), str(path))
            if inspect_log.is_log(document):
                logs.append(inspect_log.read_json_log(path, document, prediction_from))
    if not logs:
        raise InputFileError(
            folder,
            "holds no lm-eval samples_*.jsonl file and no inspect_ai .eval/.json log",
        )
    return logs


NOT_A_LOG = (
    "not a harness log: expected an inspect_ai .eval or .json log, or an lm-eval "
    "results_*.json or samples_*.jsonl file"
)


def _read_file(path: Path, filter_name: str | None, prediction_from: str) -> list[HarnessLog]:
    if not _is_regular(path):  # a pipe or FIFO: its bytes can be read only once
        return _read_held(_read_bytes(path), display_name(path), filter_name, prediction_from)
    if is_zip(_head(path)):
        return [inspect_log.read_eval_log(path, prediction_from)]
    data = _read_bytes(path)
    if lm_eval.SAMPLES_NAME.match(path.name) or _first_line_is_sample(data, str(path)):
        return lm_eval.read_samples_file(path, filter_name=filter_name)
    document = parse_json(data, str(path))
    if inspect_log.is_log(document):
        return [inspect_log.read_json_log(path, document, prediction_from)]
    if lm_eval.is_results(document):
        return lm_eval.read_results_file(path, document, filter_name=filter_name)
    raise InputFileError(path, NOT_A_LOG)


def _read_stdin(filter_name: str | None, prediction_from: str) -> list[HarnessLog]:
    """The log on standard input (gzip/bz2/xz/zstd sniffed, as for a file)."""
    return _read_held(_read_bytes(Path(STDIN)), STDIN_NAME, filter_name, prediction_from)


def _read_held(
    data: bytes, name: str, filter_name: str | None, prediction_from: str
) -> list[HarnessLog]:
    """The log of bytes read once (standard input, a pipe), held in memory.

    A ``.eval`` zip is read by seeking in memory.
    """
    if not data.strip():
        hint = "pipe a harness log into assay rescore -" if name == STDIN_NAME else "give a log"
        raise InputFileError(name, f"is empty; {hint}")
    if is_zip(data):
        return [inspect_log.read_eval_log(io.BytesIO(data), prediction_from, name=name)]
    if _first_line_is_sample(data, name):
        return lm_eval.read_samples_stream(io.BytesIO(data), name, filter_name=filter_name)
    document = parse_json(data, name)
    if inspect_log.is_log(document):
        return [inspect_log.read_json_log(name, document, prediction_from)]
    if lm_eval.is_results(document):
        raise InputFileError(
            name,
            "is an lm-eval results file, whose samples files are found beside it; give its "
            "path, or pipe one samples_<task>_<date>.jsonl file",
        )
    raise InputFileError(name, NOT_A_LOG)


def _is_regular(path: Path) -> bool:
    """False for a pipe, FIFO or device; a missing file counts as regular (its open fails)."""
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return True


def _first_line_is_sample(data: bytes, name: str) -> bool:
    first = data.lstrip().split(b"\n", 1)[0]
    if not first.startswith(b"{"):
        return False
    try:
        return lm_eval.is_sample(parse_json(first, name))
    except InputFileError:
        return False


def _read_bytes(path: Path) -> bytes:
    with open_source(path) as handle:  # gzip/bz2/xz/zstd sniffed
        return handle.read()


def _head(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            note_read(path, handle)
            return handle.read(4)
    except OSError as exc:
        raise InputFileError(path, f"cannot open ({exc.strerror or exc}); check the path") from None

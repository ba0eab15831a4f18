"""``assay code``: run candidate programs in the sandbox, print outcomes and pass@k."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click
import regex

from assay.cli.stdout import echo_written, side_console, stdout_taken
from assay.errors import InvalidOptionError
from assay.io.output import refuse_overwriting_inputs, write_file

F = TypeVar("F", bound=Callable[..., Any])
_FILE = click.Path(dir_okay=False, path_type=Path)
_UNITS = {"": 1, "b": 1, "k": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mib": 1 << 20,
          "g": 1 << 30, "gib": 1 << 30}  # fmt: skip


def parse_bytes(text: str, option: str) -> int:
    """``2GiB``, ``512MiB``, ``65536`` → bytes.

    Raises:
        InvalidOptionError: not a size.
    """
    match = regex.fullmatch(r"\s*(\d+)\s*([A-Za-z]*)\s*", text)
    unit = match.group(2).lower() if match else None
    if match is None or unit not in _UNITS or int(match.group(1)) <= 0:
        raise InvalidOptionError(f"{option} must be a size like 2GiB, 512MiB or 65536, "
                                 f"got {text!r}")  # fmt: skip
    return int(match.group(1)) * _UNITS[unit]


# The sandbox limits: (option, type, default, help); every one shows its default.
_LIMITS: tuple[tuple[str, Any, object, str], ...] = (
    ("--workers", click.IntRange(min=1), 1,
     "Samples run at once (does not change results or their order)."),
    ("--timeout", click.FloatRange(min=0.1), 10.0, "Wall-clock seconds per sample."),
    ("--cpu-time", click.IntRange(min=1), 10, "CPU seconds per sample (RLIMIT_CPU)."),
    ("--memory", None, "2GiB", "Address-space limit per sample (RLIMIT_AS)."),
    ("--max-processes", click.IntRange(min=2), 32, "Processes and threads per sample."),
    ("--max-output", None, "64KiB", "stdout and stderr kept per sample (each)."),
)  # fmt: skip


def limit_options(func: F) -> F:
    """Apply the :data:`_LIMITS` options to a command, in table order."""
    for name, kind, default, text in reversed(_LIMITS):
        func = click.option(name, type=kind, default=default, show_default=True, help=text)(func)
    return func


@click.command("code", short_help="Run programs against tests in a sandbox; report pass@k.")
@click.option(
    "--problems",
    "problems_path",
    required=True,
    type=_FILE,
    help="JSONL of {task_id, prompt?, test, entry_point?, language?}.",
)
@click.option(
    "--samples",
    "samples_path",
    required=True,
    type=_FILE,
    help="JSONL of {task_id, completion}, many per task.",
)
@click.option("--k", "ks", default="1,10,100", show_default=True, help="pass@k budgets.")
@click.option(
    "--output", "output_path", type=_FILE, default=None, help="Where to write the JSON report."
)
@click.option(
    "--per-sample",
    "per_sample_path",
    type=_FILE,
    default=None,
    help="Where to write one JSON line per sample (outcome, reason, output).",
)
@click.option(
    "--allow-code-execution",
    is_flag=True,
    default=False,
    help="Required: confirm that the samples may be executed (in the sandbox).",
)
@limit_options
def code_command(
    problems_path: Path, samples_path: Path, ks: str, output_path: Path | None,
    per_sample_path: Path | None, allow_code_execution: bool, workers: int, timeout: float,
    cpu_time: int, memory: str, max_processes: int, max_output: str,
) -> None:  # fmt: skip
    """Execute each sample against its problem's tests; print outcomes and pass@k."""
    from assay.code import Limits, evaluate
    from assay.report.code_files import render_code_json, render_code_jsonl, render_code_terminal

    refuse_overwriting_inputs({"--output": output_path, "--per-sample": per_sample_path},
                              [problems_path, samples_path])  # fmt: skip
    limits = Limits(timeout_seconds=timeout, cpu_seconds=cpu_time,
                    address_space_bytes=parse_bytes(memory, "--memory"),
                    processes=max_processes,
                    output_bytes=parse_bytes(max_output, "--max-output"))  # fmt: skip
    report = evaluate(problems_path, samples_path, ks, allow_execution=allow_code_execution,
                      workers=workers, limits=limits)  # fmt: skip
    document = report.to_dict()
    if output_path is not None:
        write_file(output_path, render_code_json(document), option="--output")
    if per_sample_path is not None:
        write_file(per_sample_path, render_code_jsonl(report.per_sample()),
                   option="--per-sample")  # fmt: skip
    written = [p for p in (output_path, per_sample_path) if p is not None]
    render_code_terminal(document, side_console(stdout_taken(written)))
    echo_written(written)

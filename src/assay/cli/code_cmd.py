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
    match = regex.fullmatch(r"\s*(\d{1,30})\s*([A-Za-z]*)\s*", text)
    unit = match.group(2).lower() if match else None
    if match is None or unit not in _UNITS or int(match.group(1)) <= 0:
        raise InvalidOptionError(f"{option} must be a size like 2GiB, 512MiB or 65536, "
                                 f"got {text!r}")  # fmt: skip
    return int(match.group(1)) * _UNITS[unit]


def _seconds(text: str, option: str) -> float | str:
    """A number, or the text itself (which the range check then refuses by name)."""
    try:
        return float(text)
    except ValueError:
        return text


def _whole(text: str, option: str) -> int | str:
    """A whole number, or the text itself (which the range check then refuses by name)."""
    return int(text) if regex.fullmatch(r"\s*\d{1,30}\s*", text) else text


# The sandbox limits: (option, Limits field, parser, default, help); each shows its default
# and is checked against the field's range (assay.code.limits.RANGES) in one error line.
_LIMITS: tuple[tuple[str, str, Callable[[str, str], float | str], str, str], ...] = (
    ("--timeout", "timeout_seconds", _seconds, "10",
     "Wall-clock SECONDS per sample (0.1 to 86400)."),
    ("--cpu-time", "cpu_seconds", _whole, "10",
     "CPU SECONDS per sample (RLIMIT_CPU; whole, 1 to 86400)."),
    ("--memory", "address_space_bytes", parse_bytes, "2GiB",
     "Address-space SIZE per sample (RLIMIT_AS; 1MiB to 128TiB)."),
    ("--max-processes", "processes", _whole, "32",
     "Processes and threads per sample (2 to 4194304)."),
    ("--max-output", "output_bytes", parse_bytes, "64KiB",
     "stdout and stderr SIZE kept per sample, each (up to 1GiB)."),
)  # fmt: skip
_METAVARS = {"--timeout": "SECONDS", "--cpu-time": "SECONDS", "--memory": "SIZE",
             "--max-processes": "N", "--max-output": "SIZE"}  # fmt: skip


def limits_from(options: dict[str, str]) -> Any:
    """:class:`assay.code.Limits` from the options' texts (keyed by option name).

    Raises:
        InvalidOptionError: a value that is not a number or size, or out of its range,
            naming the option.
    """
    from assay.code.limits import Limits, check_limit

    values: dict[str, float | str] = {}
    for option, name, parse, _default, _help in _LIMITS:
        value = parse(options[option], option)
        check_limit(name, value, option, repr(options[option]))
        values[name] = value
    return Limits(**values)  # type: ignore[arg-type]


def limit_options(func: F) -> F:
    """Apply ``--workers`` and the :data:`_LIMITS` options to a command, in table order."""
    for option, _name, _parse, default, text in reversed(_LIMITS):
        func = click.option(option, default=default, show_default=True, help=text,
                            metavar=_METAVARS[option])(func)  # fmt: skip
    return click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
                        help="Samples run at once (does not change results or their "
                        "order).")(func)  # fmt: skip


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
@click.option(
    "--k",
    "ks",
    default=None,
    help="pass@k budgets, e.g. 1,10,100 [default: 1,10,100, each that some task has the "
    "samples for]; a k no task has the samples for is refused before anything runs.",
)
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
    problems_path: Path, samples_path: Path, ks: str | None, output_path: Path | None,
    per_sample_path: Path | None, allow_code_execution: bool, workers: int, timeout: str,
    cpu_time: str, memory: str, max_processes: str, max_output: str,
) -> None:  # fmt: skip
    """Execute each sample against its problem's tests; print outcomes and pass@k."""
    from assay.cli.eval_cmd import progress_bar
    from assay.code import prepare
    from assay.report.code_files import render_code_json, render_code_jsonl, render_code_terminal

    refuse_overwriting_inputs({"--output": output_path, "--per-sample": per_sample_path},
                              [problems_path, samples_path])  # fmt: skip
    limits = limits_from({"--timeout": timeout, "--cpu-time": cpu_time, "--memory": memory,
                          "--max-processes": max_processes, "--max-output": max_output})
    planned = prepare(problems_path, samples_path, ks, allow_execution=allow_code_execution,
                      workers=workers, limits=limits)  # fmt: skip
    for warning in planned.warnings:
        click.echo(f"warning: {warning}", err=True)
    with progress_bar(len(planned.samples), "running samples") as step:
        report = planned.run(progress=step)
    document = report.to_dict()
    if output_path is not None:
        write_file(output_path, render_code_json(document), option="--output")
    if per_sample_path is not None:
        write_file(per_sample_path, render_code_jsonl(report.per_sample()),
                   option="--per-sample")  # fmt: skip
    written = [p for p in (output_path, per_sample_path) if p is not None]
    render_code_terminal(document, side_console(stdout_taken(written)))
    echo_written(written)

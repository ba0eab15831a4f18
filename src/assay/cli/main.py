"""The ``assay`` command: a thin shell over the library.

Typed errors become one line on stderr and an exit code from one table
(:data:`EXIT_CODES`); user errors never show a traceback.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import os
import signal
import sys
import threading
from collections.abc import Sequence
from typing import IO, Any

import click

from assay._version import __version__
from assay.errors import (
    AssayError,
    InputFileError,
    InvalidInputError,
    InvalidOptionError,
    JudgeUnreachableError,
    UnknownNameError,
)
from assay.io.inputs_read import guarding_inputs

# First match wins: subclasses before their bases.
EXIT_CODES: tuple[tuple[type[AssayError], int], ...] = (
    (UnknownNameError, 2),
    (InvalidOptionError, 2),
    (InputFileError, 3),
    (InvalidInputError, 3),
    (JudgeUnreachableError, 4),
    (AssayError, 1),
)


def exit_code_for(error: AssayError) -> int:
    """The exit code for a typed error."""
    return next(code for kind, code in EXIT_CODES if isinstance(error, kind))


class TypedErrorExit(click.ClickException):
    """A typed error or unwritable path as click sees it: one line, a table exit code."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.exit_code = exit_code  # type: ignore[misc]  # click reads the instance value

    def show(self, file: IO[Any] | None = None) -> None:
        """Print ``error: <message>`` on one line (stderr by default)."""
        click.echo(f"error: {self.message}", err=file is None, file=file)


def one_line(error: AssayError | OSError) -> TypedErrorExit:
    """The one-line form and exit code of an AssayError or an OSError."""
    if isinstance(error, AssayError):
        return TypedErrorExit(str(error), exit_code_for(error))
    where = f"{error.filename}: " if getattr(error, "filename", None) else ""
    return TypedErrorExit(f"{where}{error.strerror or error}; check the path and permissions", 3)


# Each command's module and object, and its one-line help for ``assay --help``: the
# module is imported only when its command runs (or shows its own help), so start-up
# does not pay for every command's imports. A test checks the lines equal the commands'.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "check": (
        "check_cmd",
        "check_command",
        "Validate a benchmark release, then run the smoke test.",
    ),
    "code": ("code_cmd", "code_command", "Run programs against tests in a sandbox; report pass@k."),
    "compare": (
        "compare_cmd",
        "compare_command",
        "Rank systems: intervals, paired tests, tie groups.",
    ),
    "data": ("data_cmd", "data_command", "Show where the bundled sample data is."),
    "demo": ("demo_cmd", "demo_command", "Evaluate the bundled samples and write every report."),
    "diff": ("diff_cmd", "diff_command", "Compare two reports: definition changes, then flips."),
    "eval": ("eval_cmd", "eval_command", "Score prediction files against QA gold files."),
    "fingerprint": (
        "fingerprint_cmd",
        "fingerprint_command",
        "Print the evaluator fingerprint (SHA-256).",
    ),
    "judge": (
        "judge_cmd",
        "judge_command",
        "Judge open answers against a rubric with an LLM judge.",
    ),
    "judge-calibrate": (
        "judge_cmd",
        "judge_calibrate_command",
        "Judge vs human labels: Cohen's kappa.",
    ),
    "metrics": (
        "metric_cmds",
        "metrics_command",
        "List the registered metrics and their signatures.",
    ),
    "report": (
        "report_cmd",
        "report_command",
        "Re-render a saved report as Markdown, HTML, CSV or Parquet.",
    ),
    "rescore": (
        "rescore_cmd",
        "rescore_command",
        "Re-score lm-eval and inspect_ai logs with assay metrics.",
    ),
    "score": (
        "metric_cmds",
        "score_command",
        "Score one pair or a pairs file with one or more metrics.",
    ),
    "structured": (
        "structured_cmd",
        "structured_command",
        "Score JSON answers on FORMAT and FACT separately.",
    ),
}


def add_quiet(command: click.Command) -> None:
    """Give ``command`` the ``--quiet`` flag every command has (unless it has its own)."""
    from assay.cli.progress import quiet_option

    if not any("--quiet" in param.opts for param in command.params):
        command.params.append(quiet_option())


class AssayGroup(click.Group):
    """The command group: typed errors become one line and an exit code.

    This holds when the group is invoked directly (``CliRunner().invoke(cli, ...)``),
    not only through :func:`main`.
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        """The command names, sorted (imports nothing)."""
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command ``cmd_name``, importing its module on first use."""
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module, name, _ = COMMANDS[cmd_name]
            command = getattr(importlib.import_module(f"assay.cli.{module}"), name)
            add_quiet(command)
            self.add_command(command, cmd_name)
        return self.commands.get(cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """As click's, with every command loaded first when the name is unknown.

        click suggests close names ("Did you mean 'eval'?") from the loaded commands.
        """
        if args and args[0] not in COMMANDS:
            for name in COMMANDS:
                self.get_command(ctx, name)
        found, command, rest = super().resolve_command(ctx, args)
        if found is not None:
            from assay.cli.deprecated import rewrite_deprecated

            rest = rewrite_deprecated(found, rest)
        return found, command, rest

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The ``Commands:`` section of ``assay --help`` from :data:`COMMANDS`."""
        rows = [(name, COMMANDS[name][2]) for name in self.list_commands(ctx) if name in COMMANDS]
        rows += [
            (name, command.get_short_help_str(formatter.width))
            for name, command in sorted(self.commands.items())
            if name not in COMMANDS and not command.hidden
        ]
        with formatter.section("Commands"):
            formatter.write_dl(sorted(rows))

    def invoke(self, ctx: click.Context) -> Any:
        """Run the subcommand, turning AssayError/OSError into :class:`TypedErrorExit`.

        Every file the command reads is protected from its outputs
        (:func:`assay.io.inputs_read.guarding_inputs`).
        """
        try:
            with guarding_inputs():
                return super().invoke(ctx)
        except BrokenPipeError:
            raise  # the reader of standard output left: main() stops quietly
        except (AssayError, OSError) as error:
            raise one_line(error) from None


@click.group(cls=AssayGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="assay")
def cli() -> None:
    """assay: deterministic, reproducible scoring of model answers."""


_REFUSING = ("strict", "surrogateescape")  # both fail on a lone high surrogate


def printable_streams() -> None:
    r"""Make standard output and error write a lone surrogate as its backslash escape.

    A lone surrogate (a JSON ``\ud800`` escape, or an argument byte that is not UTF-8)
    cannot be encoded, and Python's streams refuse the whole line; files get the same
    escape (:func:`assay.io.output.write_file`), so every surface shows the same text.
    """
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", None) in _REFUSING:
            reconfigure(errors="backslashreplace")


class Terminated(BaseException):
    """SIGTERM, raised where the program is, so that the interrupt path runs as for Ctrl-C."""


def _terminate(signum: int, frame: Any) -> None:
    raise Terminated


def _interrupted(name: str, code: int) -> None:
    """Stop the children, remove every unfinished output, say what was kept; exit."""
    from assay.cli.forked import stop_children
    from assay.io.commit import committed, planned
    from assay.io.pending import discard_pending

    with contextlib.suppress(BaseException):  # a second signal must not stop the clean-up
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    stopped = stop_children()
    removed = discard_pending()
    outputs, done = planned(), committed()
    if outputs and len(done) == len(outputs):
        kept = "every output had been written: " + ", ".join(map(str, done))
    elif outputs:
        kept = "no output written; kept as they were: " + ", ".join(map(str, outputs))
    else:
        kept = "no output written"
    extra = [f"{stopped} child process(es) stopped"] if stopped else []
    extra += [f"{len(removed)} temporary file(s) removed"] if removed else []
    click.echo(f"aborted ({name}): {kept}" + "".join(f"; {e}" for e in extra), err=True)
    sys.exit(code)


def main(argv: Sequence[str] | None = None) -> None:
    """Run the CLI; map typed errors to one line on stderr and an exit code.

    SIGINT (Ctrl-C) and SIGTERM stop the run the same way: children stopped, staged
    outputs removed, every target left as it was (or, after the final commit, every
    one new), and one ``aborted (SIGINT): ...`` line saying which; exit 130 / 143.
    """
    printable_streams()
    handlers = {}
    with contextlib.suppress(ValueError):  # not the main thread: leave the signals alone
        handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
        signal.signal(signal.SIGTERM, _terminate)
    try:
        _run_cli(argv)
    except (click.exceptions.Abort, KeyboardInterrupt):
        _interrupted("SIGINT", 130)
    except Terminated:
        _interrupted("SIGTERM", 143)
    finally:  # as they were (main may run inside another program, a test say)
        for number, handler in handlers.items():
            with contextlib.suppress(ValueError, TypeError):
                signal.signal(number, handler)


def _run_cli(argv: Sequence[str] | None) -> None:
    try:
        cli.main(
            args=list(argv) if argv is not None else None,
            prog_name="assay",
            complete_var="_ASSAY_COMPLETE",
            standalone_mode=False,
        )
    except AssayError as error:
        _discard_staged()
        click.echo(f"error: {error}", err=True)
        sys.exit(exit_code_for(error))
    except click.UsageError as error:  # one error line, as for every other mistake
        click.echo(f"error: {usage_line(error)}", err=True)
        sys.exit(usage_exit_code(error))
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except BrokenPipeError:
        _stop_on_closed_pipe()
    except OSError as error:  # an output path that cannot be written, a full disk, ...
        one_line(error).show()
        sys.exit(3)


def usage_line(error: click.UsageError) -> str:
    """The usage error click raised, as one line: the message and where the command's help is."""
    message = " ".join(error.format_message().split())
    if error.ctx is None:
        return message
    return f"{message} (see: {error.ctx.command_path} --help)"


def usage_exit_code(error: click.UsageError) -> int:
    """2, or 3 for a path of the wrong kind (a folder given as a file): an input mistake."""
    param = getattr(error, "param", None)
    if isinstance(error, click.BadParameter) and isinstance(getattr(param, "type", None),
                                                            click.Path):  # fmt: skip
        return 3
    return error.exit_code


def _discard_staged() -> None:
    """A failed command's staged outputs are not wanted: remove them (targets kept)."""
    from assay.io.pending import discard_pending

    discard_pending()


def run() -> None:
    """The ``assay`` command (console script, ``python -m assay``): :func:`main`, quick exit.

    A finished run leaves through :func:`os._exit` once the exit handlers have run and
    standard output and error are flushed: the interpreter's teardown would only free,
    one by one, the millions of objects a large run holds (tens of milliseconds to a
    tenth of a second on ``assay eval``). The exit status and every byte written are
    those of a plain exit. Another thread still alive, an exit code that is not a
    number, or a flush that fails take the plain exit instead.
    """
    try:
        main()
    except SystemExit as done:
        code = done.code
    else:
        code = 0
    if not (code is None or isinstance(code, int)) or threading.active_count() > 1:
        sys.exit(code)
    try:
        atexit._run_exitfuncs()  # what the interpreter's exit runs first
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        sys.exit(code)  # the plain exit reports it as it would
    os._exit(code or 0)


def _stop_on_closed_pipe() -> None:
    """The reader of standard output went away (``assay … | head``): exit 1 quietly.

    Nothing is wrong with the run or its inputs, so no ``error:`` line. Standard output
    is pointed at the null device first, so the interpreter's final flush cannot fail
    again; the exit status is 1, as rich gives for the same event in its console.
    """
    try:
        stdout = sys.stdout.fileno()
    except (OSError, ValueError):  # not a file descriptor (a test's captured stream)
        sys.exit(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, stdout)
    sys.exit(1)

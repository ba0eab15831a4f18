"""The ``assay`` command: a thin shell over the library.

Typed errors become one line on stderr and an exit code from one table
(:data:`EXIT_CODES`); user errors never show a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import IO, Any

import click

from assay._version import __version__
from assay.cli.check_cmd import check_command
from assay.cli.code_cmd import code_command
from assay.cli.compare_cmd import compare_command
from assay.cli.data_cmd import data_command
from assay.cli.demo_cmd import demo_command
from assay.cli.diff_cmd import diff_command
from assay.cli.eval_cmd import eval_command
from assay.cli.fingerprint_cmd import fingerprint_command
from assay.cli.judge_cmd import judge_calibrate_command, judge_command
from assay.cli.metric_cmds import metrics_command, score_command
from assay.cli.report_cmd import report_command
from assay.cli.structured_cmd import structured_command
from assay.errors import (
    AssayError,
    InputFileError,
    InvalidInputError,
    InvalidOptionError,
    UnknownNameError,
)

# First match wins: subclasses before their bases.
EXIT_CODES: tuple[tuple[type[AssayError], int], ...] = (
    (UnknownNameError, 2),
    (InvalidOptionError, 2),
    (InputFileError, 3),
    (InvalidInputError, 3),
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


class AssayGroup(click.Group):
    """The command group: typed errors become one line and an exit code.

    This holds when the group is invoked directly (``CliRunner().invoke(cli, ...)``),
    not only through :func:`main`.
    """

    def invoke(self, ctx: click.Context) -> Any:
        """Run the subcommand, turning AssayError/OSError into :class:`TypedErrorExit`."""
        try:
            return super().invoke(ctx)
        except (AssayError, OSError) as error:
            raise one_line(error) from None


@click.group(cls=AssayGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="assay")
def cli() -> None:
    """assay: deterministic, reproducible scoring of model answers."""


cli.add_command(check_command)
cli.add_command(code_command)
cli.add_command(compare_command)
cli.add_command(data_command)
cli.add_command(demo_command)
cli.add_command(diff_command)
cli.add_command(eval_command)
cli.add_command(fingerprint_command)
cli.add_command(judge_command)
cli.add_command(judge_calibrate_command)
cli.add_command(metrics_command)
cli.add_command(report_command)
cli.add_command(score_command)
cli.add_command(structured_command)


def main(argv: Sequence[str] | None = None) -> None:
    """Run the CLI; map typed errors to one line on stderr and an exit code."""
    try:
        cli.main(args=list(argv) if argv is not None else None, standalone_mode=False)
    except AssayError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(exit_code_for(error))
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except OSError as error:  # an output path that cannot be written, a full disk, ...
        one_line(error).show()
        sys.exit(3)

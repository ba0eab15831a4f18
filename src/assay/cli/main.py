"""The ``assay`` command: a thin shell over the library.

Typed errors become one line on stderr and an exit code from one table
(:data:`EXIT_CODES`); user errors never show a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from assay._version import __version__
from assay.cli.check_cmd import check_command
from assay.cli.compare_cmd import compare_command
from assay.cli.demo_cmd import demo_command
from assay.cli.diff_cmd import diff_command
from assay.cli.eval_cmd import eval_command
from assay.cli.fingerprint_cmd import fingerprint_command
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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="assay")
def cli() -> None:
    """assay: deterministic, reproducible scoring of model answers."""


cli.add_command(check_command)
cli.add_command(compare_command)
cli.add_command(demo_command)
cli.add_command(diff_command)
cli.add_command(eval_command)
cli.add_command(fingerprint_command)
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
        where = f"{error.filename}: " if error.filename else ""
        click.echo(
            f"error: {where}{error.strerror or error}; check the path and permissions", err=True
        )
        sys.exit(3)

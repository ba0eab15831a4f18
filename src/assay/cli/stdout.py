"""``-`` as an output: the file goes to standard output, everything else to stderr.

When one output is ``-``, standard output carries that file alone, so it can be
piped (``assay report r.json --format md --output - | less``): the terminal
report and the ``wrote FILE`` lines go to standard error instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from assay.io.output import is_stdout

if TYPE_CHECKING:
    from rich.console import Console


def stdout_taken(paths: Iterable[str | Path | None]) -> bool:
    """True when one of the outputs is ``-`` (standard output)."""
    return any(is_stdout(p) for p in paths)


def side_console(taken: bool) -> Console | None:
    """A console on standard error when stdout is taken, else ``None`` (the default one)."""
    if not taken:
        return None
    from assay.report.result.terminal import terminal_console

    return terminal_console(stderr=True)


def echo_written(paths: Iterable[str | Path], *, err: bool = False) -> None:
    """One ``wrote A and B`` line for the files written (``-`` left out); stderr when asked."""
    from assay.cli.progress import is_quiet

    paths = list(paths)
    files = [str(p) for p in paths if not is_stdout(p)]
    if files and not is_quiet():
        click.echo("wrote " + " and ".join(files), err=err or stdout_taken(paths))

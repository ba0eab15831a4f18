"""What a command shows on a terminal while it works, and ``--quiet`` to show none of it.

Progress bars and spinners are drawn only when standard error is a terminal, so
piped or captured output never holds them; ``--quiet`` (on every command, added by
the command group: :func:`quiet_option`) turns them off there too, with the
``wrote FILE`` lines. Results, warnings and errors are printed either way.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click

_QUIET = [False]


def is_quiet() -> bool:
    """True when the running command was given ``--quiet``."""
    return _QUIET[0]


def _set_quiet(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    _QUIET[0] = bool(value)
    return value


def quiet_option() -> click.Option:
    """``--quiet/-q``: no progress, spinners or ``wrote FILE`` lines (results still printed)."""
    return click.Option(
        ["--quiet", "-q"],
        is_flag=True,
        expose_value=False,
        is_eager=True,
        callback=_set_quiet,
        help="Show no progress, spinners or 'wrote FILE' lines (results, warnings and "
        "errors are still printed).",
    )


def _shown() -> bool:
    return not is_quiet() and sys.stderr.isatty()


@contextmanager
def progress_bar(
    total: int, what: str = "scoring systems"
) -> Iterator[Callable[[str], None] | None]:
    """A rich progress bar on a terminal with several items (systems; ``what`` says which).

    Nothing otherwise: one item, stderr not a terminal, or ``--quiet``. The callback
    advances it by one.
    """
    if total < 2 or not _shown():
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(what, total=total)
        yield lambda _name: bar.advance(task)


@contextmanager
def count_progress(what: str) -> Iterator[Callable[[int], None] | None]:
    """A running count on a terminal (``scoring pairs: 1,200,000``), for inputs of unknown size.

    The callback takes the count so far. Nothing when stderr is not a terminal or ``--quiet``.
    """
    if not _shown():
        yield None
        return
    from rich.console import Console

    with Console(stderr=True).status(f"{what}: 0") as status:
        yield lambda done: status.update(f"{what}: {done:,}")


@contextmanager
def phase(text: str, *, active: bool = True) -> Iterator[None]:
    """A spinner with ``text`` on a terminal's stderr while a long phase runs; nothing otherwise.

    ``active=False`` shows nothing (the phase has no work to do this run).
    """
    if not active or not _shown():
        yield
        return
    from rich.console import Console

    with Console(stderr=True).status(text):
        yield

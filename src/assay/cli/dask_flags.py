"""The ``--dask`` option and its progress lines, for every command that can score on Dask.

Kept apart from :mod:`assay.cli.options` (the eval option groups, which import the
evaluation stack) so that ``assay structured`` and ``assay score`` start without it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def dask_option() -> Callable[[F], F]:
    """``--dask local:N|tcp://HOST:PORT``: score partitions on a Dask cluster (same output)."""
    return click.option(
        "--dask", default=None, metavar="local:N|tcp://HOST:PORT",
        help="Score on a Dask cluster: local:N starts N local workers; an address uses "
        "a running scheduler. Outputs are byte-identical to a local run (assay[dask]).",
    )  # fmt: skip


def partition_lines(dask: str | None) -> Callable[[int, int], None] | None:
    """With ``--dask``: one ``dask ADDRESS: D/T partitions done`` line on stderr each."""
    from assay.cli.progress import is_quiet

    if dask is None or is_quiet():
        return None

    def show(done: int, total: int) -> None:
        click.echo(f"dask {dask}: {done}/{total} partitions done", err=True)

    return show

"""A run's outputs committed together: all new or all old, no temporary file left.

Every output of a run is first *staged* (:func:`assay.io.output.stage_file`: its
whole content written and ``fsync``-ed to a temporary file beside the target), and
only at the end :func:`commit_together` renames them all into place, one after the
other with SIGINT and SIGTERM held off, so an interrupt either comes before the first
rename (every target as it was) or after the last (every target new).

Each staged temporary file of this process is recorded (:mod:`assay.io.pending`) while
it exists, so an interrupted run removes them all
(:func:`assay.io.pending.discard_pending`), those of files staged by a forked child
included once their records reach this process (:func:`adopt`).
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from assay.io.output import StagedFile, directory_lock
from assay.io.pending import record

_PLANNED: list[Path] = []  # the outputs the running command will write
_COMMITTED: list[Path] = []  # the outputs its commit put in place
HELD = (signal.SIGINT, signal.SIGTERM)


def adopt(value: Any) -> None:
    """Record the staged files in ``value`` (one, or a list/tuple of them, at any depth).

    A forked child's staged files come back to the parent in its return value; once
    here they are the parent's to commit, or to remove if the run is interrupted.
    """
    if isinstance(value, StagedFile):
        record(value)
    elif isinstance(value, (list, tuple)):
        for item in value:
            adopt(item)


def plan(paths: Iterable[str | Path]) -> None:
    """Name the outputs the running command will write (for the interrupt message)."""
    _PLANNED[:] = [Path(p) for p in paths]
    _COMMITTED.clear()


def planned() -> list[Path]:
    """The outputs named by :func:`plan`."""
    return list(_PLANNED)


def committed() -> list[Path]:
    """The outputs the last :func:`commit_together` put in place."""
    return list(_COMMITTED)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM off for the block; one that came meanwhile arrives after."""
    try:
        before = signal.pthread_sigmask(signal.SIG_BLOCK, HELD)
    except (AttributeError, ValueError, OSError):  # no signal masks, or not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def commit_together(
    files: Sequence[StagedFile], locks: Sequence[tuple[Path, str | None]] = ()
) -> list[Path]:
    """Put every staged file in place in one step; return the targets in order.

    The renames run back to back with SIGINT and SIGTERM held off, holding each
    folder lock of ``locks`` (``(folder, option)``, see
    :func:`assay.io.output.directory_lock`). If one rename fails, the files not yet
    renamed are removed and the error raised.

    Raises:
        OutputFileError: a rename failed, or another run holds a lock.
    """
    written: list[Path] = []
    with contextlib.ExitStack() as stack:
        try:
            for folder, option in locks:
                stack.enter_context(directory_lock(folder, option=option))
            with signals_held():
                for index, staged in enumerate(files):
                    try:
                        written.append(staged.commit())
                        _COMMITTED.append(staged.target)
                    except BaseException:
                        for rest in files[index + 1 :]:
                            rest.discard()
                        raise
        except BaseException:
            for staged in files[len(written) :]:
                staged.discard()
            raise
    return written


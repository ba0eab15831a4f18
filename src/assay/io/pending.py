"""The staged temporary files of this process, kept so an interrupted run removes them.

:func:`assay.io.output.stage_file` records each staged file here while it exists;
committing or discarding it forgets it. :func:`discard_pending` removes whatever is
left (a run interrupted before its commit, see :mod:`assay.io.commit`). This registry
sits below both the output writer and the commit, so the imports run one way.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol


class Staged(Protocol):
    """What the registry needs of a staged file (:class:`assay.io.output.StagedFile`)."""

    @property
    def target(self) -> Path: ...  # noqa: D102

    @property
    def temporary(self) -> str: ...  # noqa: D102

    def discard(self) -> None: ...  # noqa: D102


_PENDING: dict[str, Staged] = {}  # temporary path -> its staged file, in this process


def record(staged: Staged) -> None:
    """Note a staged file of this process (made by ``stage_file``, or adopted)."""
    _PENDING[staged.temporary] = staged


def forget(staged: Staged) -> None:
    """The staged file was committed or discarded: no longer this process's to remove."""
    _PENDING.pop(staged.temporary, None)


@dataclass(frozen=True, slots=True)
class _Temporary:
    """A temporary file being filled: removed as it is if the run is interrupted."""

    target: Path
    temporary: str

    def discard(self) -> None:
        with contextlib.suppress(OSError):
            os.unlink(self.temporary)
        forget(self)


def record_temporary(target: Path, temporary: str) -> None:
    """Note a temporary file the moment it exists (its staged file replaces the entry)."""
    record(_Temporary(target, temporary))


def forget_temporary(temporary: str) -> None:
    """The temporary file was put in place or removed."""
    _PENDING.pop(temporary, None)


def discard_pending() -> list[Path]:
    """Remove every staged temporary file of this process; return their targets."""
    targets = []
    for staged in list(_PENDING.values()):
        staged.discard()
        targets.append(staged.target)
    return targets


def pending() -> list[Path]:
    """The targets of the staged files not yet committed or discarded."""
    return [staged.target for staged in _PENDING.values()]

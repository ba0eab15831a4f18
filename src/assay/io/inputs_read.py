"""The files a command has read, so that no output of it can replace one.

A command may read files it was not given by name: the samples files inside a
folder, the results file beside a samples file, a schema's neighbours. Inside
:func:`guarding_inputs` (the CLI holds it around every command) each regular file an
input reader opens is recorded by identity (device and inode, taken from the open
file itself) with :func:`note_read`; the output writer (:mod:`assay.io.output`)
refuses a target that is one of them, before it writes and again just before its
atomic replace. So every file a command reads is protected, whichever spelling,
link or folder led to it. Outside the scope nothing is recorded: a library caller
may rewrite its own files.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

# One table per active scope (innermost last): (device, inode) -> the path as read.
_SCOPES: list[dict[tuple[int, int], str]] = []


@contextlib.contextmanager
def guarding_inputs() -> Iterator[None]:
    """Record the files read while the block runs (see the module docstring)."""
    _SCOPES.append({})
    try:
        yield
    finally:
        _SCOPES.pop()


def note_read(path: str | Path, handle: IO[bytes] | Any = None) -> None:
    """Record that ``path`` (open as ``handle``, when given) is read by this command.

    Only regular files are recorded (standard input, a pipe or a FIFO cannot be
    replaced by an output); nothing is recorded outside :func:`guarding_inputs`.
    """
    if not _SCOPES:
        return
    try:
        status = os.fstat(handle.fileno()) if handle is not None else os.stat(path)
    except (OSError, ValueError, AttributeError):  # no descriptor, a bad name: nothing read
        return
    if stat.S_ISREG(status.st_mode):
        _SCOPES[-1].setdefault((status.st_dev, status.st_ino), str(path))


def read_as(key: tuple[int, int]) -> str | None:
    """The path by which the file of identity ``key`` was read, or ``None``."""
    for scope in reversed(_SCOPES):
        if key in scope:
            return scope[key]
    return None

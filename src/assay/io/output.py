"""The one place that writes files: atomic replace, identity checks, a results lock.

* **Atomic replace.** :func:`write_file` / :func:`write_bytes` write to a temporary
  file in the target's folder, flush and ``fsync`` it, then ``os.replace`` it over
  the target (and ``fsync`` the folder). A crash or kill at any moment leaves the
  old file or the new complete file under the final name, never a truncated one;
  on an error the temporary file is removed. A symlinked target is replaced at the
  file the link points to (the link stays a link).
* **Identity, not spelling.** :func:`refuse_overwriting_inputs` compares every file
  a command will write (sidecars and results files included) with every input by
  device and inode, so a hard link, a symlink or another spelling of an input is
  refused before anything is written; two outputs naming one file are refused too.
  Every write also refuses a file the command has read so far (:mod:`assay.io.inputs_read`:
  files found inside a folder or beside a named input, not only those named), checked
  before the write and again just before the replace.
* **Concurrency.** :func:`directory_lock` takes an exclusive, non-blocking
  ``flock`` on a folder (the results folder): a second run writing the same folder
  at the same time stops with a clear message instead of interleaving its files.
  Every other output is whole-file last-writer-wins (each replace is atomic).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import sys
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from assay.errors import InputFileError, OutputFileError
from assay.io.inputs_read import read_as
from assay.io.pending import forget, forget_temporary, record, record_temporary

_LOOP_HINT = "is a symlink loop (or a chain of links too long to follow); give a real path"


def identity(path: str | Path, *, option: str | None = None) -> tuple[int, int] | None:
    """``(device, inode)`` of the file ``path`` names (links followed), or ``None`` if absent.

    Raises:
        OutputFileError: ``path`` is a symlink loop (``option`` names the output), or
            InputFileError when ``option`` is ``None`` (an input).
    """
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            if option is None:
                raise InputFileError(path, _LOOP_HINT) from None
            raise OutputFileError(path, _LOOP_HINT, field=option) from None
        return None
    return status.st_dev, status.st_ino


def _blocking_file(target: Path) -> Path | None:
    """The nearest ancestor of ``target`` that exists but is not a folder, if any."""
    for parent in target.parents:
        if parent.exists():
            return None if parent.is_dir() else parent
    return None


def check_output_path(path: str | Path, option: str | None = None) -> Path:
    """Refuse an output path that is a folder, a symlink loop or lies under a file.

    Raises:
        OutputFileError: naming the path, the option and what to do.
    """
    target = Path(path)
    identity(target, option=option or "output")  # a loop raises here
    if target.is_dir():
        raise OutputFileError(target, "is a folder; give a file path", field=option)
    blocker = _blocking_file(target)
    if blocker is not None:
        raise OutputFileError(
            target, f"cannot create folder {blocker}: it is a file; choose another path",
            field=option,
        )  # fmt: skip
    return target


def refuse_read_input(target: str | Path, option: str | None = None) -> None:
    """Refuse a target that is a file this command has read (see :mod:`assay.io.inputs_read`).

    Raises:
        OutputFileError: naming the output, the input it is and what to do.
    """
    found = identity(target, option=option or "output")
    source = None if found is None else read_as(found)
    if source is not None:
        raise OutputFileError(
            target,
            f"is also an input file ({source}); writing it would destroy that file, "
            "choose another path",
            field=option,
        )


def _replace(temporary: str, final: Path, target: Path, mode: int, option: str | None) -> None:
    """Put the finished temporary file in place of ``final`` (removed on any failure)."""
    try:
        refuse_read_input(final, option)
        os.chmod(temporary, mode)
        os.replace(temporary, final)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise _cannot_write(target, exc, option) from None
    except OutputFileError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _fsync_folder(final.parent)


def _final_target(target: Path) -> Path:
    """The file a replace must land on: a symlink's destination, else the path itself."""
    if target.is_symlink():
        return Path(os.path.realpath(target))
    return target


def _file_mode(final: Path) -> int:
    """The mode the new file gets: the old file's, else ``0o666`` minus the umask."""
    try:
        return os.stat(final).st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _fsync_folder(folder: Path) -> None:
    """Make the rename durable (best effort: some file systems refuse a folder fsync)."""
    with contextlib.suppress(OSError):
        handle = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


STDOUT = "-"
TWICE = "- (standard input) is given for two inputs; it can be read once, give - for one only"


def is_stdout(path: str | Path | None) -> bool:
    """True for ``-``, the name of standard output."""
    return path is not None and str(path) == STDOUT


def write_bytes(path: str | Path, data: bytes, *, option: str | None = None) -> Path:
    """Atomically replace ``path`` with ``data``, creating missing parent folders.

    ``-`` writes to standard output instead (no file, nothing to replace).

    Raises:
        OutputFileError: the path is a folder or a symlink loop, a parent is a file,
            or the file cannot be written (permissions, full disk, ...); the old file
            (or no file) is left in place.
    """
    with open_output(path, option=option) as sink:
        sink.write(data)
    return sink.path


class Sink:
    """Where :func:`open_output` writes: ``write(bytes)``; ``path`` is the file written."""

    def __init__(self, stream: BinaryIO, path: Path, option: str | None) -> None:
        """Wrap ``stream``, the open temporary file (or standard output) for ``path``."""
        self.stream, self.path, self._option = stream, path, option

    def write(self, data: bytes) -> None:
        """Write ``data``.

        Raises:
            OutputFileError: the write failed (full disk, ...).
            BrokenPipeError: standard output's reader went away (``assay … | head``):
                not a failure of this output, so the CLI stops quietly.
        """
        try:
            self.stream.write(data)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _cannot_write(self.path, exc, self._option) from None


@contextlib.contextmanager
def open_output(path: str | Path, *, option: str | None = None) -> Iterator[Sink]:
    """A binary stream whose content atomically replaces ``path`` when the block ends.

    For output written piece by piece (e.g. ``--per-item`` rows as they are scored).
    The pieces go to a temporary file in the target's folder; only a block that
    ends without an exception replaces the target (flushed, ``fsync``-ed), so an
    error part-way leaves the old file (or none). ``-`` yields standard output
    itself: what was written before an error stays written there.

    Yields:
        A :class:`Sink` (its ``path`` is ``Path("-")`` for standard output).

    Raises:
        OutputFileError: as :func:`write_bytes`.
    """
    if is_stdout(path):
        sys.stdout.flush()
        try:
            yield Sink(sys.stdout.buffer, Path(STDOUT), option)
        finally:
            sys.stdout.buffer.flush()
        return
    target = check_output_path(path, option)
    refuse_read_input(target, option)
    with _temporary_beside(target, option) as (stream, temporary, final, mode):
        yield Sink(stream, target, option)
    try:
        _replace(temporary, final, target, mode, option)
    finally:
        forget_temporary(temporary)  # in place, or removed


@contextlib.contextmanager
def _temporary_beside(
    target: Path, option: str | None
) -> Iterator[tuple[BinaryIO, str, Path, int]]:
    """A new temporary file in the folder of ``target``'s final path, for the block to fill.

    Yields ``(stream, temporary path, final path, mode to give it)``; when the block ends,
    the stream is flushed, ``fsync``-ed and closed, and the file stays for the caller to
    put in place. If the block or that fails, the file is removed.

    Raises:
        OutputFileError: the folder or the file cannot be made or written.
    """
    final = _final_target(target)
    temporary: str | None = None
    try:
        try:
            final.parent.mkdir(parents=True, exist_ok=True)
            mode = _file_mode(final)
            handle, temporary = tempfile.mkstemp(
                dir=final.parent, prefix=f".{final.name}.", suffix=".tmp"
            )
            # recorded at once: an interrupt from here on (the block, or between it and
            # the caller's own record) finds it in discard_pending
            record_temporary(target, temporary)
            stream = os.fdopen(handle, "wb")
        except OSError as exc:
            raise _cannot_write(target, exc, option) from None
        with stream:
            yield stream, temporary, final, mode
            try:
                stream.flush()
                os.fsync(stream.fileno())
            except OSError as exc:
                raise _cannot_write(target, exc, option) from None
        temporary = None
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            forget_temporary(temporary)


def _cannot_write(target: Path, exc: OSError, option: str | None) -> OutputFileError:
    return OutputFileError(
        target,
        f"cannot write ({exc.strerror or exc}); check that the folder is writable",
        field=option,
    )


@dataclass(frozen=True, slots=True)
class StagedFile:
    """A file's whole content written and ``fsync``-ed beside it, not yet in its place.

    Made by :func:`stage_file` (in a forked child, say); :meth:`commit` puts it in place
    as :func:`write_file` would, :meth:`discard` drops it. Call exactly one of them.
    """

    target: Path
    temporary: str
    final: Path
    mode: int
    option: str | None

    def commit(self) -> Path:
        """Replace the target with the staged content; return the target's path.

        Raises:
            OutputFileError: as :func:`write_bytes` (the staged file is removed).
        """
        try:
            _replace(self.temporary, self.final, self.target, self.mode, self.option)
        finally:
            forget(self)  # in place, or removed: no longer this process's to remove
        return self.target

    def discard(self) -> None:
        """Remove the staged content (the target stays as it was)."""
        with contextlib.suppress(OSError):
            os.unlink(self.temporary)
        forget(self)


def stage_file(path: str | Path, text: str, *, option: str | None = None) -> StagedFile:
    """Write ``text`` as :func:`write_file` does, but stop before replacing the target.

    The same checks, folders, temporary file, bytes (UTF-8, lone surrogates as
    backslash escapes), ``fsync`` and errors as :func:`write_file`; then
    :meth:`StagedFile.commit` makes the write. Not for ``-`` (standard output).

    Raises:
        OutputFileError: as :func:`write_bytes` (nothing is left behind).
    """
    data = text.encode("utf-8", "backslashreplace")
    target = check_output_path(path, option)
    refuse_read_input(target, option)
    with _temporary_beside(target, option) as (stream, temporary, final, mode):
        try:
            stream.write(data)
        except OSError as exc:
            raise _cannot_write(target, exc, option) from None
    staged = StagedFile(target, temporary, final, mode, option)
    record(staged)  # removed by discard_pending if the run is interrupted before commit
    return staged


def write_file(
    path: str | Path,
    text: str,
    *,
    option: str | None = None,
    newline: str = "",
    errors: str = "backslashreplace",
) -> Path:
    r"""Atomically write ``text`` as UTF-8 to ``path`` (see :func:`write_bytes`).

    A lone surrogate (valid in a JSON string escape, so possible in any input) is
    written as its backslash escape: JSON reads it back as the same character, and
    CSV/HTML/Markdown show it visibly, instead of failing the whole write.

    Args:
        path: the file to write.
        text: its content.
        option: the CLI option that named the file (for the message), or ``None``.
        newline: ``""`` keeps line ends as given; another value replaces each ``\n``.
        errors: the encoder's error handler (default: ``backslashreplace``).

    Raises:
        OutputFileError: as :func:`write_bytes`.
    """
    if newline:
        text = text.replace("\n", newline)
    return write_bytes(path, text.encode("utf-8", errors), option=option)


def refuse_overwriting_inputs(
    outputs: Mapping[str, str | Path | None] | Iterable[tuple[str, str | Path | None]],
    inputs: Iterable[str | Path],
) -> None:
    """Refuse output files that are an input file, or one file named twice.

    Files are compared by identity (device and inode, links followed), so a hard
    link, a symlink or another spelling of an input is caught; outputs that do not
    exist yet are compared by their absolute, link-resolved path.

    Args:
        outputs: ``(option, path)`` pairs, or option → path (``None``: not asked).
            Give every file the command writes, sidecars and results files included.
        inputs: the files the command reads.

    Raises:
        OutputFileError: an output would overwrite an input or another output, or is
            a symlink loop.
        InputFileError: ``-`` (standard input) is given for two inputs: it can be read
            only once.
    """
    inputs = list(inputs)
    if sum(is_stdout(path) for path in inputs) > 1:
        raise InputFileError("<stdin>", TWICE)
    taken: dict[object, str] = {}
    for path in inputs:
        if is_stdout(path) or identity(path) is None:
            continue  # not there: nothing to destroy (reading it will fail on its own)
        for key in _keys(path, None):
            taken.setdefault(key, f"an input file ({path})")
    pairs = outputs.items() if isinstance(outputs, Mapping) else outputs
    for option, target in pairs:
        if target is None:
            continue
        keys: list[object] = ["<stdout>"] if is_stdout(target) else _keys(target, option)
        clash = next((taken[k] for k in keys if k in taken), None)
        if clash is not None and is_stdout(target):
            raise OutputFileError(
                target,
                f"{clash} already goes to standard output; only one output can, "
                "write the other to a file",
                field=option,
            )
        if clash is not None:
            raise OutputFileError(
                target,
                f"is also {clash}; writing it would destroy that file, choose another path",
                field=option,
            )
        for key in keys:
            taken[key] = option if is_stdout(target) else f"the file of {option}"


def _keys(path: str | Path, option: str | None) -> list[object]:
    """Identity keys of a file: its (device, inode) if it exists, and its resolved path."""
    keys: list[object] = [os.path.realpath(os.path.abspath(path))]
    found = identity(path, option=option)
    if found is not None:
        keys.append(found)
    return keys


@contextlib.contextmanager
def directory_lock(folder: str | Path, *, option: str | None = None) -> Iterator[Path]:
    """Hold an exclusive lock on ``folder`` (created if missing) while writing into it.

    Raises:
        OutputFileError: another process holds the lock (another run writing the same
            folder now), or the folder cannot be created or opened.
    """
    path = Path(folder)
    check_output_path(path / "lock", option)  # a file in the way: the usual message
    try:
        path.mkdir(parents=True, exist_ok=True)
        handle = os.open(path, os.O_RDONLY)
    except OSError as exc:
        raise OutputFileError(
            path, f"cannot create or open the folder ({exc.strerror or exc})", field=option
        ) from None
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise OutputFileError(
                path,
                "another assay run is writing this results folder right now; wait for it "
                "to finish, or give another --results-dir",
                field=option,
            ) from None
        yield path
    finally:
        os.close(handle)

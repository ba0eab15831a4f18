"""Opening an input source: a path or ``-`` (standard input), compressed or not.

Compression is recognised from the first bytes, not the name: gzip (``1f 8b``), bzip2
(``BZh``), xz (``fd 37 7a 58 5a 00``) and Zstandard (``28 b5 2f fd``; needs the
``zstandard`` package, ``pip install 'assay[zstd]'``). The loaders read the
decompressed bytes from :func:`open_source` and keep their own parsing and messages.
A corrupt compressed stream is an :class:`~assay.errors.InputFileError` naming the
file and the compression, not a traceback.
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import os
import stat
import sys
import zlib
from pathlib import Path
from typing import IO, Any, cast

from assay.errors import InputFileError
from assay.io.inputs_read import note_read

STDIN = "-"
MAGIC = (
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bz2"),
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
)
COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz", ".zst", ".zstd")
PARQUET_MAGIC = b"PAR1"
PARQUET_SUFFIXES = (".parquet", ".pq")
_READ_ERRORS: tuple[type[BaseException], ...] = (OSError, EOFError, lzma.LZMAError, zlib.error)


def display_name(path: str | Path) -> str:
    """The name used in messages: ``<stdin>`` for ``-``, else the path as given."""
    return "<stdin>" if str(path) == STDIN else str(path)


def base_name(path: str | Path) -> str:
    """The file name without a compression suffix: ``preds.jsonl.gz`` → ``preds.jsonl``."""
    name = Path(str(path)).name.lower()
    for suffix in COMPRESSED_SUFFIXES:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


TABLE_DELIMITERS = {".csv": ",", ".tsv": "\t"}
KNOWN_SUFFIXES = (".jsonl", ".json", *TABLE_DELIMITERS)


def input_kind(path: str | Path) -> str:
    """How an input is read: from its name without a compression suffix, else its content.

    ``jsonl`` for ``.jsonl``, ``csv`` or ``tsv`` for those suffixes, ``json`` for
    ``.json`` (JSON text: the readers decide from the text whether it is one document
    or JSON Lines). ``parquet`` for ``.parquet`` / ``.pq`` and for any file whose
    content is Parquet (``PAR1`` at both ends, :func:`has_parquet_magic`), whatever
    its name. A regular file whose name has none of these suffixes, and ``-``
    (standard input), are known by their first (decompressed) bytes, see
    :func:`content_kind`. A pipe (``<(cat gold)``) is never peeked at here, since its
    bytes could not be read again: it is ``json``.
    """
    if str(path) == STDIN:
        return _stdin()[1]
    name = base_name(path)
    if name.endswith(PARQUET_SUFFIXES) or has_parquet_magic(path):
        return "parquet"
    for suffix in KNOWN_SUFFIXES:
        if name.endswith(suffix):
            return suffix[1:]
    if not _is_regular(path):
        return "json"
    with open_source(path) as handle:
        return content_kind(cast(Any, handle).peek(PEEK_BYTES)[:PEEK_BYTES])


def has_parquet_magic(path: str | Path) -> bool:
    """True for a regular file that starts and ends with ``PAR1`` (never reads more).

    A pipe (``<(cat preds)``) is never read here: its bytes could not be read again.
    """
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        with open(path, "rb") as handle:
            note_read(path, handle)
            head = handle.read(4)
            if head != PARQUET_MAGIC:
                return False
            handle.seek(-4, io.SEEK_END)
            return handle.read(4) == PARQUET_MAGIC and handle.tell() >= 12
    except (OSError, ValueError):  # a folder, a pipe, a missing file: not Parquet
        return False


def _is_regular(path: str | Path) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):  # missing, or a bad name: the reader gives its one line
        return False


def content_kind(head: bytes) -> str:
    """The kind of an unnamed input from its first bytes (at most one peek's worth).

    ``parquet`` for the ``PAR1`` magic; ``json`` for a document opening with ``[`` or
    an object spread over lines (or alone on its only line: the readers decide from
    the text whether that is JSON Lines, see :mod:`assay.io.jsonrecords`); ``jsonl``
    for a first line holding a whole JSON object; else ``tsv`` for a first line with a
    tab, ``csv`` for one with a comma, and ``jsonl`` otherwise (its reader names the
    bad line).
    """
    if head.startswith(PARQUET_MAGIC):
        return "parquet"
    text = head.removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n")
    first, newline, _ = text.partition(b"\n")
    if text.startswith(b"["):
        return "json"
    if text.startswith(b"{"):
        try:  # a first line longer than the peek reads as one document: see above
            return "jsonl" if newline and isinstance(json.loads(first), dict) else "json"
        except ValueError:
            return "json"
    if b"\t" in first:
        return "tsv"
    return "csv" if b"," in first else "jsonl"


PEEK_BYTES = 1 << 16
# Standard input, opened once per stream: (sys.stdin.buffer, decompressed stream, kind).
_STDIN: list[tuple[Any, IO[bytes], str]] = []


def _stdin() -> tuple[IO[bytes], str]:
    """Standard input, decompressed, and its kind from a peek at its first bytes."""
    raw = sys.stdin.buffer
    if _STDIN and _STDIN[0][0] is raw:
        if _STDIN[0][1].closed:  # another input of this command read it to its end
            raise InputFileError(
                display_name(STDIN),
                "- (standard input) is already read by another input; give - for one "
                "input only",
            )
        return _STDIN[0][1], _STDIN[0][2]
    stream = _decompressed(raw, STDIN)
    kind = content_kind(cast(Any, stream).peek(PEEK_BYTES)[:PEEK_BYTES])
    _STDIN[:] = [(raw, stream, kind)]
    return stream, kind


def _open_raw(path: str | Path) -> IO[bytes]:
    try:
        handle = open(path, "rb")  # noqa: SIM115 - the caller closes the returned stream
    except OSError as exc:
        raise InputFileError(path, f"cannot open file ({exc.strerror}); check the path") from None
    note_read(path, handle)  # no output of this command may replace it
    return handle


def compression_of(head: bytes) -> str | None:
    """The compression named by a stream's first bytes, or ``None`` for plain data."""
    return next((name for magic, name in MAGIC if head.startswith(magic)), None)


class _Guarded(io.RawIOBase):
    """A decompressing stream whose read errors become one-line :class:`InputFileError`."""

    def __init__(self, inner: Any, path: str | Path, compression: str, raw: IO[bytes]) -> None:
        self._inner, self._path, self._compression, self._raw = inner, path, compression, raw

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        try:
            data = self._inner.read(len(buffer))
        except _READ_ERRORS + _zstd_errors() as exc:
            raise InputFileError(
                display_name(self._path),
                f"corrupt or truncated {self._compression} data ({exc}); "
                "re-create or re-download the file",
            ) from None
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        if not self.closed:
            self._inner.close()
            if self._raw is not sys.stdin.buffer:
                self._raw.close()
        super().close()


def _zstd_errors() -> tuple[type[BaseException], ...]:
    try:
        import zstandard
    except ImportError:  # pragma: no cover - only when zstd was never opened
        return ()
    return (zstandard.ZstdError,)


def _decompressor(raw: IO[bytes], compression: str, path: str | Path) -> Any:
    if compression == "gzip":
        return gzip.GzipFile(fileobj=raw, mode="rb")
    if compression == "bz2":
        return bz2.BZ2File(raw, mode="rb")
    if compression == "xz":
        return lzma.LZMAFile(raw, mode="rb")
    try:
        import zstandard
    except ImportError:
        raise InputFileError(
            display_name(path),
            "is Zstandard-compressed and the zstandard package is not installed; "
            "pip install 'assay[zstd]', or decompress the file first",
        ) from None
    return zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True)


def open_source(path: str | Path) -> IO[bytes]:
    """Open a path (or ``-`` for standard input) for reading decompressed bytes.

    Standard input is opened once (its first bytes were peeked at for its kind):
    every call for ``-`` returns the same stream.

    Raises:
        InputFileError: the file cannot be opened, or it is Zstandard-compressed and
            the ``zstandard`` package is missing.
    """
    if str(path) == STDIN:
        return _stdin()[0]
    return _decompressed(_open_raw(path), path)


def _decompressed(raw: IO[bytes], path: str | Path) -> IO[bytes]:
    buffered: Any = raw if isinstance(raw, io.BufferedReader) else io.BufferedReader(cast(Any, raw))
    compression = compression_of(buffered.peek(6)[:6])
    if compression is None:
        return cast(IO[bytes], buffered)
    inner = _decompressor(buffered, compression, path)
    return io.BufferedReader(_Guarded(inner, path, compression, buffered))


def is_blank(path: str | Path) -> bool:
    """True when a file holds nothing but whitespace (after decompression)."""
    with open_source(path) as handle:
        for block in iter(lambda: handle.read(1 << 16), b""):
            if block.strip():
                return False
    return True

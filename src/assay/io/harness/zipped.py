"""Members of a zip archive, also when they are Zstandard-compressed (method 93).

inspect_ai's ``.eval`` logs are zip archives whose members are compressed with
Zstandard (zip method 93, APPNOTE 4.4.5) in recent versions and with deflate in
older ones. Python's :mod:`zipfile` reads the central directory of both but can
decompress only stored/deflate/bzip2/lzma members (before Python 3.14), so a
Zstandard member is read here: its local header is skipped (APPNOTE 4.3.7: 30
bytes, then the name and the extra field), its compressed bytes are decompressed
with ``zstandard`` and the CRC-32 is checked against the directory's.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from pathlib import Path
from typing import IO

from assay.errors import InputFileError, MissingExtraError

ZSTD_METHOD = 93
_LOCAL_HEADER = struct.Struct("<4s5HLLLHH")  # APPNOTE 4.3.7, 30 bytes
_LOCAL_SIGNATURE = b"PK\x03\x04"


def is_zip(head: bytes) -> bool:
    """True when the first bytes are a zip archive's local file header."""
    return head.startswith(_LOCAL_SIGNATURE)


class ZipMembers:
    """Read members of one zip archive by name (a context manager)."""

    def __init__(self, source: str | Path | IO[bytes], name: str | None = None) -> None:
        """Open ``source``: a path, or a seekable binary stream named ``name`` in messages."""
        self.path = str(source) if name is None else name
        try:
            self._zip = zipfile.ZipFile(source)
        except (zipfile.BadZipFile, OSError) as exc:
            raise InputFileError(
                self.path, f"not a readable zip archive ({exc}); the .eval log may be truncated"
            ) from None
        self._infos = {info.filename: info for info in self._zip.infolist()}

    def __enter__(self) -> ZipMembers:
        return self

    def __exit__(self, *exc: object) -> None:
        self._zip.close()

    def names(self) -> list[str]:
        """The member names, in archive order."""
        return list(self._infos)

    def read(self, name: str) -> bytes:
        """The decompressed bytes of member ``name``.

        Raises:
            InputFileError: no such member, corrupt data or a CRC mismatch.
            MissingExtraError: a Zstandard member and ``zstandard`` is not installed.
        """
        info = self._infos.get(name)
        if info is None:
            raise InputFileError(self.path, f"the archive has no member {name!r}", field=name)
        try:
            if info.compress_type != ZSTD_METHOD:
                return self._zip.read(info)
            data = _decompress_zstd(self._raw_member(info), info.file_size)
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError) as exc:
            raise InputFileError(
                self.path, f"member {name!r} is corrupt ({exc})", field=name
            ) from None
        if zlib.crc32(data) != info.CRC:
            raise InputFileError(self.path, f"member {name!r} fails its CRC check", field=name)
        return data

    def _raw_member(self, info: zipfile.ZipInfo) -> bytes:
        handle: IO[bytes] = self._zip.fp  # type: ignore[assignment]
        handle.seek(info.header_offset)
        header = handle.read(_LOCAL_HEADER.size)
        fields = _LOCAL_HEADER.unpack(header)
        if fields[0] != _LOCAL_SIGNATURE:
            raise ValueError("bad local file header")
        name_length, extra_length = fields[-2], fields[-1]
        handle.seek(name_length + extra_length, 1)
        data = handle.read(info.compress_size)
        if len(data) != info.compress_size:
            raise ValueError("member data cut short")
        return data


def _decompress_zstd(data: bytes, size: int) -> bytes:
    try:
        import zstandard
    except ImportError:
        raise MissingExtraError(
            "reading a Zstandard-compressed .eval log", "zstandard", "zstd"
        ) from None
    try:
        reader = zstandard.ZstdDecompressor().stream_reader(
            io.BytesIO(data), read_across_frames=True
        )
        out = reader.read()
    except zstandard.ZstdError as exc:
        raise ValueError(str(exc)) from None
    if len(out) != size:
        raise ValueError(f"{len(out)} bytes decompressed, the directory says {size}")
    return out

"""Members of a zip archive, also when they are Zstandard-compressed (method 93).

inspect_ai's ``.eval`` logs are zip archives whose members are compressed with
Zstandard (zip method 93, APPNOTE 4.4.5) in recent versions and with deflate in
older ones. Python's :mod:`zipfile` reads the central directory of both but can
decompress only stored/deflate/bzip2/lzma members (before Python 3.14), so a
Zstandard member is read here: its local header is skipped (APPNOTE 4.3.7: 30
bytes, then the name and the extra field), its compressed bytes are decompressed
with ``zstandard`` as a stream that stops as soon as it passes the size the
directory records (a small member cannot expand to gigabytes in memory), and the
CRC-32 is checked against the directory's.

What a ``.eval`` log never holds is refused by member, in one line: an encrypted
member (flag bit 0, or strong encryption, bit 6), compressed patched data (bit 5),
a compression method other than stored, deflate, bzip2, lzma and Zstandard (99 is
WinZip AES), and a member name that is not UTF-8 although the archive says it is
(bit 11).
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
METHODS = {0: "stored", 8: "deflate", 12: "bzip2", 14: "lzma", ZSTD_METHOD: "zstd"}
_ENCRYPTED, _PATCHED, _STRONG_ENCRYPTION = 1 << 0, 1 << 5, 1 << 6  # APPNOTE 4.4.4 flag bits
_CHUNK = 1 << 20
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
        except UnicodeDecodeError:
            raise InputFileError(
                self.path,
                "a member name is not UTF-8 although the archive says it is (zip flag bit "
                "11); the .eval log is corrupt, write it again",
            ) from None
        except (zipfile.BadZipFile, OSError, ValueError, EOFError, struct.error) as exc:
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
        problem = _unreadable(info)
        if problem is not None:
            raise InputFileError(self.path, f"member {name!r} {problem}", field=name)
        try:
            if info.compress_type != ZSTD_METHOD:
                return self._zip.read(info)
            data = _decompress_zstd(self._raw_member(info), info.file_size)
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, RuntimeError,
                NotImplementedError, struct.error) as exc:  # fmt: skip
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


def _unreadable(info: zipfile.ZipInfo) -> str | None:
    """Why a member cannot be read here (what ``.eval`` logs never hold), or ``None``."""
    if info.flag_bits & (_ENCRYPTED | _STRONG_ENCRYPTION):
        return "is encrypted; assay reads .eval logs as inspect_ai writes them, unencrypted"
    if info.flag_bits & _PATCHED:
        return (
            "holds compressed patched data (zip flag bit 5), which .eval logs never use; "
            "the archive is corrupt, write it again"
        )
    if info.compress_type not in METHODS:
        method = info.compress_type
        what = " (WinZip AES encryption)" if method == 99 else ""
        return (
            f"uses compression method {method}{what}; assay reads "
            + ", ".join(METHODS.values()) + ", as inspect_ai writes them"
        )  # fmt: skip
    return None


def _decompress_zstd(data: bytes, size: int) -> bytes:
    try:
        import zstandard
    except ImportError:
        raise MissingExtraError(
            "reading a Zstandard-compressed .eval log", "zstandard", "zstd"
        ) from None
    reader = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data), read_across_frames=True)
    chunks: list[bytes] = []
    total = 0
    try:
        while total <= size:  # one byte past the recorded size is enough to refuse it
            chunk = reader.read(min(_CHUNK, size + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except zstandard.ZstdError as exc:
        raise ValueError(str(exc)) from None
    if total > size:
        raise ValueError(f"it expands past the {size:,} bytes the directory records")
    if total != size:
        raise ValueError(f"{total} bytes decompressed, the directory says {size}")
    return b"".join(chunks)

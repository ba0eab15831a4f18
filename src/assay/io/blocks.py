"""Byte-range blocks of a JSONL file, read on their own (by a Dask worker) with exact line numbers.

A file of ``size`` bytes is cut at nominal offsets ``0, B, 2B, …``. A block owns
every line whose first byte lies in its range: a block starting at ``s > 0``
begins after the first newline at or after byte ``s - 1`` (a line starting
exactly at ``s`` is its own), and it reads whole lines while they start before
its end, so the last line may run past it. Every line is owned by exactly one
block. This is the idea of ``dask.bytes.read_bytes`` with a newline delimiter,
written here so that each block also knows its first line number.

Line numbers stay exact: a first, cheap pass (:func:`count_line_ends`) counts the
line ends each block owns, and block ``k`` numbers its lines from one plus the
sum of the counts before it. The strict reader counts newlines (LF); the released
reader (universal newlines) also counts a lone carriage return (CR).
"""

from __future__ import annotations

import os
import sys
from array import array
from collections.abc import Iterator, Set
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO

from assay.errors import InputFileError
from assay.io.inputs_read import note_read
from assay.io.jsonl import iter_jsonl_stream
from assay.io.oddities import Oddities
from assay.io.pairs import Pair, pair_of_row
from assay.io.predictions import PredictionRow, row_from_record
from assay.io.sources import compression_of
from assay.parallel import working_directory
from assay.records import builder

BLOCK_BYTES = 64 * 2**20
"""Nominal block size: a worker holds about one block's rows at a time."""

_READ = 1 << 20
_bare = builder(PredictionRow)  # PredictionRow(...) with every field, plain stores


@dataclass(frozen=True, slots=True)
class Block:
    """One byte range of a file and the number of its first line (1-based)."""

    path: str
    start: int
    end: int
    first_line: int = 1
    first_universal: int = 1


def _open(path: str) -> IO[bytes]:
    try:
        handle = open(path, "rb")  # noqa: SIM115 - the caller closes it
    except OSError as exc:
        raise InputFileError(path, f"cannot open file ({exc.strerror}); check the path") from None
    note_read(path, handle)
    return handle


def splittable(path: str | Path) -> bool:
    """Whether ``path`` is a plain (uncompressed) ``.jsonl`` file that can be cut into blocks."""
    text = str(path)
    if not text.endswith(".jsonl"):
        return False
    try:
        with open(text, "rb") as handle:
            note_read(text, handle)
            return os.path.isfile(text) and compression_of(handle.read(8)) is None
    except OSError:
        return False  # read as usual: the reader gives its one-line error


def plan_blocks(path: str, size: int, block_bytes: int = BLOCK_BYTES) -> list[Block]:
    """The nominal blocks of a file of ``size`` bytes (one block when it is small)."""
    starts = range(0, max(size, 1), block_bytes)
    return [Block(path, start, min(start + block_bytes, size)) for start in starts]


def _line_start(handle: object, offset: int) -> int:
    """The first line start at or after ``offset`` (``offset`` itself if a line starts there)."""
    if offset == 0:
        return 0
    handle.seek(offset - 1)  # type: ignore[attr-defined]
    skipped = handle.readline()  # type: ignore[attr-defined]
    return offset - 1 + len(skipped)


def owned_range(handle: object, block: Block) -> tuple[int, int]:
    """``(first byte, end byte)`` of the lines ``block`` owns, in an open binary file."""
    start = _line_start(handle, block.start)
    end = _line_start(handle, block.end) if block.end > block.start else start
    return start, max(start, end)


def count_line_ends(block: Block) -> tuple[int, int]:
    """``(newlines, lone carriage returns)`` in the lines ``block`` owns."""
    with _open(block.path) as handle:
        start, end = owned_range(handle, block)
        handle.seek(start)
        newlines = lone = 0
        left, carry = end - start, b""
        while left > 0:
            data = handle.read(min(_READ, left))
            if not data:
                break
            left -= len(data)
            newlines += data.count(b"\n")
            joined = carry + data  # a CR LF pair may straddle two reads
            lone += joined.count(b"\r") - joined.count(b"\r\n") - carry.count(b"\r")
            carry = data[-1:]
        return newlines, lone


class CountTask:
    """``task(block)``: the line ends a block owns (the first pass that numbers blocks)."""

    def __init__(self, cwd: str) -> None:
        """Keep the client's working directory."""
        self.cwd = cwd

    def __call__(self, block: Block) -> tuple[int, int]:
        """``(newlines, lone CRs)`` of the block's lines."""
        with working_directory(self.cwd):
            return count_line_ends(block)


def numbered(blocks: list[Block], counts: list[tuple[int, int]]) -> list[Block]:
    """``blocks`` with their first line numbers, from each earlier block's counts.

    ``first_line`` counts LF (the strict reader's lines); ``first_universal``
    also counts lone CRs (the released reader's universal newlines).
    """
    numbered_blocks, newlines, lone = [], 0, 0
    for block, (n, cr) in zip(blocks, counts, strict=True):
        numbered_blocks.append(replace(block, first_line=1 + newlines,
                                       first_universal=1 + newlines + lone))  # fmt: skip
        newlines, lone = newlines + n, lone + cr
    return numbered_blocks


def iter_block_lines(block: Block) -> Iterator[bytes]:
    """The raw lines ``block`` owns, each with its line end (the file's last may lack one)."""
    with _open(block.path) as handle:
        start, end = owned_range(handle, block)
        handle.seek(start)
        position = start
        while position < end:
            line = handle.readline()
            if not line:
                return
            position += len(line)
            yield line


class BlockRows:
    """One block's prediction rows, compact: every row's id and line; rows of kept ids whole.

    Iterating gives the rows in file order as :class:`PredictionRow` objects. A row
    whose id is not kept comes back bare: no text, status ``success``, and as its
    field the field of the block's first bare row that had one (a field check asks
    only whether any row has one). Such rows are all that an aligner needs to count
    and place extra ids, and they pickle as a list of strings and an array of line
    numbers, not one object each: a block of a large file is sent to the client
    in a fraction of the time and memory.
    """

    __slots__ = ("field", "ids", "kept", "lines", "path")

    def __init__(self, path: str) -> None:
        """An empty block of ``path``."""
        self.path = path
        self.ids: list[str] = []
        self.lines = array("q")
        self.kept: dict[int, PredictionRow] = {}
        self.field: str | None = None

    def add(self, row: PredictionRow, keep: bool) -> None:
        """Append ``row`` (whole when ``keep``, else its id, line and field only)."""
        if keep:
            self.kept[len(self.ids)] = row
        elif self.field is None:
            self.field = row.field
        self.ids.append(row.id)
        self.lines.append(row.line or 0)

    def __len__(self) -> int:
        """The number of rows."""
        return len(self.ids)

    def __iter__(self) -> Iterator[PredictionRow]:
        """The rows in file order (bare rows made afresh)."""
        kept, path, field = self.kept, self.path, self.field
        for index, (qid, line) in enumerate(zip(self.ids, self.lines, strict=True)):
            row = kept.get(index)
            yield _bare(qid, "", "success", field, path, line, None, None) if row is None else row

    def __sizeof__(self) -> int:
        """About the bytes held (Dask's memory accounting asks), without visiting every row."""
        ids = sys.getsizeof(self.ids) + 56 * len(self.ids)  # a short id string each
        return object.__sizeof__(self) + ids + self.lines.itemsize * len(self.lines) + (
            600 * len(self.kept)
        )

    def __getstate__(self) -> tuple[object, ...]:
        """Pickled as its fields (slots)."""
        return (self.path, self.ids, self.lines, self.kept, self.field)

    def __setstate__(self, state: tuple[object, ...]) -> None:
        """Restored from :meth:`__getstate__`."""
        self.path, self.ids, self.lines, self.kept, self.field = state  # type: ignore[assignment]


def read_block_rows(
    block: Block, field: str | None, keep: Set[str], released: Oddities | None
) -> tuple[BlockRows, InputFileError | None]:
    """The prediction rows of one block, in order, and the input error that ended it.

    Rows whose id is not in ``keep`` lose their text (only the id, place and field
    are needed to count and place them; see :class:`BlockRows`), so a block's rows
    stay small. An input error (bad JSON, no id, …) is returned, not raised, with the
    rows before it: the caller raises it where a whole-file read would.
    """
    rows = BlockRows(block.path)
    add = rows.add
    lines = iter_block_lines(block)
    first = (block.first_line, block.first_universal)
    try:
        for line, record in iter_jsonl_stream(lines, block.path, released=released, first=first):
            row = row_from_record(record, field, block.path, line, released)
            add(row, row.id in keep)
    except InputFileError as error:
        return rows, error
    return rows, None


PairScan = tuple[list[Pair], InputFileError | None, tuple[str, int] | None]
"""A block's pairs, the error that ended it, and the id (and line) its bad row gave."""


def read_block_pairs(block: Block) -> PairScan:
    """The checked pairs of one block of a pairs file, in order (as :func:`read_pairs`).

    Ids are not checked for repeats here (a repeat may lie in another block): the
    caller checks them in file order. An input error is returned, not raised, with
    the pairs before it and, when the bad row's id was read before its error (a bad
    ``no_answer_probability``), that ``(id, line)``: a repeated id is reported first.
    """
    pairs: list[Pair] = []
    last: list[tuple[str, int]] = [("", 0)]  # the last id read, and its line

    def note_id(pair_id: str, line: int) -> None:
        last[0] = (pair_id, line)

    lines = iter_block_lines(block)
    first = (block.first_line, block.first_universal)
    try:
        for line, record in iter_jsonl_stream(lines, block.path, first=first):
            pairs.append(pair_of_row(record, block.path, line, note_id))
    except InputFileError as error:
        return pairs, error, last[0] if last[0][1] == error.line else None
    return pairs, None, None

"""CSV and TSV inputs: a header row, then one record per row, streamed.

The first row names the columns; each later row becomes a ``{column: text}`` record,
with an empty cell left out (so it reads like an absent field, not ``""``). The
delimiter comes from the suffix (``.csv``: comma, ``.tsv``: tab, also under a
compression suffix such as ``.csv.gz``), or for a name without one (and ``-``) from
the first line (a tab, else a comma); a header that holds no such delimiter but
names two or more columns between semicolons (Excel's CSV in many locales) is read
with ``;`` (:func:`sniff_delimiter`); quoting is RFC 4180 (``"a, b"``, ``""`` for
a quote). Records carry the line their row starts on, so every message names file,
line and column like the JSONL reader's.
"""

from __future__ import annotations

import csv
import io
import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

from assay.errors import InputFileError
from assay.io.jsonl import iter_jsonl
from assay.io.jsonrecords import iter_json_records, released_object_first
from assay.io.oddities import Oddities
from assay.io.sources import PEEK_BYTES, base_name, display_name, input_kind, open_source

csv.field_size_limit(1 << 30)  # long model answers: the default 128 KiB limit would refuse them


def _delimiter(path: str | Path) -> str:
    """The suffix's delimiter; without one (``-``, no suffix), the one the first line holds."""
    return "\t" if input_kind(path) == "tsv" else ","


def sniff_delimiter(header: str, delimiter: str) -> str:
    """``;`` when the header line holds no ``delimiter`` but ``;`` between two or more names.

    Excel writes CSV with semicolons in locales whose decimal mark is a comma; read
    with commas, its header would be one column named ``id;prediction;targets``.
    """
    if delimiter in header or ";" not in header:
        return delimiter
    names = [cell.strip() for cell in header.strip("\r\n").split(";")]
    return ";" if len(names) > 1 and all(names) else delimiter


def _header(reader: Iterator[list[str]], path: str) -> list[str]:
    header = next(reader, None)
    if header is None or not any(cell.strip() for cell in header):
        raise InputFileError(path, "no header row; the first row must name the columns", line=1)
    names = [cell.strip().removeprefix("\ufeff") for cell in header]
    for index, name in enumerate(names):
        if not name:
            raise InputFileError(path, f"column {index + 1} of the header has no name", line=1)
        if name in names[:index]:
            raise InputFileError(
                path, f"column {name!r} appears twice in the header; keep one", line=1
            )
    return names


def iter_table(path: str | Path) -> Iterator[tuple[int, dict[str, str]]]:
    """Yield ``(line, record)`` for each non-blank data row of a CSV/TSV file.

    Raises:
        InputFileError: the file cannot be opened or is not UTF-8, it has no header,
            the header repeats or omits a column name, or a row has more cells than
            the header (naming the line).
    """
    name = display_name(path)
    with open_source(path) as raw:
        text = io.TextIOWrapper(raw, encoding="utf-8", newline="")
        try:
            first = text.readline()
        except UnicodeDecodeError as exc:
            raise InputFileError(
                name, f"not UTF-8 text ({exc.reason}); re-encode the file as UTF-8", line=1
            ) from None
        delimiter = sniff_delimiter(first, _delimiter(path))
        reader = csv.reader(itertools.chain([first], text), delimiter=delimiter, strict=True)
        try:
            names = _header(reader, name)
            start = reader.line_num + 1
            for cells in reader:
                if any(cell.strip() for cell in cells):
                    yield start, _record(names, cells, name, start)
                start = reader.line_num + 1
        except UnicodeDecodeError as exc:
            raise InputFileError(
                name, f"not UTF-8 text ({exc.reason}); re-encode the file as UTF-8",
                line=reader.line_num + 1,
            ) from None  # fmt: skip
        except csv.Error as exc:
            raise InputFileError(
                name, f"not valid CSV ({exc}); check the quoting", line=reader.line_num
            ) from None


def _record(names: list[str], cells: list[str], path: str, line: int) -> dict[str, str]:
    if len(cells) > len(names):
        raise InputFileError(
            path,
            f"{len(cells)} cells but the header names {len(names)} columns; "
            "quote cells that hold the delimiter",
            line=line,
        )
    return {key: cell for key, cell in zip(names, cells, strict=False) if cell != ""}


def _released_jsonl(path: str | Path) -> bool:
    """A file sniffed as CSV/TSV (no such suffix) that the released reading takes as JSONL."""
    if base_name(path).endswith((".csv", ".tsv")):
        return False
    with open_source(path) as handle:
        return released_object_first(cast(Any, handle).peek(PEEK_BYTES)[:PEEK_BYTES])


def iter_records(
    path: str | Path, *, released: Oddities | None = None
) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line, record)`` of a JSONL, JSON array, CSV/TSV or Parquet file.

    The form comes from the suffix, or from the content when the name has no known
    suffix (see :func:`assay.io.sources.input_kind`). ``.jsonl`` is JSON Lines; ``.json``
    and JSON text under any other name is a JSON array of objects or JSON Lines, as
    its first byte says (:func:`assay.io.jsonrecords.iter_json_records`); with
    ``released``, a file sniffed as CSV/TSV whose first non-blank line is an object as
    the released evaluator strips lines is JSON Lines too. Parquet
    (:func:`assay.io.parquet.iter_parquet`) gives the row number, counting from 1, in
    place of the line.

    Raises:
        InputFileError: as :func:`assay.io.jsonl.iter_jsonl`, :func:`iter_table` or
            :func:`assay.io.parquet.iter_parquet`.
        MissingExtraError: a Parquet file without pyarrow installed.
    """
    kind = input_kind(path)
    if kind in ("csv", "tsv") and released is not None and _released_jsonl(path):
        kind = "json"  # the released evaluator reads it as JSON Lines: so does assay then
    if kind == "parquet":
        from assay.io.parquet import iter_parquet

        yield from iter_parquet(path)
    elif kind in ("csv", "tsv"):
        yield from iter_table(path)
    elif kind == "jsonl" and base_name(path).endswith(".jsonl"):
        yield from iter_jsonl(path, released=released)
    else:
        yield from iter_json_records(path, released=released)

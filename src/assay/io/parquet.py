"""Parquet in and out through the optional ``pyarrow`` package (``assay[parquet]``).

A Parquet input is recognised by its name (``.parquet``, ``.pq``) or by its content:
a regular file that starts and ends with the magic ``PAR1``, whatever it is called
(:func:`assay.io.sources.has_parquet_magic`, used by
:func:`assay.io.sources.input_kind`). Its rows are read in batches, never the
whole table at once, and each becomes a record as a JSONL line would: struct columns
are objects, list columns lists, and a null reads as an absent field (as an empty
CSV cell does; nulls are what a column holds for the rows that lack it). A row's
number, counting from 1, stands where a line number stands in every message.
Parquet on standard input (``-``, recognised by its first bytes) is read into memory
first, since a Parquet file's footer is at its end.

:func:`table_bytes` writes rows with an explicit schema (so an all-empty column
keeps its type); the bytes depend only on the rows and the pyarrow version.
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from assay.errors import InputFileError, MissingExtraError
from assay.io.inputs_read import note_read
from assay.io.sources import open_source

BATCH_ROWS = 4096


def pyarrow(what: str) -> tuple[Any, Any]:
    """``(pyarrow, pyarrow.parquet)``, imported when first needed.

    Raises:
        MissingExtraError: pyarrow is not installed (one line: pip install 'assay[parquet]').
    """
    try:
        arrow = importlib.import_module("pyarrow")  # untyped here: no stubs needed
        parquet = importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise MissingExtraError(what, "pyarrow", "parquet") from None
    return arrow, parquet


def _absent_nulls(value: Any) -> Any:
    """Drop null members of objects (at any depth); lists keep their elements."""
    if isinstance(value, dict):
        return {k: _absent_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_absent_nulls(v) for v in value]
    return value


def _one_line(exc: BaseException) -> str:
    """The message of a pyarrow error on one line (it may hold several)."""
    return " ".join(str(exc).split())


def iter_parquet(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(row number, record)`` for each row of a Parquet file, in order.

    Raises:
        InputFileError: the file cannot be opened or is not a valid Parquet file.
        MissingExtraError: pyarrow is not installed.
    """
    arrow, parquet = pyarrow("Parquet input")
    damaged = (arrow.ArrowException, ValueError, OSError)  # ArrowInvalid, ArrowIOError, ...
    source: Any = str(path)
    if source == "-":  # Parquet needs seeking: standard input is read into memory first
        with open_source(source) as handle:
            source = arrow.BufferReader(handle.read())
        path = "<stdin>"
    else:
        note_read(path)  # no output of this command may replace it
    try:
        table = parquet.ParquetFile(source)
    except (FileNotFoundError, PermissionError, IsADirectoryError) as exc:
        raise InputFileError(path, f"cannot open file ({exc.strerror}); check the path") from None
    except damaged as exc:
        raise InputFileError(
            path, f"not a valid Parquet file ({_one_line(exc)}); re-write it or give JSONL/CSV"
        ) from None
    number = 0
    batches = table.iter_batches(batch_size=BATCH_ROWS)
    while True:
        try:
            batch = next(batches, None)
        except damaged as exc:  # a corrupt page is found while reading
            raise InputFileError(
                path,
                f"not a valid Parquet file ({_one_line(exc)}); re-write it or give JSONL/CSV",
                line=number + 1,
            ) from None  # fmt: skip
        if batch is None:
            return
        for row in batch.to_pylist():
            number += 1
            yield number, _absent_nulls(row)


def _escaped(value: Any) -> Any:
    """``value`` with every lone surrogate of its strings as a backslash escape."""
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, dict):
        return {key: _escaped(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_escaped(item) for item in value]
    return value


def table_bytes(rows: Sequence[dict[str, Any]], columns: Sequence[tuple[str, str]]) -> bytes:
    """The rows as one Parquet file (zstd-compressed pages).

    Args:
        rows: one dict per row; a missing key or ``None`` is a null.
        columns: ``(name, type)`` in order; type is ``string``, ``int64``, ``float64``,
            ``bool`` or ``list<string>``.

    A lone surrogate (valid in a JSON string escape, so possible in any input) cannot be
    UTF-8 in a Parquet string: it is written as its backslash escape, as every text
    output writes it (:func:`assay.io.output.write_file`).

    Raises:
        MissingExtraError: pyarrow is not installed.
    """
    arrow, parquet = pyarrow("Parquet output")
    types = {
        "string": arrow.string(),
        "int64": arrow.int64(),
        "float64": arrow.float64(),
        "bool": arrow.bool_(),
        "list<string>": arrow.list_(arrow.string()),
    }
    schema = arrow.schema([(name, types[kind]) for name, kind in columns])
    try:
        table = arrow.Table.from_pylist(list(rows), schema=schema)
    except UnicodeEncodeError:  # a lone surrogate somewhere: escape it, as text outputs do
        table = arrow.Table.from_pylist([_escaped(row) for row in rows], schema=schema)
    buffer = io.BytesIO()
    parquet.write_table(table, buffer, compression="zstd")
    return buffer.getvalue()

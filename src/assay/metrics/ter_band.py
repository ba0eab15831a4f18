r"""The banded Tercom tables of many hypotheses at once (one NumPy row step for all).

:func:`band_rows_many` returns, per ``(table, hypothesis)`` pair, as a NumPy array, the rows
:func:`assay.metrics.ter_table.band_rows` returns for it alone: ``[INF, D(i, lo), …]`` per
row ``i``, padded with ``INF`` to that table's own row size. The recurrence is the same
(diagonal and upper cells for the whole band, then a running minimum of
``cand[k] − k``); the tables only share each NumPy call: row ``i`` of every table is
computed together, each reading its previous row at its own band offset (one flat
``take``), and cells past a table's window (or past its last row) are set to ``INF``
by one ``maximum`` with a precomputed mask. Shorter tables run on padding rows that
are never read back. Tables go in groups of at most ``CELLS`` cells so the arrays stay small.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from assay.metrics.ter_table import INF

if TYPE_CHECKING:
    from assay.metrics.ter_table import BandedDistance

CELLS = 1_000_000
"""Cells (rows x tables x band) of one group of tables computed together, at most
(a single larger table goes alone)."""


def band_rows_many(tables: Sequence[BandedDistance], hyps: Sequence[Sequence[str]]) -> list[Any]:
    """``[band_rows(t, h) for t, h in zip(tables, hyps)]`` as NumPy arrays, in groups.

    Row 0 of each array is never read (the table's first row is ``first_row``); rows
    ``1 … n`` hold ``band_rows``'s integers.
    """
    out: list[Any] = []
    start = 0
    while start < len(tables):
        end, rows, band = start + 1, len(hyps[start]), tables[start].beam
        while end < len(tables):
            rows, band = max(rows, len(hyps[end])), max(band, tables[end].beam)
            if rows * (end + 1 - start) * (2 * band + 2) > CELLS:
                break
            end += 1
        out += _group(tables[start:end], hyps[start:end])
        start = end
    return out


def _group(
    tables: Sequence[BandedDistance], hyps: Sequence[Sequence[str]]
) -> list[list[list[int]]]:
    import numpy as np

    count = len(tables)
    lengths = [len(h) for h in hyps]
    n_max = max(lengths)
    shapes = []  # per table: lo (n+1), width (n+1, row 0 empty), own band, own row size
    for table, n in zip(tables, lengths, strict=True):
        lo = np.array(table.lo, dtype=np.int64)
        width = np.array(table.hi, dtype=np.int64) - lo
        width[0] = 0
        band = int(width.max()) if n else 0
        step = int(np.diff(lo).max()) if n else 0
        shapes.append((lo, width, band, 1 + band + step + 1))
    band = max(s[2] for s in shapes)
    # the largest offset of a previous row: a step, or lo[1] against row 0 (which starts at 0)
    offset = max([int(s[0][1]) for s, n in zip(shapes, lengths, strict=True) if n] + [
        int(np.diff(s[0]).max()) for s, n in zip(shapes, lengths, strict=True) if n > 1
    ] + [0])  # fmt: skip
    size = 1 + band + offset + 1
    k = np.arange(band, dtype=np.int64)
    neq = np.zeros((n_max, count, band), dtype=np.int64)
    mask = np.full((n_max, count, band), INF, dtype=np.int64)
    steps = np.zeros((n_max, count), dtype=np.int64)
    table_rows = np.zeros((n_max + 1, count, size), dtype=np.int64)
    table_rows[0] = INF
    for t, (table, hyp, n, (lo, width, _, _)) in enumerate(
        zip(tables, hyps, lengths, shapes, strict=True)
    ):
        m = table.n_ref
        table_rows[0, t, 1 : min(m + 2, size)] = np.arange(min(m + 1, size - 1))
        if not n:
            continue
        cols = lo[1:, None] + k[None, :]
        ref_ids = np.array([ord(c) for c in table.ref_codes] + [-1], dtype=np.int64)
        hyp_ids = np.array([ord(table.codes[w]) for w in hyp], dtype=np.int64)
        neq[:n, t] = ref_ids[np.clip(cols - 1, 0, m)] != hyp_ids[:, None]
        mask[:n, t] = np.where(k[None, :] < width[1:, None], 0, INF)
        steps[:n, t] = np.diff(lo)
    neq -= k
    base = (np.arange(count, dtype=np.int64) * size)[:, None] + k[None, :]
    step_one = 1 - k
    cand = np.empty((count, band), dtype=np.int64)
    up = np.empty((count, band), dtype=np.int64)
    for i in range(1, n_max + 1):
        prev = table_rows[i - 1].ravel()
        where = base + steps[i - 1][:, None]
        np.add(np.take(prev, where), neq[i - 1], out=cand)  # diagonal
        np.add(np.take(prev, where + 1), step_one, out=up)  # from above
        np.minimum(cand, up, out=cand)
        row = table_rows[i, :, 1 : 1 + band]
        np.minimum.accumulate(cand, axis=1, out=row)
        row += k
        np.maximum(row, mask[i - 1], out=row)
        table_rows[i, :, 1 + band :] = INF
        table_rows[i, :, 0] = INF
    out: list[Any] = []
    for t, (n, (_, _, _, own)) in enumerate(zip(lengths, shapes, strict=True)):
        out.append(table_rows[: n + 1, t, :own])
    return out

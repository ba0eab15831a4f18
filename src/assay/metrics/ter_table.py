r"""Tercom's banded edit distance, as sacrebleu's ``BeamEditDistance`` computes it.

A Levenshtein distance of a hypothesis (the table's rows) against a reference (its
columns), both word sequences, restricted to a beam of ±``BEAM_WIDTH`` (25) cells,
wider for very different lengths (:func:`beam_half_width`), around the
"pseudo-diagonal" ``j = ⌊i·r⌋``, ``r = |ref| / |hyp|``; cells outside the band are
``INF``. The backtrace (:meth:`BandedDistance.trace`) breaks ties as Tercom does:
match/substitution, then deletion, then insertion; its operations (``NOP``, ``SUB``,
``INS``, ``DEL``) are the alignment the shift search (:mod:`assay.metrics.ter_search`)
reads.
A table's rows are kept at full length (:class:`ListRows`) or as their bands
(:class:`Rows`, :class:`ArrayRows`), read cell by cell alike.

Speed without changing a number: a path of cost ``d`` never leaves the band
``|j − i·r| ≤ d`` (its insertions and deletions bound the drift), so when the
unrestricted distance (rapidfuzz, C++) is below the beam width the banded distance
equals it and the banded table is not needed. Nor is it when one shortest unrestricted
alignment (rapidfuzz's ``editops``) stays inside the band (:meth:`BandedDistance.in_band`):
the banded distance is never smaller, and that path is a banded path. Only the remaining
candidates (:meth:`BandedDistance.distance`), and the one alignment per round, run the
banded table in Python, a candidate starting from the rows of the longest prefix it
shares with the current hypothesis. For references of ``NUMPY_FROM`` (400) words or
more the alignment's table is built in NumPy, a row at a time over its band
(:func:`band_rows`, the same integers), because the cell loop's full-length rows cost
O(reference length) each; shorter ones keep the loop, which is faster there.
:mod:`assay.metrics.ter_band` builds the tables of many hypotheses at once (the same
rows). This module imports neither ``ter`` nor ``ter_band``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, cast

from rapidfuzz.distance import Levenshtein

BEAM_WIDTH = 25
INF = 10**16
NUMPY_FROM = 400  # reference length from which a row costs less in NumPy than in a loop
NOP, SUB, INS, DEL = 0, 1, 2, 3  # table operations (hypothesis rows, reference columns)


def beam_half_width(n_ref: int, hyp_len: int) -> int:
    """The band's half-width: ±25 cells, wider when the lengths differ a lot (sacrebleu)."""
    ratio = n_ref / hyp_len if hyp_len else 1.0
    return math.ceil(ratio / 2 + BEAM_WIDTH) if BEAM_WIDTH < ratio / 2 else BEAM_WIDTH


class BandedDistance:
    """The banded edit distance of hypotheses of one length against one reference."""

    def __init__(self, ref: Sequence[str], hyp_len: int, codes: dict[str, str]) -> None:
        self.ref = list(ref)
        self.codes = codes
        self.ref_codes = "".join(codes[w] for w in ref)
        self.n_ref = len(ref)
        self.n_hyp = hyp_len
        self.ratio = self.n_ref / hyp_len if hyp_len else 1.0
        self.beam = beam_half_width(self.n_ref, hyp_len)
        self.first_row = list(range(self.n_ref + 1))
        self.windows = self._windows()
        self.lo = [lo for lo, _ in self.windows]
        self.hi = [self.n_ref + 1, *(hi for _, hi in self.windows[1:])]  # row 0 is whole

    def _windows(self) -> list[tuple[int, int]]:
        """:meth:`window` of every row ``0 … n_hyp``; in NumPy for long hypotheses.

        ``floor(i * ratio)`` is the same float64 product and floor in NumPy as in Python.
        """
        n = self.n_hyp
        if n < NUMPY_FROM:
            return [self.window(i) for i in range(n + 1)]
        import numpy as np

        diag = np.floor(np.arange(n + 1, dtype=np.int64) * self.ratio).astype(np.int64)
        lo = np.maximum(diag - self.beam, 0)
        hi = np.minimum(diag + self.beam, self.n_ref + 1)
        hi[n] = self.n_ref + 1
        return list(zip(lo.tolist(), hi.tolist(), strict=True))

    def window(self, i: int) -> tuple[int, int]:
        """Columns ``[lo, hi)`` computed in row ``i``."""
        diag = math.floor(i * self.ratio)
        lo = max(0, diag - self.beam)
        hi = self.n_ref + 1 if i == self.n_hyp else min(self.n_ref + 1, diag + self.beam)
        return lo, hi

    def rows(self, hyp: Sequence[str], start: int, prev: list[int]) -> list[list[int]]:
        """Rows ``start+1 .. len(hyp)`` of the banded table given row ``start``."""
        ref = self.ref
        windows = self.windows
        blank = [INF] * (self.n_ref + 1)
        out: list[list[int]] = []
        for i in range(start + 1, len(hyp) + 1):
            word = hyp[i - 1]
            lo, hi = windows[i]
            row = blank.copy()
            first = lo
            if first == 0:
                row[0] = prev[0] + 1
                first = 1
            for j in range(first, hi):
                best = prev[j - 1] if word == ref[j - 1] else prev[j - 1] + 1
                up = prev[j] + 1
                if up < best:
                    best = up
                left = row[j - 1] + 1
                row[j] = left if left < best else best
            out.append(row)
            prev = row
        return out

    def distance(self, hyp: Sequence[str], base: Sequence[str], base_rows: Rows | ListRows) -> int:
        """The banded distance of ``hyp``; ``base_rows`` are the rows of ``base``."""
        codes = "".join(map(self.codes.__getitem__, hyp))
        exact = Levenshtein.distance(codes, self.ref_codes)
        if exact < self.beam:
            return int(exact)
        editops = Levenshtein.editops(codes, self.ref_codes).as_list()  # (tag, src, dest) tuples
        if self.in_band(cast("list[tuple[str, int, int]]", editops)):
            return int(exact)
        shared = 0
        for a, b in zip(hyp, base, strict=True):
            if a != b:
                break
            shared += 1
        start = base_rows[shared]
        rows = self.rows(hyp, shared, start)
        return (rows[-1] if rows else start)[-1]

    def in_band(self, editops: Iterable[tuple[str, int, int]]) -> bool:
        """Whether the path of ``editops`` (one shortest alignment) stays inside the band.

        Then the banded distance equals the unrestricted one: it is never smaller (its
        paths are a subset) and this path of the unrestricted length is one of them.
        """
        lo, hi = self.lo, self.hi
        i = 0  # the row reached; its column is on the diagonal of the next operation
        for tag, src, dest in (*editops, ("end", self.n_hyp, self.n_ref)):
            for row in range(i, src + 1):  # matches up to the operation, then its start cell
                col = row + dest - src
                if col < lo[row] or col >= hi[row]:
                    return False
            if tag == "insert":  # a reference word alone: the next column of this row
                if dest + 1 >= hi[src]:
                    return False
                i = src
            else:  # a substitution, or a hypothesis word alone (delete): the next row
                i = src + 1
        return True

    def trace(self, hyp: Sequence[str], band: Any = None) -> tuple[int, Rows | ListRows, list[int]]:
        """Distance, the table's rows, and the operations of the backtraced alignment.

        ``band``: the table's rows as :func:`band_rows` gives them, as a NumPy array
        (``ter_band.band_rows_many``), if already computed.
        """
        rows: Rows | ListRows
        if band is not None:
            rows = ArrayRows(self, band)
        elif self.n_ref < NUMPY_FROM:
            rows = ListRows([self.first_row, *self.rows(hyp, 0, self.first_row)])
        else:
            rows = Rows(self, band_rows(self, hyp))
        get = rows.value
        ops: list[int] = []
        i, j = len(hyp), self.n_ref
        ref = self.ref
        while i > 0 and j > 0:  # Tercom's preference: match/substitution, deletion, insertion
            value = get(i, j)
            same = hyp[i - 1] == ref[j - 1]
            diag = get(i - 1, j - 1) + (0 if same else 1)
            if diag == value and diag < INF:
                ops.append(NOP if same else SUB)
                i, j = i - 1, j - 1
            elif get(i - 1, j) + 1 == value:
                ops.append(DEL)
                i -= 1
            else:
                ops.append(INS)
                j -= 1
        ops += [DEL] * i + [INS] * j  # the table's first column, then its first row
        ops.reverse()
        return get(len(hyp), self.n_ref), rows, ops


class ListRows(list[list[int]]):
    """The rows of one banded table at full length (``BandedDistance.rows``)."""

    def value(self, i: int, j: int) -> int:
        """Cell ``(i, j)``."""
        return self[i][j]


class Rows:
    """The rows of one banded table, stored as their band (``band_rows``)."""

    def __init__(self, table: BandedDistance, band: list[list[int]]) -> None:
        self.table, self.band = table, band

    def value(self, i: int, j: int) -> int:
        """Cell ``(i, j)``; ``INF`` outside the band."""
        if i == 0:
            return j
        k = j - self.table.lo[i]
        return self.band[i][k + 1] if 0 <= k < self.table.hi[i] - self.table.lo[i] else INF

    def __getitem__(self, i: int) -> list[int]:
        """Row ``i`` at full length (``INF`` outside the band), as ``BandedDistance.rows``."""
        if i == 0:
            return self.table.first_row
        row = [INF] * (self.table.n_ref + 1)
        lo, hi = self.table.lo[i], self.table.hi[i]
        row[lo:hi] = self.band[i][1 : 1 + hi - lo]
        return row


class ArrayRows(Rows):
    """:class:`Rows` kept as a NumPy array (``ter_band.band_rows_many``).

    Cells are read one by one (``item``): the table is never turned into lists whole.
    """

    def __init__(self, table: BandedDistance, band: Any) -> None:
        super().__init__(table, band)
        self.array, self.cell = band, band.item

    def value(self, i: int, j: int) -> int:
        """Cell ``(i, j)``; ``INF`` outside the band."""
        if i == 0:
            return j
        k = j - self.table.lo[i]
        return int(self.cell(i, k + 1)) if 0 <= k < self.table.hi[i] - self.table.lo[i] else INF

    def __getitem__(self, i: int) -> list[int]:
        """Row ``i`` at full length (``INF`` outside the band), as ``BandedDistance.rows``."""
        if i == 0:
            return self.table.first_row
        row = [INF] * (self.table.n_ref + 1)
        lo, hi = self.table.lo[i], self.table.hi[i]
        row[lo:hi] = self.array[i, 1 : 1 + hi - lo].tolist()
        return row


def band_rows(table: BandedDistance, hyp: Sequence[str]) -> list[list[int]]:
    """Rows ``1 .. len(hyp)`` of the banded table, as bands (NumPy, one row at a time).

    Row ``i`` is ``[INF, D(i, lo), D(i, lo + 1), …]`` padded with ``INF``, for its
    window ``[lo, hi)``; index 0 is a dummy (the row's first entry). A row is
    ``D(i, j) = min(D(i-1, j-1) + [hyp ≠ ref], D(i-1, j) + 1, D(i, j-1) + 1)``: the first
    two terms for the whole band at once, the third as a running minimum of
    ``cand[k] − k`` (the same integers as the cell-by-cell loop of ``rows``).
    """
    import numpy as np

    n, m = len(hyp), table.n_ref
    lo = np.array(table.lo, dtype=np.int64)
    width = np.array(table.hi, dtype=np.int64) - lo
    width[0] = 0
    band = int(width.max()) if n else 0
    steps = np.diff(lo) if n else np.zeros(0, dtype=np.int64)
    step = int(steps.max()) if n else 0
    size = 1 + band + step + 1
    out = np.full((n + 1, size), INF, dtype=np.int64)
    k = np.arange(band, dtype=np.int64)
    cols = lo[1:, None] + k[None, :]  # column j of band cell k in rows 1..n
    ref_ids = np.array([ord(c) for c in table.ref_codes] + [-1], dtype=np.int64)
    hyp_ids = np.array([ord(table.codes[w]) for w in hyp], dtype=np.int64)
    neq = (ref_ids[np.clip(cols - 1, 0, m)] != hyp_ids[:, None]).astype(np.int64) - k
    step_one = 1 - k
    first = np.full(1 + m + 1 + int(lo[-1]) + band + 1, INF, dtype=np.int64)
    first[1 : m + 2] = np.arange(m + 1)  # row 0 as a band from column 0: D(0, j) = j
    cand = np.empty(band, dtype=np.int64)
    up = np.empty(band, dtype=np.int64)
    for i in range(1, n + 1):
        if i == 1:
            prev, s = first, int(lo[1])
        else:
            prev, s = out[i - 1], int(steps[i - 1])
        np.add(prev[s : s + band], neq[i - 1], out=cand)  # diagonal
        np.add(prev[s + 1 : s + 1 + band], step_one, out=up)  # from above
        np.minimum(cand, up, out=cand)
        row = out[i, 1 : 1 + band]
        np.minimum.accumulate(cand, out=row)
        row += k
        row[int(width[i]) :] = INF
    rows: list[list[int]] = out.tolist()
    return rows

r"""TER, translation edit rate (Snover et al. 2006), as sacrebleu computes it.

``TER = (shifts + edit distance after the shifts) / reference length``; several
references: the fewest edits over the references divided by their *average*
length (sacrebleu). An empty reference counts every hypothesis word as an edit
with length 0; a corpus with total length 0 scores 1 if there is any edit, else
0. Corpus TER = summed edits / summed lengths (statistics ``edits, ref_len``).
Lower is better; TER exceeds 1 when the hypothesis is much longer.

The search follows Tercom exactly as sacrebleu re-implements it:

* **Edit distance** is a Levenshtein distance restricted to a beam of ±25 cells
  (wider for very different lengths) around the "pseudo-diagonal" ``j = ⌊i·r⌋``,
  ``r = |ref| / |hyp|``. Ties prefer match/substitution, then deletion, then
  insertion; the backtraced operations give the alignment.
* **Shifts**: repeatedly, among word sequences of length ≤ 10 that occur in both
  texts at positions at most 50 apart, where the hypothesis words are misaligned
  and the reference words too, and for each target position taken from the
  alignment, the shift with the largest drop in edit distance is applied (ties:
  longer, earlier in the hypothesis, earlier target). The search stops when no
  shift helps or 1,000 candidates have been examined in total.

Speed without changing a number: each round first compares rapidfuzz's distance with
``max(n, m) − |hyp ∩ ref|`` (multisets), a bound no shift changes; when they are equal
below the beam no shift can gain and the search stops there. A path of cost ``d`` never
leaves the band ``|j − i·r| ≤ d`` (its insertions and deletions bound the drift), so
when the unrestricted distance (rapidfuzz, C++) is below the beam width the banded
distance equals it and the banded table is not needed. Nor is it when one shortest
unrestricted alignment (rapidfuzz's ``editops``) stays inside the band: the banded
distance is never smaller, and that path is a banded path. Only the remaining
candidates, and the one alignment per round, run the banded table in Python, starting
from the rows of the longest prefix the candidate shares with the current hypothesis.
For references of 400 words or more the alignment's table is built in NumPy, a row at a
time over its band (the same integers), because the cell loop's full-length rows cost
O(reference length) each; shorter ones keep the loop, which is faster there. The runs of
equal words within 50 positions are found by bisection in each word's sorted positions.
A corpus's searches run in lockstep in :mod:`assay.metrics.ter_lockstep` (the same numbers).

Text: :func:`assay.text.tercom.tercom_tokens` with the options ``normalized``,
``no_punct``, ``asian_support`` and ``case_sensitive`` (sacrebleu's defaults: all off).
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Generator, Iterable, Mapping, Sequence
from typing import Any, cast

from rapidfuzz.distance import Levenshtein

from assay.metrics.base import MetricSpec, Settings, Stats, bool_option
from assay.text.tercom import tercom_tokens

MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50
BEAM_WIDTH = 25
MAX_SHIFT_CANDIDATES = 1000
_INF = 10**16
_NUMPY_FROM = 400  # reference length from which a row costs less in NumPy than in a loop
_NOP, _SUB, _INS, _DEL = 0, 1, 2, 3  # table operations (hypothesis rows, reference columns)


def _beam(n_ref: int, hyp_len: int) -> int:
    """The band's half-width: ±25 cells, wider when the lengths differ a lot (sacrebleu)."""
    ratio = n_ref / hyp_len if hyp_len else 1.0
    return math.ceil(ratio / 2 + BEAM_WIDTH) if BEAM_WIDTH < ratio / 2 else BEAM_WIDTH


def _bag_bound(hyp_codes: str, ref_codes: str) -> int:
    """A lower bound of the edit distance that no shift changes.

    An alignment matches equal words one to one, so it has at most the multiset
    intersection ``c`` of matches and at least ``max(n, m) − c`` edits. A shift keeps
    the hypothesis's words, so every shifted candidate has this bound too.
    """
    common = Counter(hyp_codes) & Counter(ref_codes)
    return max(len(hyp_codes), len(ref_codes)) - sum(common.values())


class _BandedDistance:
    """The banded edit distance of hypotheses of one length against one reference."""

    def __init__(self, ref: Sequence[str], hyp_len: int, codes: dict[str, str]) -> None:
        self.ref = list(ref)
        self.codes = codes
        self.ref_codes = "".join(codes[w] for w in ref)
        self.n_ref = len(ref)
        self.n_hyp = hyp_len
        self.ratio = self.n_ref / hyp_len if hyp_len else 1.0
        self.beam = _beam(self.n_ref, hyp_len)
        self.first_row = list(range(self.n_ref + 1))
        self.windows = self._windows()
        self.lo = [lo for lo, _ in self.windows]
        self.hi = [self.n_ref + 1, *(hi for _, hi in self.windows[1:])]  # row 0 is whole

    def _windows(self) -> list[tuple[int, int]]:
        """:meth:`window` of every row ``0 … n_hyp``; in NumPy for long hypotheses.

        ``floor(i * ratio)`` is the same float64 product and floor in NumPy as in Python.
        """
        n = self.n_hyp
        if n < _NUMPY_FROM:
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
        blank = [_INF] * (self.n_ref + 1)
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

    def distance(
        self, hyp: Sequence[str], base: Sequence[str], base_rows: _Rows | _ListRows
    ) -> int:
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

    def trace(
        self, hyp: Sequence[str], band: Any = None
    ) -> tuple[int, _Rows | _ListRows, list[int]]:
        """Distance, the table's rows, and the operations of the backtraced alignment.

        ``band``: the table's rows as :func:`_band_rows` gives them, as a NumPy array
        (``ter_band.band_rows_many``), if already computed.
        """
        rows: _Rows | _ListRows
        if band is not None:
            rows = _ArrayRows(self, band)
        elif self.n_ref < _NUMPY_FROM:
            rows = _ListRows([self.first_row, *self.rows(hyp, 0, self.first_row)])
        else:
            rows = _Rows(self, _band_rows(self, hyp))
        get = rows.value
        ops: list[int] = []
        i, j = len(hyp), self.n_ref
        ref = self.ref
        while i > 0 and j > 0:  # Tercom's preference: match/substitution, deletion, insertion
            value = get(i, j)
            same = hyp[i - 1] == ref[j - 1]
            diag = get(i - 1, j - 1) + (0 if same else 1)
            if diag == value and diag < _INF:
                ops.append(_NOP if same else _SUB)
                i, j = i - 1, j - 1
            elif get(i - 1, j) + 1 == value:
                ops.append(_DEL)
                i -= 1
            else:
                ops.append(_INS)
                j -= 1
        ops += [_DEL] * i + [_INS] * j  # the table's first column, then its first row
        ops.reverse()
        return get(len(hyp), self.n_ref), rows, ops


class _ListRows(list[list[int]]):
    """The rows of one banded table at full length (``_BandedDistance.rows``)."""

    def value(self, i: int, j: int) -> int:
        """Cell ``(i, j)``."""
        return self[i][j]


class _Rows:
    """The rows of one banded table, stored as their band (``_band_rows``)."""

    def __init__(self, table: _BandedDistance, band: list[list[int]]) -> None:
        self.table, self.band = table, band

    def value(self, i: int, j: int) -> int:
        """Cell ``(i, j)``; ``_INF`` outside the band."""
        if i == 0:
            return j
        k = j - self.table.lo[i]
        return self.band[i][k + 1] if 0 <= k < self.table.hi[i] - self.table.lo[i] else _INF

    def __getitem__(self, i: int) -> list[int]:
        """Row ``i`` at full length (``_INF`` outside the band), as ``_BandedDistance.rows``."""
        if i == 0:
            return self.table.first_row
        row = [_INF] * (self.table.n_ref + 1)
        lo, hi = self.table.lo[i], self.table.hi[i]
        row[lo:hi] = self.band[i][1 : 1 + hi - lo]
        return row


class _ArrayRows(_Rows):
    """:class:`_Rows` kept as a NumPy array (``ter_band.band_rows_many``).

    Cells are read one by one (``item``): the table is never turned into lists whole.
    """

    def __init__(self, table: _BandedDistance, band: Any) -> None:
        super().__init__(table, band)
        self.array, self.cell = band, band.item

    def value(self, i: int, j: int) -> int:
        """Cell ``(i, j)``; ``_INF`` outside the band."""
        if i == 0:
            return j
        k = j - self.table.lo[i]
        return int(self.cell(i, k + 1)) if 0 <= k < self.table.hi[i] - self.table.lo[i] else _INF

    def __getitem__(self, i: int) -> list[int]:
        """Row ``i`` at full length (``_INF`` outside the band), as ``_BandedDistance.rows``."""
        if i == 0:
            return self.table.first_row
        row = [_INF] * (self.table.n_ref + 1)
        lo, hi = self.table.lo[i], self.table.hi[i]
        row[lo:hi] = self.array[i, 1 : 1 + hi - lo].tolist()
        return row


def _band_rows(table: _BandedDistance, hyp: Sequence[str]) -> list[list[int]]:
    """Rows ``1 .. len(hyp)`` of the banded table, as bands (NumPy, one row at a time).

    Row ``i`` is ``[_INF, D(i, lo), D(i, lo + 1), …]`` padded with ``_INF``, for its
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
    out = np.full((n + 1, size), _INF, dtype=np.int64)
    k = np.arange(band, dtype=np.int64)
    cols = lo[1:, None] + k[None, :]  # column j of band cell k in rows 1..n
    ref_ids = np.array([ord(c) for c in table.ref_codes] + [-1], dtype=np.int64)
    hyp_ids = np.array([ord(table.codes[w]) for w in hyp], dtype=np.int64)
    neq = (ref_ids[np.clip(cols - 1, 0, m)] != hyp_ids[:, None]).astype(np.int64) - k
    step_one = 1 - k
    first = np.full(1 + m + 1 + int(lo[-1]) + band + 1, _INF, dtype=np.int64)
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
        row[int(width[i]) :] = _INF
    rows: list[list[int]] = out.tolist()
    return rows


def _alignment(ops: Sequence[int]) -> tuple[list[int], list[int], list[int]]:
    """Per reference word its hypothesis position; error flags of both sides.

    The table rewrites the hypothesis into the reference; the alignment reads it
    the other way round, so a table deletion consumes a hypothesis word alone.
    """
    pos_hyp = pos_ref = -1
    align: list[int] = []
    ref_err: list[int] = []
    hyp_err: list[int] = []
    for op in ops:
        if op == _NOP or op == _SUB:
            pos_hyp += 1
            pos_ref += 1
            align.append(pos_hyp)
            hyp_err.append(op)
            ref_err.append(op)
        elif op == _DEL:  # hypothesis word without a reference word
            pos_hyp += 1
            hyp_err.append(1)
        else:  # reference word without a hypothesis word
            pos_ref += 1
            align.append(pos_hyp)
            ref_err.append(1)
    return align, ref_err, hyp_err


def _prefix(flags: Sequence[int]) -> list[int]:
    out = [0]
    for flag in flags:
        out.append(out[-1] + flag)
    return out


def perform_shift(words: Sequence[str], start: int, length: int, target: int) -> list[str]:
    """Move ``words[start:start+length]`` before position ``target`` (Tercom's rule)."""
    if target < start:
        return [*words[:target], *words[start : start + length], *words[target:start],
                *words[start + length :]]  # fmt: skip
    if target > start + length:
        return [*words[:start], *words[start + length : target],
                *words[start : start + length], *words[target:]]  # fmt: skip
    return [*words[:start], *words[start + length : length + target],
            *words[start : start + length], *words[length + target :]]  # fmt: skip


def _matching_runs(hyp: Sequence[str], ref: Sequence[str]) -> list[tuple[int, int, int]]:
    """``(start_h, start_r, length)`` of equal runs, in sacrebleu's enumeration order."""
    where: dict[str, list[int]] = {}
    for r, word in enumerate(ref):
        where.setdefault(word, []).append(r)
    n_h, n_r = len(hyp), len(ref)
    runs: list[tuple[int, int, int]] = []
    for start_h, word in enumerate(hyp):
        places = where.get(word)
        if places is None:
            continue
        first = bisect_left(places, start_h - MAX_SHIFT_DIST)  # |start_r - start_h| <= 50
        last = bisect_right(places, start_h + MAX_SHIFT_DIST, first)
        for start_r in places[first:last]:
            length = 0
            while hyp[start_h + length] == ref[start_r + length] and length < MAX_SHIFT_SIZE:
                length += 1
                runs.append((start_h, start_r, length))
                if n_h == start_h + length or n_r == start_r + length:
                    break
    return runs


_Traced = tuple[int, _Rows | _ListRows, list[int]]
_Request = tuple[_BandedDistance, list[str]]


def _best_shift(
    hyp: list[str], ref: Sequence[str], table: _BandedDistance, checked: int, traced: _Traced
) -> tuple[int, list[str], int, int]:
    """The shift that lowers the edit distance most; ``traced`` is ``table.trace(hyp)``.

    Returns ``(gain, shifted words, checked, distance of hyp)``.
    """
    score, rows, ops = traced
    align, ref_err, hyp_err = _alignment(ops)
    hyp_sum, ref_sum = _prefix(hyp_err), _prefix(ref_err)
    best: tuple[int, int, int, int] | None = None
    best_words = hyp
    for start_h, start_r, length in _matching_runs(hyp, ref):
        if hyp_sum[start_h + length] == hyp_sum[start_h]:
            continue
        if ref_sum[start_r + length] == ref_sum[start_r]:
            continue
        if start_h <= align[start_r] < start_h + length:
            continue
        prev_idx = -1
        for offset in range(-1, length):
            idx = 0 if start_r + offset == -1 else align[start_r + offset] + 1
            if idx == prev_idx:
                continue
            prev_idx = idx
            shifted = perform_shift(hyp, start_h, length, idx)
            key = (score - table.distance(shifted, hyp, rows), length, -start_h, -idx)
            checked += 1
            if best is None or key > best:
                best, best_words = key, shifted
        if checked >= MAX_SHIFT_CANDIDATES:
            break
    if best is None:
        return 0, hyp, checked, score
    return best[0], best_words, checked, score


def ter_edits(hyp: Sequence[str], ref: Sequence[str]) -> int:
    """Shifts plus the edit distance after them (sacrebleu's ``translation_edit_rate``)."""
    search = _search(hyp, ref)
    if isinstance(search, int):
        return search
    try:
        table, words = next(search)
        while True:
            table, words = search.send(table.trace(words))
    except StopIteration as stop:
        edits: int = stop.value
        return edits


def _search(hyp: Sequence[str], ref: Sequence[str]) -> int | Generator[_Request, _Traced, int]:
    """The edits of a pair settled without an alignment, else its search (:func:`_rounds`)."""
    if not ref:
        return len(hyp)
    if hyp == ref:  # distance 0: no shift can gain
        return 0
    codes: dict[str, str] = {}
    for word in (*ref, *hyp):
        if word not in codes:
            n = len(codes)
            codes[word] = chr(n if n < 0xD800 else n + 0x800)
    # Once the distance reaches the bound no shift gains: the search would stop there.
    # (Below the beam the banded distance is rapidfuzz's, as in ``_BandedDistance``.)
    ref_codes = "".join(map(codes.__getitem__, ref))
    bound = _bag_bound("".join(map(codes.__getitem__, hyp)), ref_codes)
    beam = _beam(len(ref), len(hyp))
    exact = Levenshtein.distance("".join(map(codes.__getitem__, hyp)), ref_codes)
    if exact == bound and exact < beam:
        return int(exact)
    return _rounds(hyp, ref, codes, (ref_codes, bound, beam))


def _rounds(
    hyp: Sequence[str], ref: Sequence[str], codes: dict[str, str], limits: tuple[str, int, int]
) -> Generator[_Request, _Traced, int]:
    """The shift rounds; yields ``(table, words)`` to get ``table.trace(words)``."""
    ref_codes, bound, beam = limits
    table = _BandedDistance(ref, len(hyp), codes)
    words, shifts, checked = list(hyp), 0, 0
    while True:
        traced = yield table, words
        gain, shifted, checked, distance = _best_shift(words, ref, table, checked, traced)
        if checked >= MAX_SHIFT_CANDIDATES or gain <= 0:
            return shifts + distance  # the distance of ``words``, the last shift not applied
        shifts += 1
        words = shifted
        exact = Levenshtein.distance("".join(map(codes.__getitem__, words)), ref_codes)
        if exact == bound and exact < beam:
            return shifts + exact


def ter_statistics(hyp: Sequence[str], refs: Sequence[Sequence[str]]) -> Stats:
    """``(edits, ref_len)``: fewest edits over ``refs`` and their average length."""
    return _edit_stats([ter_edits(hyp, ref) for ref in refs], refs)


def _edit_stats(edits: Sequence[int], refs: Sequence[Sequence[str]]) -> Stats:
    """:func:`ter_statistics` from each reference's edits (``edits[k]`` for ``refs[k]``)."""
    total = sum(len(ref) for ref in refs)
    return (min(edits), total if len(refs) == 1 else total / len(refs))


def _batch_stats(
    predictions: Sequence[str], targets_list: Sequence[Sequence[str]], s: Settings
) -> list[Stats]:
    """TER statistics of a corpus at once (:mod:`assay.metrics.ter_lockstep`)."""
    from assay.metrics.ter_lockstep import batch_stats

    return batch_stats(predictions, targets_list, s)


def ter_from_statistics(stats: Sequence[float]) -> float:
    """``edits / ref_len``; a zero length gives 1 with edits, else 0 (sacrebleu)."""
    edits, length = stats[0], stats[1]
    if length > 0:
        return edits / length
    return 1.0 if edits > 0 else 0.0


def _tokens(text: str, s: Settings) -> list[str]:
    p = s.params
    return tercom_tokens(
        text,
        normalized=p["normalized"],
        no_punct=p["no_punct"],
        asian_support=p["asian_support"],
        case_sensitive=p["case_sensitive"],
    )


def _stats(prediction: str, targets: Sequence[str], s: Settings) -> Stats:
    return ter_statistics(_tokens(prediction, s), [_tokens(t, s) for t in targets])


def _reduce(stats: Sequence[float], s: Settings) -> float:
    return ter_from_statistics(stats)


def _ter(prediction: str, targets: Sequence[str], s: Settings) -> float:
    return ter_from_statistics(_stats(prediction, targets, s))


def _names(params: Mapping[str, Any]) -> tuple[str, ...]:
    return ("edits", "ref_len")


METRICS = (
    MetricSpec(
        name="ter",
        fn=_ter,
        description="translation edit rate with Tercom shifts (sacrebleu TER); lower is better",
        citation="Snover et al. 2006, TER; sacrebleu's Tercom re-implementation",
        family="edit",
        multi="native",
        aggregation="corpus",
        higher_is_better=False,
        value_range=(0.0, math.inf),
        params=(
            bool_option("normalized", "normalized", "Tercom normalisation"),
            bool_option("no_punct", "no_punct", "remove punctuation"),
            bool_option("asian_support", "asian", "CJK splitting/punctuation"),
            bool_option("case_sensitive", "case", "keep case (default: lowercase)"),
        ),
        edge_cases={
            "empty prediction": "1 (every reference word is deleted)",
            "empty target": "1 when the prediction has words (all edits, length 0), else 0",
            "both empty": "0",
            "whitespace-only": "no words: same as empty",
            "punctuation-only": "words like any other unless no_punct removes them",
            "no shared tokens": "1 for equal lengths (every word substituted)",
            "exact match": "0",
            "repeated tokens": "aligned one by one; shifts move runs of ≤ 10 words",
        },
        stats_fn=_stats,
        batch_stats_fn=_batch_stats,
        stats_names=_names,
        reduce_fn=_reduce,
        corpus_from_stats=True,
    ),
)

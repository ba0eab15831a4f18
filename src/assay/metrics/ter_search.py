r"""The Tercom shift search of TER: a pair's edits from its tokens.

The search follows Tercom exactly as sacrebleu re-implements it (the definition of TER
is in :mod:`assay.metrics.ter`):

* **Edit distance** is a Levenshtein distance restricted to a beam of ±25 cells
  (wider for very different lengths) around the "pseudo-diagonal" ``j = ⌊i·r⌋``,
  ``r = |ref| / |hyp|``; its backtrace (ties: match/substitution, deletion, insertion)
  gives the alignment (:mod:`assay.metrics.ter_table`).
* **Shifts**: repeatedly, among word sequences of length ≤ 10 that occur in both
  texts at positions at most 50 apart, where the hypothesis words are misaligned
  and the reference words too, and for each target position taken from the
  alignment, the shift with the largest drop in edit distance is applied (ties:
  longer, earlier in the hypothesis, earlier target). The search stops when no
  shift helps or 1,000 candidates have been examined in total.

Speed without changing a number: each round first compares rapidfuzz's distance with
``max(n, m) − |hyp ∩ ref|`` (multisets), a bound no shift changes; when they are equal
below the beam no shift can gain and the search stops there. A candidate's banded
distance is rapidfuzz's unrestricted one where that distance or its alignment certifies
it, else its table restarts from the rows of the prefix it shares with the current
hypothesis (:mod:`assay.metrics.ter_table` says why, and when a table is built in
NumPy). The runs of equal words within 50 positions are found by bisection in each
word's sorted positions.

:func:`ter_edits` is one pair's search; :func:`shift_search` is the same search as a
generator that asks for each round's alignment, which
:mod:`assay.metrics.ter_lockstep` serves for many pairs at once. :func:`ter_statistics`
and :func:`edit_stats` give TER's ``(edits, ref_len)`` from the edits. This module
imports nothing of :mod:`assay.metrics.ter` nor of the lockstep driver.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Generator, Sequence

from rapidfuzz.distance import Levenshtein

from assay.metrics.base import Stats
from assay.metrics.ter_table import (
    DEL,
    NOP,
    SUB,
    BandedDistance,
    ListRows,
    Rows,
    beam_half_width,
)

MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50
MAX_SHIFT_CANDIDATES = 1000


def _bag_bound(hyp_codes: str, ref_codes: str) -> int:
    """A lower bound of the edit distance that no shift changes.

    An alignment matches equal words one to one, so it has at most the multiset
    intersection ``c`` of matches and at least ``max(n, m) − c`` edits. A shift keeps
    the hypothesis's words, so every shifted candidate has this bound too.
    """
    common = Counter(hyp_codes) & Counter(ref_codes)
    return max(len(hyp_codes), len(ref_codes)) - sum(common.values())


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
        if op == NOP or op == SUB:
            pos_hyp += 1
            pos_ref += 1
            align.append(pos_hyp)
            hyp_err.append(op)
            ref_err.append(op)
        elif op == DEL:  # hypothesis word without a reference word
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


Traced = tuple[int, Rows | ListRows, list[int]]
Request = tuple[BandedDistance, list[str]]


def _best_shift(
    hyp: list[str], ref: Sequence[str], table: BandedDistance, checked: int, traced: Traced
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
    search = shift_search(hyp, ref)
    if isinstance(search, int):
        return search
    try:
        table, words = next(search)
        while True:
            table, words = search.send(table.trace(words))
    except StopIteration as stop:
        edits: int = stop.value
        return edits


def shift_search(hyp: Sequence[str], ref: Sequence[str]) -> int | Generator[Request, Traced, int]:
    """The edits of a pair settled without an alignment, else its search (:func:`_rounds`).

    The search is a generator: it yields ``(table, words)`` and is sent
    ``table.trace(words)`` back, once per shift round (:func:`ter_edits` serves one
    pair so, :func:`assay.metrics.ter_lockstep.ter_edits_many` many at once); its
    return value is the pair's edits.
    """
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
    # (Below the beam the banded distance is rapidfuzz's, as in ``BandedDistance``.)
    ref_codes = "".join(map(codes.__getitem__, ref))
    bound = _bag_bound("".join(map(codes.__getitem__, hyp)), ref_codes)
    beam = beam_half_width(len(ref), len(hyp))
    exact = Levenshtein.distance("".join(map(codes.__getitem__, hyp)), ref_codes)
    if exact == bound and exact < beam:
        return int(exact)
    return _rounds(hyp, ref, codes, (ref_codes, bound, beam))


def _rounds(
    hyp: Sequence[str], ref: Sequence[str], codes: dict[str, str], limits: tuple[str, int, int]
) -> Generator[Request, Traced, int]:
    """The shift rounds; yields ``(table, words)`` to get ``table.trace(words)``."""
    ref_codes, bound, beam = limits
    table = BandedDistance(ref, len(hyp), codes)
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
    return edit_stats([ter_edits(hyp, ref) for ref in refs], refs)


def edit_stats(edits: Sequence[int], refs: Sequence[Sequence[str]]) -> Stats:
    """:func:`ter_statistics` from each reference's edits (``edits[k]`` for ``refs[k]``)."""
    total = sum(len(ref) for ref in refs)
    return (min(edits), total if len(refs) == 1 else total / len(refs))

"""ROUGE-Lsum's union-LCS hits for many items at once (numpy; import this module lazily).

For every (target sentence, predicted sentence) pair of every item, the LCS rows are
computed bit-parallel (Hyyrö 2004), one ``uint64`` per pair, all pairs in lockstep:
row ``i`` of every pair is one set of array operations. Bit ``b`` of a row ``V``
is clear when column ``b + 1`` raises the LCS of the row (``T[i][b+1] > T[i][b]``).

The traceback is rouge-score's (match → diagonal; otherwise up when
``T[i-1][j] == T[i][j]``, else left), done one row at a time for all pairs. In row
``i`` the difference ``T[i][j] - T[i-1][j]`` is 0 below a column ``k`` and 1 from
``k`` on, and ``k - 1`` is the lowest bit where rows ``i`` and ``i - 1`` differ. So
from column ``j`` the path walks left to the highest column ``≤ j`` that either
matches the target token (a diagonal: target position ``i - 1`` is on the LCS) or
lies below ``k`` (a step up). That highest bit comes from the float exponent of the
candidate mask (``frexp``; exact below 2⁵³, hence :data:`MAX_WIDTH`).

The union of the positions over the predicted sentences, then the clipping of
ROUGE 1.5.5 (a token counts at most as often as it occurs in the prediction: the
union never holds a target token more often than the target does), gives
``Σ_token min(union count, prediction count)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

import numpy as np
import numpy.typing as npt

MAX_WIDTH = 52  # longest predicted sentence a pair's uint64 row holds with exact frexp

Sentences = Sequence[Sequence[str]]
U64 = npt.NDArray[np.uint64]
_ONE = np.uint64(1)


class _Corpus:
    """The flat arrays of the items that fit (every predicted sentence ≤ MAX_WIDTH)."""

    def __init__(self) -> None:
        self.items: list[int] = []  # index of each kept item in the input
        self.can_ids: list[int] = []  # local token id of every predicted token
        self.can_lens: list[int] = []  # length of each predicted sentence
        self.ref_ids: list[int] = []  # local token id of every target token
        self.ref_lens: list[int] = []  # length of each target sentence
        self.n_cans: list[int] = []  # predicted sentences per kept item
        self.n_refs: list[int] = []  # target sentences per kept item
        self.vocab: list[int] = []  # distinct tokens per kept item

    def add(self, index: int, refs: Sentences, cans: Sentences) -> None:
        vocab = {tok: n for n, tok in enumerate(dict.fromkeys(chain(*refs, *cans)))}
        get = vocab.__getitem__
        self.items.append(index)
        for can in cans:
            self.can_ids.extend(map(get, can))
            self.can_lens.append(len(can))
        for ref in refs:
            self.ref_ids.extend(map(get, ref))
            self.ref_lens.append(len(ref))
        self.n_cans.append(len(cans))
        self.n_refs.append(len(refs))
        self.vocab.append(len(vocab))


def union_hits(items: Sequence[tuple[Sentences, Sentences]]) -> list[int | None]:
    """Union-LCS hits of each ``(target sentences, predicted sentences)`` item.

    Empty sentences are ignored. ``None`` for an item with a predicted sentence
    longer than :data:`MAX_WIDTH` tokens (score it with the general path).
    """
    out: list[int | None] = [None] * len(items)
    corpus = _Corpus()
    for index, (refs, cans) in enumerate(items):
        refs = [ref for ref in refs if ref]
        cans = [can for can in cans if can]
        if not refs or not cans:
            out[index] = 0
        elif max(map(len, cans)) <= MAX_WIDTH:
            corpus.add(index, refs, cans)
    if corpus.items:
        for index, hits in zip(corpus.items, _hits(corpus), strict=True):
            out[index] = int(hits)
    return out


def _hits(c: _Corpus) -> npt.NDArray[np.int64]:
    n_cans, n_refs = np.array(c.n_cans), np.array(c.n_refs)
    vocab = np.array(c.vocab) + 1  # one more id per item: the padding token, never matched
    key_base = np.concatenate(([0], np.cumsum(vocab)[:-1]))  # item's first global token key
    # table of position masks, one row of n_cans entries per (item, token): key * n + can
    table_base = np.concatenate(([0], np.cumsum(vocab * n_cans)[:-1]))
    can_item = np.repeat(np.arange(len(n_cans)), n_cans)
    can_in_item = np.arange(len(can_item)) - np.repeat(np.cumsum(n_cans) - n_cans, n_cans)
    can_lens = np.array(c.can_lens)
    tok_can = np.repeat(np.arange(len(can_lens)), can_lens)
    tok_col = np.arange(len(tok_can)) - np.repeat(np.cumsum(can_lens) - can_lens, can_lens)
    can_ids = np.array(c.can_ids)
    tok_item = can_item[tok_can]
    slots = table_base[tok_item] + can_ids * n_cans[tok_item] + can_in_item[tok_can]
    weights = np.ldexp(1.0, tok_col)  # distinct powers of two below 2**52: the sum is exact
    table = np.bincount(slots, weights, int(np.sum(vocab * n_cans))).astype(np.uint64)

    ref_lens = np.array(c.ref_lens)
    ref_item = np.repeat(np.arange(len(n_refs)), n_refs)
    width = int(ref_lens.max())
    # ref_base[g, i]: where the masks of target sentence g's token i start in the table
    pad = table_base + (vocab - 1) * n_cans
    ref_base = np.repeat(pad[ref_item][:, None], width, axis=1)
    rows = np.repeat(np.arange(len(ref_lens)), ref_lens)
    cols = np.arange(len(rows)) - np.repeat(np.cumsum(ref_lens) - ref_lens, ref_lens)
    ref_ids = np.array(c.ref_ids)
    ref_base[rows, cols] = table_base[ref_item[rows]] + ref_ids * n_cans[ref_item[rows]]

    pairs = n_refs * n_cans
    pair_item = np.repeat(np.arange(len(pairs)), pairs)
    q = np.arange(len(pair_item)) - np.repeat(np.cumsum(pairs) - pairs, pairs)
    pair_ref = np.repeat(np.cumsum(n_refs) - n_refs, pairs) + q // n_cans[pair_item]
    pair_can_in = q % n_cans[pair_item]
    pair_can = np.repeat(np.cumsum(n_cans) - n_cans, pairs) + pair_can_in
    seg = (np.left_shift(_ONE, can_lens[pair_can].astype(np.uint64)) - _ONE).astype(np.uint64)
    ref_starts = np.cumsum(n_cans[ref_item]) - n_cans[ref_item]

    union = np.zeros((width, len(ref_lens)), dtype=bool)  # on some pair's LCS path
    for first, last in _chunks(ref_starts, len(pair_ref)):
        lo, hi = ref_starts[first], ref_starts[last] if last < len(ref_starts) else len(pair_ref)
        index = ref_base[first:last].T[:, pair_ref[lo:hi] - first] + pair_can_in[lo:hi]
        matches = list(table[index])
        rows_v = _forward(seg[lo:hi], matches)
        union[:, first:last] = _traceback(seg[lo:hi], matches, rows_v, ref_starts[first:last] - lo)

    hit_keys = (key_base[ref_item][rows] + ref_ids)[union[cols, rows]]
    n_keys = int(vocab.sum())
    union_count = np.bincount(hit_keys, minlength=n_keys)
    can_count = np.bincount(key_base[tok_item] + can_ids, minlength=n_keys)
    key_item = np.repeat(np.arange(len(vocab)), vocab)
    clipped = np.minimum(union_count, can_count)
    return np.bincount(key_item, clipped, len(vocab)).astype(np.int64)


CHUNK_PAIRS = 8192  # pairs per block of array operations: the rows stay in cache


def _chunks(ref_starts: npt.NDArray[np.int64], n_pairs: int) -> list[tuple[int, int]]:
    """Ranges of target sentences holding about :data:`CHUNK_PAIRS` pairs each."""
    cuts = np.searchsorted(ref_starts, np.arange(CHUNK_PAIRS, n_pairs, CHUNK_PAIRS))
    bounds = [0, *sorted(set(cuts.tolist()) - {0, len(ref_starts)}), len(ref_starts)]
    return list(zip(bounds[:-1], bounds[1:], strict=False))


def _forward(seg: U64, matches: list[U64]) -> list[U64]:
    """The bit-parallel LCS rows ``V_0 … V_width`` of every pair."""
    v = seg.copy()
    rows = [v]
    for m in matches:
        u = v & m
        v = ((v + u) | (v ^ u)) & seg
        rows.append(v)
    return rows


def _traceback(
    seg: U64, matches: list[U64], rows: list[U64], ref_starts: npt.NDArray[np.int64]
) -> npt.NDArray[np.bool_]:
    """``union[i, g]``: target sentence ``g``'s position ``i`` is on some pair's LCS path."""
    width = len(matches)
    guard = seg + _ONE
    below = seg.copy()  # columns 1 … j of each pair's current cell (row i, column j)
    union = np.zeros((width, len(ref_starts)), dtype=bool)
    for i in range(width, 0, -1):
        m = matches[i - 1]
        new, old = rows[i], rows[i - 1]
        rise = (((new & ~old) | guard) - (old & ~new)) & seg  # T[i][j] - T[i-1][j] == 1
        flat = seg ^ rise
        stop = (m | flat) & below
        exponent = np.frexp(stop.astype(np.float64))[1].astype(np.uint64)
        at_or_below = np.left_shift(_ONE, exponent) - _ONE  # 0 when the path has ended
        highest = at_or_below ^ (at_or_below >> _ONE)
        hit = highest & m
        below = at_or_below ^ hit
        union[i - 1] = np.logical_or.reduceat(hit != 0, ref_starts)
    return union

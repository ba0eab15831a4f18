"""ROUGE-Lsum's union-LCS hits for many items at once (numpy; import this module lazily).

For a (target sentence, predicted sentence) pair the LCS rows are computed
bit-parallel (Hyyrö 2004), one ``uint64`` per pair, all pairs of a batch in
lockstep (longest target first, so row ``i`` runs on a prefix of the pairs). Bit
``b`` of a row ``V`` is clear when column ``b + 1`` raises the LCS of the row.

The traceback is rouge-score's (match → diagonal; otherwise up when
``T[i-1][j] == T[i][j]``, else left), one row at a time for all pairs: from column
``j`` the path walks left to the highest column ``≤ j`` that either matches the
target token (a diagonal: target position ``i - 1`` is on the LCS) or where
``T[i][j] == T[i-1][j]`` (a step up). That highest bit comes from the float
exponent (``frexp``; exact below 2⁵³, hence :data:`MAX_WIDTH`).

Most pairs need no traceback: a pair can only add target positions holding one of
its predicted sentence's tokens (its *reach*), so once those are all in the union
the pair is skipped. The pairs run in rounds: first each target sentence with the
predicted sentence at the same relative place, then, per target sentence, the
predicted sentence reaching the most positions not yet in the union (a few
rounds, ended early once :data:`LAST_ROUND_PAIRS` or fewer pairs are left: a round
has a fixed cost of some hundred array operations), then every pair still reaching
an uncovered position. Items with more
than 64 predicted sentences run all their pairs in the first round.

The union over the predicted sentences, then the clipping of ROUGE 1.5.5 (a token
counts at most as often as it occurs in the prediction: the union never holds a
target token more often than the target does), gives
``Σ_token min(union count, prediction count)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

import numpy as np
import numpy.typing as npt

MAX_WIDTH = 52  # longest predicted sentence a pair's uint64 row holds with exact floats
MAX_CANS = 64  # predicted sentences per item from which the pairs are pruned (one uint64)
GREEDY_ROUNDS = 6  # rounds of one best pair per target sentence before the last round
LAST_ROUND_PAIRS = 4096  # pairs few enough for one last round: a round more costs more
CHUNK_PAIRS = 8192  # pairs per block of array operations: the rows stay in cache

Sentences = Sequence[Sequence[str]]
U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
_ONE = np.uint64(1)


class _Corpus:
    """The flat token lists of the items that fit (every predicted sentence ≤ MAX_WIDTH)."""

    def __init__(self) -> None:
        self.items: list[int] = []  # index of each kept item in the input
        self.first: list[int] = []  # per token (an item's cans, then its refs): first position
        self.can_lens: list[int] = []  # length of each predicted sentence
        self.ref_lens: list[int] = []  # length of each target sentence
        self.n_cans: list[int] = []  # predicted sentences per kept item
        self.n_refs: list[int] = []  # target sentences per kept item
        self.n_can_tokens: list[int] = []  # predicted tokens per kept item
        self.n_tokens: list[int] = []  # predicted and target tokens per kept item

    def add(self, index: int, refs: Sentences, cans: Sentences) -> None:
        tokens = list(chain(*cans, *refs))
        start = len(self.first)
        seen: dict[str, int] = {}
        self.first.extend(map(seen.setdefault, tokens, range(start, start + len(tokens))))
        self.items.append(index)
        self.can_lens.extend(map(len, cans))
        self.ref_lens.extend(map(len, refs))
        self.n_cans.append(len(cans))
        self.n_refs.append(len(refs))
        self.n_can_tokens.append(sum(self.can_lens[-len(cans) :]))
        self.n_tokens.append(len(tokens))


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
        for index, hits in zip(corpus.items, _Union(corpus).hits(), strict=True):
            out[index] = int(hits)
    return out


def _ints(values: list[int]) -> I64:
    """An ``int64`` array of ints (``fromiter``: ``np.array`` of a long list is slower)."""
    return np.fromiter(values, dtype=np.int64, count=len(values))


def _starts(lengths: I64) -> I64:
    return np.cumsum(lengths) - lengths


def _segments(lengths: I64) -> tuple[I64, I64]:
    """``(segment, offset in segment)`` of every element of segments of these lengths."""
    seg = np.repeat(np.arange(len(lengths)), lengths)
    return seg, np.arange(len(seg)) - _starts(lengths)[seg]


class _Union:
    """The arrays of one corpus and the target positions on some pair's LCS path."""

    def __init__(self, c: _Corpus) -> None:
        first = _ints(c.first)
        is_first = np.zeros(len(first), dtype=bool)
        is_first[first] = True
        key = (np.cumsum(is_first) - 1)[first]  # dense id of each (item, token)
        n_items = len(c.items)
        tok_item, in_item = _segments(_ints(c.n_tokens))
        is_can = in_item < _ints(c.n_can_tokens)[tok_item]
        key_pos = np.flatnonzero(is_first)
        self.key_item = tok_item[key_pos]
        n_keys = len(key_pos)
        key_is_can = is_can[key_pos]

        n_cans, n_refs = _ints(c.n_cans), _ints(c.n_refs)
        self.can_lens = _ints(c.can_lens)
        self.can_first = _starts(n_cans)  # first predicted sentence of each item
        can_tok = np.flatnonzero(is_can)
        self.can_key = key[can_tok]
        tok_can, col = _segments(self.can_lens)
        can_item = np.repeat(np.arange(n_items), n_cans)
        can_local = np.arange(len(can_item)) - self.can_first[can_item]
        tok_local = can_local[tok_can]
        # mask table: one row of n_cans entries per key met in a prediction; then zeros
        row_width = np.where(key_is_can, n_cans[self.key_item], 0)
        row_base = _starts(row_width)
        self.zero = int(row_width.sum())
        self.table = np.zeros(self.zero + int(n_cans.max()), dtype=np.uint64)
        slots = row_base[self.can_key] + tok_local
        np.bitwise_or.at(self.table, slots, np.left_shift(_ONE, col.astype(np.uint64)))
        canset = np.zeros(n_keys, dtype=np.uint64)  # bit c: predicted sentence c holds the key
        small = n_cans[can_item[tok_can]] <= MAX_CANS
        np.bitwise_or.at(
            canset, self.can_key[small], np.left_shift(_ONE, tok_local[small].astype(np.uint64))
        )

        self.ref_lens = _ints(c.ref_lens)
        ref_key = key[np.flatnonzero(~is_can)]
        self.ref_key = ref_key
        self.ref_start = _starts(self.ref_lens)
        self.ref_item = np.repeat(np.arange(n_items), n_refs)
        self.ref_local = np.arange(len(self.ref_item)) - _starts(n_refs)[self.ref_item]
        self.n_cans, self.n_refs = n_cans, n_refs
        self.row_slot = np.where(key_is_can[ref_key], row_base[ref_key], self.zero)
        self.reach = canset[ref_key]  # per target token: the predicted sentences holding it
        self.covered = np.zeros(len(ref_key), dtype=bool)
        self.n_keys = n_keys

    def hits(self) -> I64:
        """``Σ_token min(union count, prediction count)`` of every item."""
        self._rounds()
        union_count = np.bincount(self.ref_key[self.covered], minlength=self.n_keys)
        can_count = np.bincount(self.can_key, minlength=self.n_keys)
        clipped = np.minimum(union_count, can_count)
        return np.bincount(self.key_item, clipped, len(self.n_cans)).astype(np.int64)

    def _rounds(self) -> None:
        """Trace the pairs round by round, skipping those that cannot add a position."""
        n_cans = self.n_cans[self.ref_item]
        pruned = n_cans <= MAX_CANS
        aligned = np.flatnonzero(pruned)
        every = np.flatnonzero(~pruned)
        every_g = np.repeat(every, n_cans[every])
        every_c = np.arange(len(every_g)) - np.repeat(_starts(n_cans[every]), n_cans[every])
        g = np.concatenate((aligned, every_g))
        c = np.concatenate(
            ((self.ref_local[aligned] * n_cans[aligned]) // self.n_refs[self.ref_item[aligned]],
             every_c)
        )  # fmt: skip
        done = np.zeros(len(n_cans), dtype=np.uint64)  # bit c: pair (g, c) traced
        greedy = 0
        while True:
            self._trace(g, c)
            small = pruned[g]
            np.bitwise_or.at(done, g[small], np.left_shift(_ONE, c[small].astype(np.uint64)))
            left = np.where(self.covered, np.uint64(0), self.reach)
            needed = np.bitwise_or.reduceat(left, self.ref_start) & ~done
            needed[~pruned] = 0
            bits = np.unpackbits(needed.view(np.uint8), bitorder="little").reshape(-1, 64)
            n_pairs = int(bits.sum(dtype=np.int64))
            if not n_pairs:
                return
            if (
                greedy == GREEDY_ROUNDS
                or n_pairs <= LAST_ROUND_PAIRS
                or n_pairs <= 1.5 * np.count_nonzero(needed)
            ):
                self._trace(*np.nonzero(bits))  # the last round: every pair still needed
                return
            g, c = self._best_pairs(left, needed)
            greedy += 1

    def _best_pairs(self, left: U64, needed: U64) -> tuple[I64, I64]:
        """Per open target sentence, the needed predicted sentence reaching most open tokens."""
        at = np.flatnonzero(left)
        tok_g = np.repeat(np.arange(len(self.ref_lens)), self.ref_lens)[at]
        cut = np.flatnonzero(np.concatenate(([True], tok_g[1:] != tok_g[:-1])))
        bits = np.unpackbits(left[at].view(np.uint8), bitorder="little").reshape(-1, 64)
        counts = np.add.reduceat(bits, cut, axis=0, dtype=np.int32)
        sent = tok_g[cut]
        allowed = np.unpackbits(needed[sent].view(np.uint8), bitorder="little").reshape(-1, 64)
        counts *= allowed
        best = counts.argmax(axis=1)
        keep = counts[np.arange(len(sent)), best] > 0
        return sent[keep], best[keep]

    def _trace(self, g: I64, c: I64) -> None:
        """Mark the target positions on the LCS path of each pair ``(g[p], c[p])``."""
        if not len(g):
            return
        lens = self.ref_lens[g]
        order = np.argsort(-lens, kind="stable")  # longest target first: rows run on a prefix
        g, c, lens = g[order], c[order], lens[order]
        can = self.can_first[self.ref_item[g]] + c
        seg = (np.left_shift(_ONE, self.can_lens[can].astype(np.uint64)) - _ONE).astype(np.uint64)
        for lo in range(0, len(g), CHUNK_PAIRS):
            hi = min(lo + CHUNK_PAIRS, len(g))
            hit = _traceback(
                seg[lo:hi], self._matches(self.ref_start[g[lo:hi]], c[lo:hi], lens[lo:hi])
            )
            pairs = np.concatenate(hit)
            rows = np.repeat(np.arange(len(hit)), [len(h) for h in hit])
            self.covered[self.ref_start[g[lo + pairs]] + rows] = True

    def _matches(self, starts: I64, c: I64, lens: I64) -> list[U64]:
        """Per target row, the match masks of the pairs still running (a prefix)."""
        width = np.searchsorted(-lens, -np.arange(lens[0]), side="left")  # pairs with lens > row
        row, pair = _segments(width)  # the cells row by row, each row on a prefix of the pairs
        masks = self.table[self.row_slot[starts[pair] + row] + c[pair]]
        ends = np.cumsum(width).tolist()
        return [masks[lo:hi] for lo, hi in zip([0, *ends[:-1]], ends, strict=True)]


def _traceback(seg: U64, matches: list[U64]) -> list[I64]:
    """Per target row, the pairs whose LCS path takes that row's token (rouge-score's rule)."""
    v = seg.copy()
    rows = [v]
    for m in matches:
        n = len(m)
        v = v.copy()
        head = v[:n]
        u = head & m
        v[:n] = ((head + u) | (head ^ u)) & seg[:n]
        rows.append(v)
    guard = seg + _ONE
    below = seg.copy()  # columns 1 … j of each pair's current cell (row i, column j)
    out: list[I64] = [np.zeros(0, dtype=np.int64)] * len(matches)
    for row in range(len(matches) - 1, -1, -1):
        m = matches[row]
        n = len(m)
        new, old, s = rows[row + 1][:n], rows[row][:n], seg[:n]
        rise = (((new & ~old) | guard[:n]) - (old & ~new)) & s  # T[i][j] - T[i-1][j] == 1
        stop = (m | (s ^ rise)) & below[:n]
        exponent = np.frexp(stop.astype(np.float64))[1].astype(np.uint64)
        at_or_below = np.left_shift(_ONE, exponent) - _ONE  # 0 when the path has ended
        hit = (at_or_below ^ (at_or_below >> _ONE)) & m
        below[:n] = at_or_below ^ hit
        out[row] = np.flatnonzero(hit)
    return out

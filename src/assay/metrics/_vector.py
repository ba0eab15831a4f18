"""Vectorised n-gram clipping for whole corpora (numpy; import this module lazily).

Every text of a corpus is mapped to dense integer ids and concatenated into one
array. For order ``n`` the n-gram starting at position ``i`` gets the key
``k_n[i] = k_{n-1}[i] · V + id[i + n − 1]`` (``V`` = number of distinct ids);
positions whose n-gram would cross the end of their text are dropped. When a key
would not fit in 63 bits the previous order's keys are first renumbered densely
(``np.unique``); if even that cannot fit, :class:`OverflowError` tells the caller
to use its pure-Python path.

Texts belong to *groups* (a segment, or a hypothesis/reference pair). Each group
has one hypothesis text and any number of reference texts; the result per group
and order is the clipped match count ``Σ_g min(hyp_g, max_refs ref_g)``, computed
with one sort per order (:func:`clipped_matches`), or, when every group of a chunk
has one reference and all orders' keys fit in one integer, with one sort for all
orders (:func:`_single_sorted_once`). The callers turn these counts into exactly
the statistics of their per-item paths (the tests check equality).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from itertools import chain, count

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
_LIMIT = 1 << 62  # keys (times 4 or the reference count) stay below this: room for side bits


@dataclass(frozen=True, slots=True)
class Packed:
    """Texts as one array of dense ids: ``ids``, per-text ``lengths`` and ``vocab`` size."""

    ids: IntArray
    lengths: IntArray
    vocab: int


def pack_tokens(texts: Sequence[Sequence[Hashable]]) -> Packed:
    """Pack token sequences, numbering distinct tokens in order of appearance.

    One dict pass: ``setdefault`` gives each token the position of its first
    occurrence, and those positions, renumbered in order, are the dense ids.
    """
    flat = list(chain.from_iterable(texts))
    first: dict[Hashable, int] = {}
    at = np.fromiter(map(first.setdefault, flat, count()), dtype=np.int64, count=len(flat))
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    is_first = np.zeros(len(flat), dtype=bool)
    is_first[at] = True
    ids = np.cumsum(is_first) - 1
    return Packed(ids[at], lengths, max(len(first), 1))


def pack_chars(texts: Sequence[str]) -> Packed:
    """Pack strings as code points renumbered densely."""
    points = np.frombuffer("".join(texts).encode("utf-32-le", "surrogatepass"), dtype="<u4").astype(
        np.int64
    )
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    if not len(points):
        return Packed(points, lengths, 1)
    present = np.zeros(int(points.max()) + 1, dtype=np.int64)
    present[points] = 1
    renumber = np.cumsum(present) - 1
    return Packed(renumber[points], lengths, int(present.sum()))


def _dense(keys: IntArray) -> tuple[IntArray, int]:
    uniq, inverse = np.unique(keys, return_inverse=True)
    return inverse.astype(np.int64).reshape(-1), max(len(uniq), 1)


def clipped_matches(
    packed: Packed, group: IntArray, slot: IntArray, n_groups: int, max_order: int
) -> IntArray:
    """Clipped match counts, shape ``(max_order, n_groups)``.

    Texts must be packed group by group (a group's texts are contiguous). The work
    is split into chunks of about :data:`CHUNK` positions so that the arrays being
    sorted stay in the processor's cache.

    Args:
        packed: the texts.
        group: per text, its group index (``0 ≤ group < n_groups``, non-decreasing).
        slot: per text, ``0`` for the group's hypothesis, ``1..K`` for its references.
        n_groups: the number of groups.
        max_order: the highest n-gram order.
    """
    out = np.zeros((max_order, n_groups), dtype=np.int64)
    ends = np.cumsum(packed.lengths)
    text_start = 0
    while text_start < len(packed.lengths):
        offset = int(ends[text_start - 1]) if text_start else 0
        text_end = int(np.searchsorted(ends, offset + CHUNK, side="right"))
        text_end = max(text_end, text_start + 1)
        while text_end < len(group) and group[text_end] == group[text_end - 1]:
            text_end += 1  # never split a group
        lengths = packed.lengths[text_start:text_end]
        chunk = Packed(packed.ids[offset : offset + int(lengths.sum())], lengths, packed.vocab)
        first = int(group[text_start])
        local = group[text_start:text_end] - first
        counts = _chunk_matches(chunk, local, slot[text_start:text_end], max_order)
        out[:, first : first + counts.shape[1]] += counts
        text_start = text_end
    return out


CHUNK = 1 << 14
"""Positions per chunk of :func:`clipped_matches`."""


def _chunk_matches(packed: Packed, group: IntArray, slot: IntArray, max_order: int) -> IntArray:
    """:func:`clipped_matches` for one chunk (groups numbered from 0)."""
    n_groups = int(group[-1]) + 1
    out = np.zeros((max_order, n_groups), dtype=np.int64)
    total = len(packed.ids)
    if not total:
        return out
    if int(slot.max()) <= 1:
        once = _single_sorted_once(packed, group, slot, max_order, n_groups)
        if once is not None:
            return once
    return _per_order_matches(packed, group, slot, max_order, n_groups)


def _per_order_matches(
    packed: Packed, group: IntArray, slot: IntArray, max_order: int, n_groups: int
) -> IntArray:
    """:func:`_chunk_matches` with one sort per order (any number of references)."""
    out = np.zeros((max_order, n_groups), dtype=np.int64)
    total = len(packed.ids)
    ends = np.cumsum(packed.lengths)
    room = np.repeat(ends, packed.lengths) - np.arange(total)
    group_at = np.repeat(group, packed.lengths)
    slot_at = np.repeat(slot, packed.lengths)
    side_at = slot_at.copy()  # the side, or 2 once the n-gram would pass its text's end
    n_slots = int(slot.max()) + 1
    keys, bound = packed.ids, packed.vocab
    for n in range(1, max_order + 1):
        if n > 1:
            if bound * packed.vocab >= _LIMIT:
                keys, bound = _dense(keys)
                if bound * packed.vocab >= _LIMIT:
                    raise OverflowError("n-gram keys do not fit in 63 bits")
            keys = keys[:-1] * packed.vocab + packed.ids[n - 1 :]
            bound *= packed.vocab
        size = len(keys)
        if n_groups * bound * max(n_slots, 4) >= _LIMIT:
            keys, bound = _dense(keys)
            if n_groups * bound * max(n_slots, 4) >= _LIMIT:
                raise OverflowError("group × n-gram keys do not fit in 63 bits")
        grouped = group_at[:size] * bound + keys
        if n_slots <= 2:  # one reference per group
            if n > 1:
                side_at[(ends - (n - 1))[packed.lengths >= n - 1]] = 2
            matched, owners = _clip_single(grouped, side_at[:size])
        else:
            valid = np.flatnonzero(room[:size] >= n)
            matched, owners = _clip_multi(grouped[valid], slot_at[valid], n_slots)
        out[n - 1] = np.bincount(owners // bound, weights=matched, minlength=n_groups)
    return out


def _single_sorted_once(
    packed: Packed, group: IntArray, slot: IntArray, max_order: int, n_groups: int
) -> IntArray | None:
    """One reference per group, every order from one sort (``None``: the keys do not fit).

    Each position gets the key ``group, d_1 .. d_N, side`` (``N`` = ``max_order``
    digits of ``bits`` bits): ``d_k`` is the id + 1 of the k-th token of the n-gram
    starting there, or a sentinel past its text's end (0 on the hypothesis side, all
    ones on the reference side, so no n-gram crossing an end is ever shared). Sorted,
    the positions whose n-grams of order ``n`` are equal are contiguous for every
    ``n`` (the first ``n`` digits are a prefix of the key), so each order's runs come
    from a comparison of neighbours instead of a sort of its own
    (:func:`_sorted_matches`).
    """
    bits = int(packed.vocab + 1).bit_length()  # digits 1..vocab, both sentinels apart
    ids = packed.ids + 1
    if (n_groups - 1).bit_length() + bits * max_order + 1 > 62:
        ids, bits = _local_ids(packed.ids, packed.vocab)
        if (n_groups - 1).bit_length() + bits * max_order + 1 > 62:
            return None
    total = len(ids)
    side = np.repeat(slot, packed.lengths)
    key = np.repeat(group, packed.lengths)
    padded = np.concatenate((ids, np.zeros(max_order, dtype=np.int64)))
    if len(packed.lengths) * (max_order - 1) <= _END_KEYS_BELOW * total:
        for k in range(max_order):  # every digit as if the text went on, fixed below
            key <<= bits
            key |= padded[k : k + total]
        key <<= 1
        key |= side
        near, keys = _end_keys(padded, packed.lengths, group, slot, bits, max_order)
        key[near] = keys
    else:  # short texts: most positions are near an end
        room = np.repeat(np.cumsum(packed.lengths), packed.lengths) - np.arange(total)
        sentinel = side * ((1 << bits) - 1)
        for k in range(max_order):
            digit = padded[k : k + total]
            key = (key << bits) | (np.where(room > k, digit, sentinel) if k else digit)
        key = (key << 1) | side
    key.sort()
    return _sorted_matches(key, bits, max_order, n_groups)


def _end_keys(
    padded: IntArray, lengths: IntArray, group: IntArray, slot: IntArray, bits: int, max_order: int
) -> tuple[IntArray, IntArray]:
    """The positions within ``max_order - 1`` of their text's end and their keys.

    Those are the only positions whose n-grams can pass the end: their digits past it
    are the side's sentinel (see :func:`_single_sorted_once`).
    """
    back = np.arange(1, max_order, dtype=np.int64)  # room: positions left in the text
    inside = back[None, :] <= lengths[:, None]
    near = (np.cumsum(lengths)[:, None] - back[None, :])[inside]
    room = np.broadcast_to(back, inside.shape)[inside]
    text = np.broadcast_to(np.arange(len(lengths))[:, None], inside.shape)[inside]
    side = slot[text]
    sentinel = side * ((1 << bits) - 1)
    keys = group[text]
    for k in range(max_order):
        digit = padded[near + k]
        keys = (keys << bits) | (np.where(room > k, digit, sentinel) if k else digit)
    return near, (keys << 1) | side


_END_KEYS_BELOW = 0.15
"""Fix the keys near text ends apart when those are at most this share of the positions."""

_PRUNE_BELOW = 0.75
"""Drop unshared n-grams' positions once they are over a quarter of what is left."""


def _sorted_matches(key: IntArray, bits: int, max_order: int, n_groups: int) -> IntArray:
    """Clipped matches per order and group from the sorted keys of :func:`_single_sorted_once`.

    A run of equal n-grams holding ``h`` hypothesis and ``r`` reference positions
    matches ``min(h, r)``. A run with one side only holds no shared longer n-gram, so
    its positions are dropped before the next order when that saves enough.
    """
    out = np.zeros((max_order, n_groups), dtype=np.int64)
    bounds = np.arange(n_groups + 1, dtype=np.int64)
    change = refs = group_at = None
    for n in range(1, max_order + 1):
        if change is None or refs is None or group_at is None:  # first order, or pruned
            change = key[1:] ^ key[:-1]  # below 2**s: the keys agree above bit s
            refs = np.empty(len(key) + 1, dtype=np.int64)
            refs[0] = 0
            np.cumsum(key & 1, out=refs[1:])
            # where each group's positions start: a run never spans two groups
            group_at = np.searchsorted(key >> (bits * max_order + 1), bounds)
        new = np.empty(len(key) + 1, dtype=bool)  # run edges, the end included
        new[0] = new[-1] = True
        np.greater_equal(change, 1 << (1 + bits * (max_order - n)), out=new[1:-1])
        edges = np.flatnonzero(new)
        size = np.diff(edges)
        ref = np.diff(refs.take(edges))
        matched = np.minimum(size - ref, ref)
        summed = np.empty(len(matched) + 1, dtype=np.int64)
        summed[0] = 0
        np.cumsum(matched, out=summed[1:])
        at = summed.take(np.searchsorted(edges, group_at))
        out[n - 1] = at[1:] - at[:-1]
        if n < max_order:
            shared = matched > 0
            if int(np.dot(size, shared)) < _PRUNE_BELOW * len(key):
                key, change = key[np.repeat(shared, size)], None
                if not len(key):
                    break
    return out


def _local_ids(ids: IntArray, vocab: int) -> tuple[IntArray, int]:
    """``ids`` renumbered 1..V by the distinct ids present, and the digit width for them."""
    if vocab <= 4 * len(ids):
        present = np.zeros(vocab, dtype=np.int64)
        present[ids] = 1
        renumber = np.cumsum(present)
        local, size = renumber[ids], int(renumber[-1])
    else:
        dense, size = _dense(ids)
        local = dense + 1
    return local, int(size + 1).bit_length()


def _runs(sorted_keys: IntArray) -> tuple[IntArray, IntArray]:
    """Distinct values of a sorted array and how often each occurs."""
    if not len(sorted_keys):
        return sorted_keys, sorted_keys
    new = np.empty(len(sorted_keys), dtype=bool)
    new[0] = True
    np.not_equal(sorted_keys[1:], sorted_keys[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    counts = np.diff(np.append(starts, len(sorted_keys)))
    return sorted_keys[starts], counts


def _clip_single(grouped: IntArray, side: IntArray) -> tuple[IntArray, IntArray]:
    """One reference per group: one sort of ``key·4 + side``, hyp run then ref run."""
    values, counts = _runs(np.sort(grouped * 4 + side))
    hyp = np.flatnonzero((values[:-1] & 3) == 0)
    pair = hyp[values[hyp + 1] == values[hyp] + 1]
    matched = np.minimum(counts[pair], counts[pair + 1])
    return matched, values[pair] >> 2


def _clip_multi(grouped: IntArray, side: IntArray, n_slots: int) -> tuple[IntArray, IntArray]:
    """Several references: the count per reference, then the maximum over references."""
    is_hyp = side == 0
    hyp_keys, hyp_counts = _runs(np.sort(grouped[is_hyp]))
    ref_slots, ref_counts = _runs(np.sort(grouped[~is_hyp] * n_slots + side[~is_hyp]))
    ref_keys = ref_slots // n_slots
    empty = np.zeros(0, dtype=np.int64)
    if not len(ref_keys) or not len(hyp_keys):
        return empty, empty
    starts = np.flatnonzero(np.concatenate(([True], ref_keys[1:] != ref_keys[:-1])))
    best, ref_keys = np.maximum.reduceat(ref_counts, starts), ref_keys[starts]
    pos = np.minimum(np.searchsorted(ref_keys, hyp_keys), len(ref_keys) - 1)
    hit = np.flatnonzero(ref_keys[pos] == hyp_keys)
    return np.minimum(hyp_counts[hit], best[pos[hit]]), hyp_keys[hit]

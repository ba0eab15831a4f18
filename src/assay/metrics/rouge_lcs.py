"""Longest common subsequences of token sequences, as ROUGE-L and ROUGE-Lsum take them.

:func:`lcs_length` is the LCS length from rapidfuzz's bit-parallel ``LCSseq`` on the
two sequences mapped to one code point per distinct token (:func:`code_point_string`),
so thousands of tokens cost microseconds.

:func:`lcs_indices` gives the positions in the target of one LCS, chosen by
rouge-score's backtracking (``_backtrack_norec``: prefer moving along the prediction
when that keeps a longer LCS), read off bit-parallel rows (Hyyrö 2004,
:func:`lcs_rows`) instead of a full table. :func:`lcs_union` is the union of those
positions over the predicted sentences (rouge-score's ``_union_lcs``), and
:func:`summary_lcs_hits` counts the union's tokens with the per-token clipping of
ROUGE 1.5.5 (a token counts at most as often as it occurs on either side): the hits
of ROUGE-Lsum (rouge-score's ``_summary_level_lcs``). :mod:`assay.metrics.rouge_union`
gives the same hits for many items at once with numpy.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence

from rapidfuzz.distance import LCSseq


@functools.cache
def code_point_string() -> str:
    """The code points below the surrogates, in order (built once, on first use)."""
    return "".join(map(chr, range(0xD800)))


def _as_code_points(a: Sequence[str], b: Sequence[str]) -> tuple[str, str]:
    """Two token sequences as strings of one code point per distinct token of the pair.

    The distinct tokens are zipped with :func:`code_point_string` (no ``chr`` call
    per token); past its length, code points above the surrogates follow.
    """
    codes = code_point_string()
    distinct = dict.fromkeys([*a, *b])
    if len(distinct) <= len(codes):
        vocab = dict(zip(distinct, codes, strict=False))
    else:
        vocab = {tok: chr(i if i < 0xD800 else i + 0x800) for i, tok in enumerate(distinct)}
    return "".join(map(vocab.__getitem__, a)), "".join(map(vocab.__getitem__, b))


def lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    """Length of the longest common subsequence of two token sequences (rapidfuzz)."""
    if not a or not b:
        return 0
    sa, sb = _as_code_points(a, b)
    return int(LCSseq.similarity(sa, sb))


def token_positions(can: Sequence[str]) -> dict[str, int]:
    """For each token of ``can``, the bit mask of the positions where it occurs."""
    positions: dict[str, int] = {}
    for j, tok in enumerate(can):
        positions[tok] = positions.get(tok, 0) | (1 << j)
    return positions


def lcs_rows(ref: Sequence[str], can: Sequence[str], positions: dict[str, int]) -> list[int]:
    """Bit-parallel LCS rows (Hyyrö 2004), one integer per prefix of ``ref``.

    Bit ``j`` of row ``i`` is set when ``LCS(ref[:i], can[:j+1])`` exceeds
    ``LCS(ref[:i], can[:j])``, so ``LCS(ref[:i], can[:j])`` is the popcount of the
    low ``j`` bits of row ``i``. ``positions`` is :func:`token_positions` of ``can``.
    """
    mask = (1 << len(can)) - 1
    get = positions.get
    v = mask
    rows = [0]
    for tok in ref:
        u = v & get(tok, 0)
        v = ((v + u) | (v - u)) & mask
        rows.append(~v & mask)
    return rows


def lcs_indices(
    ref: Sequence[str], can: Sequence[str], positions: dict[str, int] | None = None
) -> list[int]:
    """Positions in ``ref`` of one LCS, chosen by rouge-score's backtracking rule."""
    rows = lcs_rows(ref, can, token_positions(can) if positions is None else positions)
    i, j = len(ref), len(can)
    left = rows[i].bit_count()  # LCS elements still to find
    out: list[int] = []
    while left and i > 0 and j > 0:
        if ref[i - 1] == can[j - 1]:
            out.append(i - 1)
            i -= 1
            j -= 1
            left -= 1
        elif (rows[i] & ((1 << (j - 1)) - 1)).bit_count() > (
            rows[i - 1] & ((1 << j) - 1)
        ).bit_count():
            j -= 1
        else:
            i -= 1
    out.reverse()
    return out


def summary_lcs_hits(ref_sents: Sequence[Sequence[str]], can_sents: Sequence[Sequence[str]]) -> int:
    """Union-LCS hits of ROUGE-Lsum with ROUGE 1.5.5's per-token clipping."""
    ref_left = Counter(t for s in ref_sents for t in s)
    can_left = Counter(t for s in can_sents for t in s)
    hits = 0
    cans = [(can, token_positions(can)) for can in can_sents if can]
    for ref in ref_sents:
        for index in lcs_union(ref, cans):
            tok = ref[index]
            if can_left[tok] > 0 and ref_left[tok] > 0:
                hits += 1
                can_left[tok] -= 1
                ref_left[tok] -= 1
    return hits


def lcs_union(
    ref: Sequence[str], cans: Sequence[tuple[Sequence[str], dict[str, int]]]
) -> list[int]:
    """Sorted union of the LCS positions in ``ref`` against each ``(can, positions)``.

    The union does not depend on the order of the predicted sentences, so those
    reaching the most target positions (positions holding one of their tokens) go
    first, and a sentence whose reachable positions are all in the union already is
    skipped: its LCS can only use such positions.
    """
    ref_positions = token_positions(ref)
    shared = []
    for can, positions in cans:
        reach = 0
        for tok in ref_positions.keys() & positions.keys():
            reach |= ref_positions[tok]
        if reach:
            shared.append((reach.bit_count(), reach, can, positions))
    shared.sort(key=lambda item: -item[0])
    union: set[int] = set()
    covered = 0
    for _, reach, can, positions in shared:
        if reach & ~covered:
            indices = lcs_indices(ref, can, positions)
            union.update(indices)
            for index in indices:
                covered |= 1 << index
    return sorted(union)

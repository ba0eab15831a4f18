"""Shared n-gram helpers for the BLEU, GLEU and ROUGE families.

Counting goes through :class:`collections.Counter` over ``zip`` of shifted token
lists, so the per-n-gram loop runs in C; clipped matches only visit the n-grams
that occur on both sides.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from typing import Any


def ngram_counts(tokens: Sequence[str], n: int) -> Counter[Any]:
    """Counts of the ``n``-grams of ``tokens`` (unigrams are plain strings, others tuples)."""
    if n == 1:
        return Counter(tokens)
    return Counter(zip(*(tokens[k:] for k in range(n)), strict=False))


def clipped_matches(hyp: Counter[Any], ref: Counter[Any] | dict[Any, int]) -> int:
    """``Σ_g min(hyp[g], ref[g])`` over the n-grams present in both."""
    common = hyp.keys() & ref.keys()
    if not common:
        return 0
    return sum(map(min, map(hyp.__getitem__, common), map(ref.__getitem__, common)))


def max_counts(counters: Sequence[Counter[Any]]) -> Counter[Any] | dict[Hashable, int]:
    """Element-wise maximum of several counters (multi-reference clipping)."""
    if len(counters) == 1:
        return counters[0]
    merged: dict[Hashable, int] = dict(counters[0])
    get = merged.get
    for counter in counters[1:]:
        for gram, count in counter.items():
            if count > get(gram, 0):
                merged[gram] = count
    return merged


def check_positive_int(value: Any) -> int:
    """Validate an integer ≥ 1."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("expected a whole number ≥ 1")
    if value < 1:
        raise ValueError("expected a whole number ≥ 1")
    return value


def check_nonnegative_int(value: Any) -> int:
    """Validate an integer ≥ 0."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("expected a whole number ≥ 0")
    if value < 0:
        raise ValueError("expected a whole number ≥ 0")
    return value


def check_positive_number(value: Any) -> float:
    """Validate a number > 0 (returned as float)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("expected a number > 0")
    if not float(value) > 0.0:
        raise ValueError("expected a number > 0")
    return float(value)


def check_bool(value: Any) -> bool:
    """Validate a boolean."""
    if not isinstance(value, bool):
        raise TypeError("expected true or false")
    return value

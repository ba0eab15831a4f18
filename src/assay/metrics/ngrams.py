"""Shared n-gram helpers for the BLEU, GLEU, ROUGE and chrF families.

Counting runs the C loop behind :class:`collections.Counter` into plain dicts over
``zip`` of shifted token lists, so the per-n-gram work stays in C. Reference
n-grams are counted only where the hypothesis has them (``filter`` with the
hypothesis dict's ``__contains__``), which is all clipping needs. Whole corpora
are counted by the vectorised :mod:`assay.metrics._vector` instead.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any

try:  # the C counting loop behind Counter.update, without Counter's per-call overhead
    from collections import _count_elements  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - other Python implementations

    def _count_elements(mapping: dict[Any, int], iterable: Iterable[Any]) -> None:
        get = mapping.get
        for item in iterable:
            mapping[item] = get(item, 0) + 1


def count(items: Iterable[Any]) -> dict[Any, int]:
    """A plain dict of item counts (the C loop of :class:`collections.Counter`)."""
    counts: dict[Any, int] = {}
    _count_elements(counts, items)
    return counts


def shifted(tokens: Sequence[str], n: int) -> Iterable[Any]:
    """The ``n``-grams of ``tokens`` in order (unigrams as strings, others as tuples)."""
    if n == 1:
        return tokens
    if n == 2:
        return zip(tokens, tokens[1:], strict=False)
    if n == 3:
        return zip(tokens, tokens[1:], tokens[2:], strict=False)
    return zip(*(tokens[k:] for k in range(n)), strict=False)


def ngram_counts(tokens: Sequence[str], n: int) -> dict[Any, int]:
    """Counts of the ``n``-grams of ``tokens`` (unigrams are plain strings, others tuples)."""
    return count(shifted(tokens, n))


def clipped_matches(hyp: dict[Any, int], ref: dict[Any, int]) -> int:
    """``Σ_g min(hyp[g], ref[g])`` over the n-grams present in both."""
    common = hyp.keys() & ref.keys()
    if not common:
        return 0
    return sum(map(min, map(hyp.__getitem__, common), map(ref.__getitem__, common)))


def max_counts(counters: Sequence[dict[Any, int]]) -> dict[Any, int]:
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


def _check_whole_number(value: Any, minimum: int) -> int:
    """Validate an integer (not a bool) ≥ ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected a whole number ≥ {minimum}")
    if value < minimum:
        raise ValueError(f"expected a whole number ≥ {minimum}")
    return value


def check_positive_int(value: Any) -> int:
    """Validate an integer ≥ 1."""
    return _check_whole_number(value, 1)


def check_nonnegative_int(value: Any) -> int:
    """Validate an integer ≥ 0."""
    return _check_whole_number(value, 0)


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

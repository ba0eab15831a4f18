"""TER's early stop at the multiset bound gives exactly sacrebleu's edit counts.

``ter_edits`` returns as soon as the current hypothesis's edit distance equals the
bound ``max(n, m) − |hyp ∩ ref|`` (multisets), below the beam: no shift can then
gain. The reference is sacrebleu's own ``translation_edit_rate``, on pairs where the
stop fires at once, after some shifts, and not at all.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein
from sacrebleu.metrics.lib_ter import translation_edit_rate

from assay.metrics.ter_search import _bag_bound, ter_edits

WORDS = st.lists(st.sampled_from(["a", "b", "c", "d", "e", "the", "of"]), max_size=30)


def sacrebleu_edits(hyp: list[str], ref: list[str]) -> int:
    edits, _ = translation_edit_rate(hyp, ref)
    return int(edits)


@settings(max_examples=400)
@given(WORDS, WORDS)
def test_ter_edits_equal_sacrebleus(hyp: list[str], ref: list[str]) -> None:
    assert ter_edits(hyp, ref) == sacrebleu_edits(hyp, ref)


def shuffled_blocks(rng: random.Random, ref: list[str]) -> list[str]:
    """``ref`` with a few words replaced and a block moved (shifts pay off)."""
    hyp = [w if rng.random() < 0.8 else rng.choice("abcdefgh") for w in ref]
    if len(hyp) > 4:
        start = rng.randrange(len(hyp) - 2)
        size = rng.randint(1, min(6, len(hyp) - start))
        block = hyp[start : start + size]
        del hyp[start : start + size]
        at = rng.randint(0, len(hyp))
        hyp[at:at] = block
    return hyp


def codes(words: list[str]) -> str:
    return "".join(chr(ord(w[0])) for w in words)


def test_ter_edits_equal_sacrebleus_where_the_bound_stops_and_where_it_does_not() -> None:
    rng = random.Random(7)
    at_once = shifted = 0
    for _ in range(1500):
        ref = [rng.choice("abcdefghijkl") for _ in range(rng.randint(0, 40))]
        hyp = shuffled_blocks(rng, ref)
        edits = ter_edits(hyp, ref)
        assert edits == sacrebleu_edits(hyp, ref), (hyp, ref)
        if ref and Levenshtein.distance(codes(hyp), codes(ref)) == _bag_bound(
            codes(hyp), codes(ref)
        ):
            at_once += 1
        elif edits < Levenshtein.distance(codes(hyp), codes(ref)):
            shifted += 1
    assert at_once > 200 and shifted > 200, (at_once, shifted)


def test_bag_bound_is_a_lower_bound_of_the_distance() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        a = "".join(rng.choice("abcd") for _ in range(rng.randint(0, 12)))
        b = "".join(rng.choice("abcd") for _ in range(rng.randint(0, 12)))
        assert _bag_bound(a, b) <= Levenshtein.distance(a, b)
        shuffled = "".join(rng.sample(a, len(a)))
        assert _bag_bound(shuffled, b) == _bag_bound(a, b)

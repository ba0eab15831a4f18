"""``mcnemar_pairs``: each system checked once, every pair equal to ``mcnemar_exact``."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.errors import InvalidInputError
from assay.stats import mcnemar_exact
from assay.stats.exact import mcnemar_pairs


@st.composite
def _systems(draw: st.DrawFn) -> dict[str, list[float]]:
    n = draw(st.integers(0, 40))
    count = draw(st.integers(1, 6))
    column = st.lists(st.sampled_from([0.0, 1.0]), min_size=n, max_size=n)
    systems = {f"s{k}": draw(column) for k in range(count)}
    if count > 1 and draw(st.booleans()):
        systems["s1"] = list(systems["s0"])  # identical systems: no discordant item
    return systems


@settings(max_examples=150, deadline=None)
@given(_systems(), st.data())
def test_every_pair_equals_mcnemar_exact(
    systems: dict[str, list[float]], data: st.DataObject
) -> None:
    names = sorted(systems)
    everything = list(combinations(names, 2)) + [(b, a) for a, b in combinations(names, 2)]
    pairs = data.draw(st.lists(st.sampled_from(everything), max_size=12)) if everything else []
    got = mcnemar_pairs(systems, pairs)
    assert [r.to_dict() for r in got] == [
        mcnemar_exact(systems[a], systems[b]).to_dict() for a, b in pairs
    ]


def test_hand_counts() -> None:
    # a right on items 0-3, b on items 2-5 of 7: both 2, a only 2, b only 2, neither 1
    a = [1, 1, 1, 1, 0, 0, 0]
    b = [0, 0, 1, 1, 1, 1, 0]
    (result,) = mcnemar_pairs({"a": a, "b": b}, [("a", "b")])
    assert (result.n, result.both, result.a_only, result.b_only, result.neither) == (7, 2, 2, 2, 1)
    assert result.p_value == 1.0  # min(1, 2 * (1 + 4 + 6) / 16)
    (skewed,) = mcnemar_pairs({"a": [1, 1, 1, 0], "b": [0, 0, 0, 0]}, [("a", "b")])
    assert (skewed.a_only, skewed.b_only, skewed.p_value) == (3, 0, 0.25)  # 2 * 1/8


def test_refuses_graded_scores_and_other_lengths() -> None:
    with pytest.raises(InvalidInputError, match="0/1 scores"):
        mcnemar_pairs({"a": [1.0, 0.5], "b": [1.0, 0.0]}, [("a", "b")])
    with pytest.raises(InvalidInputError):
        mcnemar_pairs({"a": np.ones(3), "b": np.ones(4)}, [("a", "b")])

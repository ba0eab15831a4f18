"""ANLS*'s corpus path (leaves scored without the tree walk) gives the package's numbers.

``score_corpus("anls_star", ...)`` takes a shortcut for items whose prediction and
targets all parse to leaves (strings, numbers, booleans). The oracle is the reference
package ``anls_star``'s ``anls_score`` on the JSON-parsed texts (several targets: a
tuple of alternatives), and the per-item path (``bind().score``).
"""

from __future__ import annotations

import json
import warnings

from anls_star import anls_score
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
from assay.metrics.registry import get_metric

LEAVES = st.sampled_from(
    ["Paris", "paris ", " PARIS", "Pari", "hello world", "hello  World!", "", "  ", "1976",
     "1976.0", "1e3", "1000.0", "true", "True", "null", "[]", "{}", "-0", "NaN", '"Paris"',
     '"1e3"', "3.50", "3.5", "é", "É", "a\tb", "ﬁ"]
)  # fmt: skip
STRUCTURES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["Paris", "pari", ""]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("ab"), inner),
    max_leaves=4,
).map(json.dumps)
TEXTS = st.one_of(LEAVES, LEAVES, STRUCTURES, st.text(max_size=6))
ITEMS = st.lists(st.tuples(TEXTS, st.lists(TEXTS, min_size=1, max_size=3)), min_size=1, max_size=6)


def parsed(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:
        return text


def package_score(prediction: str, targets: list[str]) -> float | None:
    """The package's score; ``None`` where it refuses (a ``[]`` target read as no options)."""
    options = [parsed(t) for t in targets]
    gt = options[0] if len(options) == 1 else tuple(options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the package warns in its classic-VQA mode
        try:
            return float(anls_score(gt, parsed(prediction)))
        except ValueError:
            return None


@settings(max_examples=400)
@given(ITEMS)
def test_corpus_path_equals_the_package_and_the_per_item_path(
    items: list[tuple[str, list[str]]],
) -> None:
    preds, targets = [p for p, _ in items], [t for _, t in items]
    spec = get_metric("anls_star")
    assert spec.batch_fn is not None
    got = spec.batch_fn(preds, targets, spec.bind().settings)
    bound = assay.bind("anls_star")
    assert got == [bound.score(p, t) for p, t in items]
    expected = [package_score(p, t) for p, t in items]
    assert all(abs(a - b) <= 1e-12 for a, b in zip(got, expected, strict=True) if b is not None)
    assert list(assay.score_corpus("anls_star", preds, targets).values) == got


def test_leaf_items_by_hand() -> None:
    preds = ["Paris", "1e3", "true", "pari", '["a"]', "", "none"]
    targets = [
        ["paris "],
        ["1000.0"],
        ["True", "x"],
        ["Paris", "pa"],
        ['["a"]'],
        ["null"],
        ["null"],
    ]
    # 1e3 parses to 1000.0; true to True; "pari" against "paris": 1 - 1/5; a null
    # target is not a leaf: 1 for a none-like prediction (""), else 0 (even "none").
    expected = [1, 1, 1, 0.8, 1, 1, 0]
    assert list(assay.score_corpus("anls_star", preds, targets).values) == expected
    assert [package_score(p, t) for p, t in zip(preds, targets, strict=True)] == expected

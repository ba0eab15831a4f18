"""ANLS* against the reference package ``anls_star`` (installed in the test extra).

Random nested ground truths (strings, None, lists, dicts, tuples of alternatives) and
perturbed predictions; the package's own test values are reference vectors in
tests/vectors/edit/anls_star.jsonl and in the tuple cases below.
"""

from __future__ import annotations

import json
import random
import warnings
from typing import Any

import pytest
from anls_star import anls_score
from hypothesis import example, given
from hypothesis import strategies as st

import assay
from assay.metrics import anls_star as anls_star_module
from assay.metrics.anls_star import anls_star

WORDS = ["hello", "world", "hello!", "this", "is", "a", "test", "be", "Paris", "paris ", "",
         "1976", None, 1976, 3.5, True]  # fmt: skip


def _gt(rng: random.Random, depth: int) -> Any:
    roll = rng.random()
    if depth > 2 or roll < 0.4:
        return rng.choice(WORDS)
    if roll < 0.6:
        return [_gt(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    if roll < 0.8:
        return {rng.choice("abcd"): _gt(rng, depth + 1) for _ in range(rng.randint(0, 3))}
    return tuple(_gt(rng, depth + 1) for _ in range(rng.randint(1, 3)))


def _pred(rng: random.Random, obj: Any) -> Any:
    while isinstance(obj, tuple):
        obj = rng.choice(obj)
    if isinstance(obj, list):
        out = [_pred(rng, x) for x in obj if rng.random() > 0.2]
        rng.shuffle(out)
        return out + ([rng.choice(WORDS)] if rng.random() < 0.3 else [])
    if isinstance(obj, dict):
        out = {k: _pred(rng, v) for k, v in obj.items() if rng.random() > 0.2}
        if rng.random() < 0.3:
            out[rng.choice("abcdz")] = rng.choice(WORDS)
        return out
    return obj if rng.random() < 0.6 else rng.choice(WORDS)


@pytest.mark.parametrize("seed", range(4))
def test_matches_the_anls_star_package_on_random_structures(seed: int) -> None:
    rng = random.Random(seed)
    worst = 0.0
    for _ in range(500):
        gt = _gt(rng, 0)
        pred = _pred(rng, gt)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the package warns in its classic-VQA mode
            theirs = anls_score(gt, pred)
        worst = max(worst, abs(anls_star(gt, pred) - theirs))
    assert worst <= 1e-9


@pytest.mark.parametrize(
    ("gt", "pred", "expected"),
    [
        ({"a": ([], ["a", "b", "c"], ["d", "e", "f"])}, {"a": []}, 1.0),
        ({"a": (["a", "b", "c"], ["d", "e", "f"], [])}, {"a": []}, 1.0),
        ({"a": {"b": ("c", "e")}}, {"a": {"b": "e"}}, 1.0),
        ({"a": ("b", "t"), "c": "d"}, {"a": "t", "c": "d"}, 1.0),
        (("0.123",), 0.123, 1.0),
    ],
)
def test_the_packages_tuple_cases(gt: Any, pred: Any, expected: float) -> None:
    # Source: deepopinion/anls_star_metric tests/test_anls_star.py.
    assert anls_star(gt, pred) == pytest.approx(expected)


def test_the_packages_readme_example() -> None:
    gt = {"a": ("hello", "world"), "b": ["this", "is", "a", "test"]}
    pred = {"a": "hello!", "b": ["a", "test", "this", "be"]}
    assert anls_star(gt, pred) == pytest.approx(0.7666666666666667)  # "score = 0.766..."


def test_bad_structures_are_one_clear_error() -> None:
    with pytest.raises(assay.InvalidInputError, match="tuple in the prediction"):
        anls_star("a", ("a",))
    with pytest.raises(assay.InvalidInputError, match="empty tuple"):
        anls_star((), "a")


def test_registered_metric_reads_json_and_takes_targets_as_alternatives() -> None:
    assert assay.score("anls_star", '{"a": "b", "c": "e"}', ['{"a": "b", "c": "d"}']) == 0.5
    assert assay.score("ANLS*", "Peer David", ["David Peer", "Peer David"]) == 1.0
    assert assay.signature("anls_star") == "anls_star|tok:none|norm:none|multi:native|v:0.1.0"


def _parse_by_json(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:
        return text


JSONISH = st.text(alphabet=st.sampled_from(list(' \t\n\r\x0b\u00a0"{}[],:-+.eE019ntrufalsNIaiy')))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=6,
).map(json.dumps)  # NaN, Infinity and -Infinity included
SPACES = st.sampled_from(["", " ", "\n\t", "\r ", "\u00a0"])
JSON_TEXTS = st.tuples(SPACES, JSON_VALUES).map("".join)


@given(JSON_TEXTS | JSONISH | st.text(max_size=12))
@example("Infinity")
@example("\n NaN")
@example("-Infinity")
@example(' "x"')
def test_parse_shortcut_equals_json_loads_or_the_text(text: str) -> None:
    # the shortcut skips json.loads only where it would fail; NaN is compared as text
    assert repr(anls_star_module.parse(text)) == repr(_parse_by_json(text))

"""``assay.score`` without options takes the remembered binding's own steps.

It must give what ``bind(name).score`` gives, value or error (same type, same message),
on the first call (which binds) and on every later one, for registry names and aliases.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
from assay.metrics.registry import ALIASES

NAMES = ["accuracy", "exact_match", "f1", "squad_v2.f1", "wer", "anls", "anls_star", "bleu",
         *sorted(ALIASES)[:6]]  # fmt: skip
TEXT = st.sampled_from(["Paris", "paris ", "the cat sat", "", "a b c"])
PREDICTIONS = st.one_of(TEXT, st.sampled_from([None, 3, b"x"]))
TARGETS = st.one_of(
    TEXT,
    st.lists(TEXT, max_size=3),
    st.tuples(TEXT, TEXT),
    st.sampled_from([None, 7, ["a", 7], {"a"}]),
)


def outcome(fn: Any, prediction: Any, targets: Any) -> tuple[str, object]:
    try:
        return ("value", fn(prediction, targets))
    except assay.AssayError as error:
        return (type(error).__name__, str(error))


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=60)
@given(prediction=PREDICTIONS, targets=TARGETS)
def test_score_equals_the_bound_score_values_and_errors(
    name: str, prediction: Any, targets: Any
) -> None:
    bound = assay.bind(name)
    expected = outcome(bound.score, prediction, targets)
    first = outcome(lambda p, t: assay.score(name, p, t), prediction, targets)
    again = outcome(lambda p, t: assay.score(name, p, t), prediction, targets)
    assert first == expected
    assert again == expected


def test_an_alias_names_the_registry_metric_in_its_errors() -> None:
    assay.score("ANLS*", "a", ["a"])  # bound and remembered under the alias
    with pytest.raises(assay.InvalidTypeError, match="metric 'anls_star': prediction must"):
        assay.score("ANLS*", 5, ["a"])  # type: ignore[arg-type]
    with pytest.raises(assay.InvalidInputError, match="metric 'accuracy' takes exactly one"):
        assay.score("accuracy", "a", ["a", "b"])

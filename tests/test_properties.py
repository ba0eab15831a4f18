"""Property tests over every registered metric, and SQuAD against its published rules."""

import collections
import math
import re
import string

from hypothesis import given, settings
from hypothesis import strategies as st

import assay
from assay.metrics.registry import REGISTRY

TEXT = st.text(
    alphabet=st.sampled_from(list("abc xyz THE the a an .,!?-'%") + ["é", "न", "्", "東"]),
    max_size=25,
)
TARGETS = st.lists(TEXT, min_size=1, max_size=3)


@settings(max_examples=60)
@given(prediction=TEXT, targets=TARGETS)
def test_every_metric_scores_in_its_declared_range(prediction: str, targets: list[str]) -> None:
    for name, spec in REGISTRY.items():
        if spec.multi == "single":
            targets = targets[:1]
        value = assay.score(name, prediction, targets)
        low, high = spec.value_range
        assert low <= value <= high, name


def test_declared_ranges_are_pinned() -> None:
    unbounded = {name for name, spec in REGISTRY.items() if spec.value_range[1] == math.inf}
    assert unbounded == {"wer", "cer", "ter"}
    lower_better = {name for name, spec in REGISTRY.items() if not spec.higher_is_better}
    assert lower_better == {"wer", "cer", "ter", "mer", "wil"}
    for spec in REGISTRY.values():
        assert spec.value_range[0] == 0.0, spec.name
        assert spec.value_range[1] in (1.0, math.inf), spec.name


def test_error_rates_exceed_one_when_the_prediction_is_longer() -> None:
    # One reference word: 1 substitution + 3 insertions = 4 edits over length 1.
    assert assay.score("wer", "a b c d", ["x"]) == 4.0
    assert assay.score("cer", "abcd", ["x"]) == 4.0
    assert assay.score("ter", "a b c d", ["x"]) == 4.0


IDENTITY = [
    "exact_match",
    "accuracy",
    "f1",
    "token_f1.set",
    "anls",
    "anls.docvqa",
    "edit_similarity",
    "squad_v1.em",
    "squad_v2.em",
    "squad_v2.f1",
]


@given(TEXT)
def test_identity_scores_one(text: str) -> None:
    for name in IDENTITY:
        assert assay.score(name, text, [text]) == 1.0, name


@given(TEXT)
def test_squad_v1_f1_identity_needs_tokens(text: str) -> None:
    # v1.1 gives 0 when both sides normalise to empty, 1 otherwise.
    expected = 1.0 if assay.normalize(text, "squad") else 0.0
    assert assay.score("squad_v1.f1", text, [text]) == expected


@given(TEXT, TEXT)
def test_f1_is_symmetric_for_a_single_target(a: str, b: str) -> None:
    for name in ("f1", "token_f1.set", "squad_v1.f1", "squad_v2.f1", "edit_similarity", "anls"):
        assert assay.score(name, a, [b]) == assay.score(name, b, [a]), name


# An oracle written from the SQuAD scripts' published definitions, independent of assay.
def _oracle_normalize(s: str) -> str:
    s = s.lower()
    s = "".join(ch for ch in s if ch not in set(string.punctuation))
    s = re.sub(r"\b(a|an|the)\b", " ", s)
    return " ".join(s.split())


def _oracle_f1(pred: str, gold: str, v2: bool) -> float:
    p, g = _oracle_normalize(pred).split(), _oracle_normalize(gold).split()
    if v2 and (not p or not g):
        return float(p == g)
    same = sum((collections.Counter(p) & collections.Counter(g)).values())
    if same == 0:
        return 0.0
    precision, recall = same / len(p), same / len(g)
    return 2 * precision * recall / (precision + recall)


@given(TEXT, TARGETS)
def test_squad_matches_oracle(prediction: str, targets: list[str]) -> None:
    v1 = max(_oracle_f1(prediction, t, v2=False) for t in targets)
    golds = [t for t in targets if _oracle_normalize(t)] or [""]
    v2 = max(_oracle_f1(prediction, t, v2=True) for t in golds)
    em2 = max(float(_oracle_normalize(prediction) == _oracle_normalize(t)) for t in golds)
    assert assay.score("squad_v1.f1", prediction, targets) == v1
    assert assay.score("squad_v2.f1", prediction, targets) == v2
    assert assay.score("squad_v2.em", prediction, targets) == em2

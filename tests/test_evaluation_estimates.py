"""The result document's grouped estimates equal the per-list estimates, to the last bit.

:class:`~assay.evaluation.estimates.SystemEstimates` computes every metric of a group at
once from one score matrix; the reference is :func:`mean_estimate` on each metric's
plain list (which runs :func:`~assay.stats.mean_interval` /
:func:`~assay.stats.clustered_mean_interval`). Equality is exact (``==`` on every
field, floats included): the numbers saved before this path existed do not move.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np
import pytest

from assay.evaluation.benchmark import QuestionResult
from assay.evaluation.estimates import (
    METRICS,
    SystemEstimates,
    cluster_key,
    layout,
    mean_estimate,
)

BASE = QuestionResult(
    question_id="q", prediction="p", gold_answer="g", answer_format="String", status="ok",
    accuracy=0.0, token_f1=0.0, anls=0.0, split="single_doc", domain="d", reasoning_type="r",
    difficulty="easy", doc_type="t", evidence_sources=("text",), answer_type="a",
    bucket="scored", raw_prediction="p",
)  # fmt: skip


def _questions(n: int, seed: int, *, binary: bool, documents: int) -> list[QuestionResult]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        accuracy = float(rng.random() < 0.6)
        f1 = accuracy if binary else rng.choice([0.0, 1.0, 0.5, 1 / 3, 2 / 3, rng.random()])
        docs = tuple(f"d{rng.randrange(documents)}" for _ in range(rng.choice([1, 1, 2])))
        out.append(
            dataclasses.replace(
                BASE, question_id=f"q{i}", accuracy=accuracy, token_f1=f1, anls=rng.random(),
                domain=rng.choice("abcd"), difficulty=rng.choice(["easy", "hard"]),
                evidence_sources=tuple(rng.sample(["text", "table", "chart"], rng.randint(1, 2))),
                documents=docs,
            )
        )  # fmt: skip
    return out


def _reference(questions: list[QuestionResult], clustered: bool) -> dict[str, Any]:
    clusters = [cluster_key(q) for q in questions] if clustered else None
    return {m: mean_estimate([getattr(q, m) for q in questions], clusters, 0.95) for m in METRICS}


@pytest.mark.parametrize("clustered", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_every_group_equals_the_per_list_estimate(clustered: bool, seed: int) -> None:
    questions = _questions(40 + 700 * seed, seed, binary=seed % 2 == 0, documents=5 + 40 * seed)
    estimates = SystemEstimates(questions, layout(questions), clustered, 0.95)
    assert estimates.overall() == _reference(questions, clustered)
    compared = 0
    for groups in estimates.layout.groups:
        for positions in groups.values():
            members = [questions[p] for p in positions]
            assert estimates.group(positions) == _reference(members, clustered)
            compared += 1
    assert compared >= 8


def test_small_groups_one_cluster_and_zero_spread() -> None:
    one = _questions(1, 1, binary=True, documents=1)
    five = _questions(5, 2, binary=True, documents=1)
    same_doc = [dataclasses.replace(q, documents=("d0",)) for q in five]
    all_right = [dataclasses.replace(q, accuracy=1.0, token_f1=1.0, anls=1.0) for q in same_doc]
    for questions in (one, same_doc, all_right, []):
        for clustered in (False, True):
            estimates = SystemEstimates(questions, layout(questions), clustered, 0.95)
            assert estimates.overall() == _reference(questions, clustered)
    # five 1.0 scores, iid: SE 0 -> Wilson interval of 5/5. With p = 1 the half-width is
    # z²/2n / (1 + z²/n), so lower = 1 / (1 + z²/n) = 5 / (5 + 3.841459) = 0.565518; upper 1.
    wilson = SystemEstimates(all_right, layout(all_right), False, 0.95).overall()["accuracy"]
    assert wilson["interval_method"] == "wilson" and wilson["upper"] == 1.0
    assert wilson["lower"] == pytest.approx(0.565518, abs=2e-6)


def test_a_non_finite_score_is_refused_as_before() -> None:
    from assay.errors import InvalidInputError

    questions = _questions(6, 3, binary=False, documents=3)
    questions[2] = dataclasses.replace(questions[2], anls=float("nan"))
    estimates = SystemEstimates(questions, layout(questions), False, 0.95)
    with pytest.raises(InvalidInputError, match="NaN or infinite"):
        estimates.overall()


def test_cluster_ids_follow_first_appearance_within_each_group() -> None:
    # Global order d1, d0; a group holding only later items sees d0 first.
    rows = [("d1", 0.1, "x"), ("d0", 0.9, "y"), ("d1", 0.3, "y"), ("d0", 0.7, "y")]
    rows.append(("d2", 0.2, "y"))
    questions = [
        dataclasses.replace(BASE, question_id=f"q{i}", documents=(doc,), anls=v, domain=dom)
        for i, (doc, v, dom) in enumerate(rows)
    ]
    estimates = SystemEstimates(questions, layout(questions), True, 0.95)
    group = estimates.layout.groups[1]["y"]
    assert group.tolist() == [1, 2, 3, 4]
    assert estimates.group(group) == _reference([questions[p] for p in group], True)
    assert estimates.group(np.asarray(group))["anls"]["n_clusters"] == 3

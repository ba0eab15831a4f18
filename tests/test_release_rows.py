"""Release rows: question_rows and scores.jsonl against their definitions (json.dumps, round)."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
from assay.evaluation.benchmark import PER_QUESTION_FIELDS, QuestionResult
from assay.evaluation.runs import SystemInput, evaluate
from assay.report.release.json import question_rows
from assay.report.release.results import scores_jsonl

SAMPLE = assay.data_path("xlsample")
SCORE = (
    st.floats() | st.integers(-3, 3) | st.booleans()
    | st.sampled_from([0.0, -0.0, 1.0, 0.5, 1 / 3, 2 / 3, 1e-7, 0.1234565, math.nan, math.inf])
)  # fmt: skip


@pytest.fixture(scope="module")
def questions() -> list[QuestionResult]:
    files = sorted((SAMPLE / "predictions").glob("*.jsonl"))
    result = evaluate([SAMPLE / "qa_single_doc.jsonl"], [SystemInput("a", (str(files[0]),))])
    return list(result.systems[0].questions)


def _expected_row(q: QuestionResult) -> dict[str, Any]:
    row = q.to_dict()
    for name in ("accuracy", "token_f1", "anls"):
        row[name] = round(getattr(q, name), 6)
    return row


def _typed(rows: list[dict[str, Any]]) -> list[list[tuple[str, str]]]:
    """Keys in order with each value's repr (1 and 1.0, 0.0 and -0.0 differ)."""
    return [[(k, repr(v)) for k, v in row.items()] for row in rows]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_rows_and_scores_jsonl_match_their_definitions(
    questions: list[QuestionResult], data: st.DataObject
) -> None:
    made = []
    for q in questions[:12]:
        scores = {n: data.draw(SCORE) for n in ("accuracy", "token_f1", "anls")}
        released = data.draw(st.none() | st.just(("Str", 7, "s", None, ["r"])))
        qid = data.draw(st.sampled_from([q.question_id, 17, "é\"x"]))
        made.append(replace(q, question_id=qid, released_row=released, **scores))
    system = SimpleNamespace(system="sys \"é\"", questions=made)
    result: Any = SimpleNamespace(systems=[system, SimpleNamespace(system="b", questions=made)])
    rows = question_rows(system)  # type: ignore[arg-type]
    assert _typed(rows) == _typed([_expected_row(q) for q in made])
    assert all(list(r)[: len(PER_QUESTION_FIELDS)] == list(PER_QUESTION_FIELDS) for r in rows)
    lines = []
    for s in result.systems:
        for q in s.questions:
            row = {"system": s.system, "question_id": q.question_id,
                   "accuracy": round(q.accuracy, 6), "token_f1": round(q.token_f1, 6),
                   "anls": round(q.anls, 6), "status": q.status}  # fmt: skip
            lines.append(json.dumps(row, ensure_ascii=False))
    expected = "\n".join([*lines, ""])
    assert scores_jsonl(result) == expected
    assert scores_jsonl(result, {s.system: question_rows(s) for s in result.systems}) == expected


def test_rows_of_the_sample_are_the_rounded_released_rows(questions: list[QuestionResult]) -> None:
    system: Any = SimpleNamespace(system="a", questions=questions)
    assert _typed(question_rows(system)) == _typed([_expected_row(q) for q in questions])

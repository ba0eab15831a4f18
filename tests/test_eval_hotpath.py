"""The evaluation hot path keeps its outputs: canonical result document without a JSON
round trip, regex rewrites equal to the released expressions."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from assay.evaluation import assay_rules
from assay.evaluation.compare import CompareOptions, result_document
from assay.evaluation.runs import SystemInput, evaluate
from assay.text.normalize import normalize_xldocbench
from compare_helpers import GOLD_DIR, write_predictions

RELEASED_LOOSE_MARK = re.compile(r"(?<!\w)[.\-]|[.\-](?!\w)")
TEXT = st.text(alphabet=st.sampled_from(list("ab1_ .-%é日\n\t\u00a0\u2028\x1c,;'")), max_size=30)


@given(TEXT)
def test_loose_mark_rewrite_matches_the_original_expression(text: str) -> None:
    assert assay_rules._LOOSE_MARK.sub(" ", text) == RELEASED_LOOSE_MARK.sub(" ", text)


def _released_normalize(text: str) -> str:
    """The released evaluator's normalisation, written out literally."""
    text = text.strip().lower()
    for prefix in ("the answer is", "answer:", "answer is"):
        if text.startswith(prefix):
            text = text[len(prefix) :].strip()
    text = re.sub(r"[^\w\s.\-%]", "", text)
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return re.sub(r"\s+", " ", text).strip()


@given(st.text(max_size=40) | TEXT)
def test_xldocbench_normalisation_equals_the_released_expression(text: str) -> None:
    assert normalize_xldocbench(text) == _released_normalize(text)


def _no_tuples(value: Any) -> bool:
    if isinstance(value, tuple):
        return False
    if isinstance(value, dict):
        return all(isinstance(k, str) and _no_tuples(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_no_tuples(v) for v in value)
    return value is None or type(value) in (str, int, float, bool)


def test_result_document_is_canonical_without_a_round_trip(tmp_path: Any) -> None:
    files = write_predictions(tmp_path / "pred", {
        "zeta": [1, 1, 1, 1, 1, 0], "alpha": [1, 0, 1, 0, 1, 0], "mid": [0, 0, 1, 0, 0, 0],
    })  # fmt: skip
    gold = [GOLD_DIR / "qa_single_doc.jsonl", GOLD_DIR / "qa_cross_doc.jsonl"]
    result = evaluate(gold, [SystemInput(f.stem, (str(f),)) for f in reversed(files)])
    document = result_document(result, CompareOptions(n_resamples=200))
    # Same keys in the same (sorted) order and same values as the JSON round trip.
    again = json.loads(json.dumps(document, sort_keys=True))
    assert json.dumps(document) == json.dumps(again)
    assert _no_tuples(document)
    first = document["items"][0]
    assert list(first["results"]) == ["alpha", "mid", "zeta"]
    assert [row["question_id"] for row in document["items"]] == [
        q.question_id for q in result.systems[0].questions
    ]

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
from xl_reference import normalize as released_normalize  # the released rules, literally

RELEASED_LOOSE_MARK = re.compile(r"(?<!\w)[.\-]|[.\-](?!\w)")
TEXT = st.text(alphabet=st.sampled_from(list("ab1_ .-%é日\n\t\u00a0\u2028\x1c,;'")), max_size=30)


@given(TEXT)
def test_loose_mark_rewrite_matches_the_original_expression(text: str) -> None:
    assert assay_rules._LOOSE_MARK.sub(" ", text) == RELEASED_LOOSE_MARK.sub(" ", text)


@given(st.text(max_size=40) | TEXT)
def test_xldocbench_normalisation_equals_the_released_expression(text: str) -> None:
    assert normalize_xldocbench(text) == released_normalize(text)


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


def _write_rows(path: Any, ids: list[str]) -> None:
    path.write_text("".join(json.dumps({"question_id": i, "prediction": i}) + "\n" for i in ids))


def _plain_counts(gold: set[str], ids: list[str]) -> tuple[int, int, list[str]]:
    """Distinct ids, distinct ids not in gold, ids seen twice (in order of the repeat)."""
    seen: list[str] = []
    repeated: list[str] = []
    for i in ids:
        if i in seen and i not in repeated:
            repeated.append(i)
        if i not in seen:
            seen.append(i)
    return len(seen), len([i for i in seen if i not in gold]), repeated


def test_align_counts_extras_without_keeping_them(tmp_path: Any) -> None:
    from assay.evaluation.align import align
    from assay.io.gold import read_gold

    gold_path = tmp_path / "gold.jsonl"
    gold_path.write_text(
        "".join(json.dumps({"question_id": f"g{k}", "answer": "x"}) + "\n" for k in range(4))
    )
    gold = read_gold([gold_path])
    gold_ids = {q.id for q in gold}
    cases = [
        ["g0", "g1", "e1", "e2", "e3"],  # extras, no duplicate: hashes only
        ["g0", "e1", "g1", "e1", "g0", "e2"],  # a repeated extra id: exact second pass
        ["g2", "g2", "e9", "g3"],  # a repeated gold id
    ]
    for ids in cases:
        path = tmp_path / "pred.jsonl"
        _write_rows(path, ids)
        got = align(gold, [path])
        count, extra, repeated = _plain_counts(gold_ids, ids)
        assert (got.prediction_count, got.extra_count) == (count, extra), ids
        assert [d.id for d in got.duplicates] == repeated, ids
        by_id = {q.id: row for q, row in got.pairs}
        assert all((by_id[g] is not None) == (g in ids) for g in gold_ids)


def test_align_reject_names_the_first_duplicate_in_file_order(tmp_path: Any) -> None:
    from assay.errors import InputFileError
    from assay.evaluation.align import align
    from assay.io.gold import read_gold

    gold_path = tmp_path / "gold.jsonl"
    gold_path.write_text(json.dumps({"question_id": "g0", "answer": "x"}) + "\n")
    gold = read_gold([gold_path])
    path = tmp_path / "pred.jsonl"
    _write_rows(path, ["e1", "g0", "e1", "g0"])  # the extra e1 repeats first (line 3)
    try:
        align(gold, [path], duplicate_policy="reject")
    except InputFileError as error:
        assert "'e1'" in str(error) and error.line == 3
    else:
        raise AssertionError("a duplicate id under reject must be refused")
    _write_rows(path, ["e1", "g0", "e2", "g0"])  # only the gold id repeats (line 4)
    try:
        align(gold, [path], duplicate_policy="reject")
    except InputFileError as error:
        assert "'g0'" in str(error) and error.line == 4
    else:
        raise AssertionError("a duplicate id under reject must be refused")


def test_align_resolves_hash_collisions_exactly(tmp_path: Any, monkeypatch: Any) -> None:
    """With 2-bit hashes nearly every extra id collides: the second pass must still count
    distinct ids, list duplicates in order and refuse the first duplicate exactly."""
    import random

    from assay.errors import InputFileError
    from assay.evaluation import align as align_module
    from assay.io.gold import read_gold

    monkeypatch.setattr(align_module, "_HASH_MASK", 0x3)
    monkeypatch.setattr(align_module, "_SORT_CHUNK", 4)
    gold_path = tmp_path / "gold.jsonl"
    gold_path.write_text(
        "".join(json.dumps({"question_id": f"g{k}", "answer": "x"}) + "\n" for k in range(5))
    )
    gold = read_gold([gold_path])
    gold_ids = {q.id for q in gold}
    rng = random.Random(4)
    path = tmp_path / "pred.jsonl"
    for _ in range(40):
        ids = [rng.choice([f"g{k}" for k in range(5)] + [f"e{k}" for k in range(12)])
               for _ in range(rng.randint(1, 25))]  # fmt: skip
        _write_rows(path, ids)
        got = align_module.align(gold, [path])
        count, extra, repeated = _plain_counts(gold_ids, ids)
        assert (got.prediction_count, got.extra_count) == (count, extra), ids
        assert [d.id for d in got.duplicates] == repeated, ids
        if repeated:
            first_repeat = next(k for k, i in enumerate(ids) if i in ids[:k])
            try:
                align_module.align(gold, [path], duplicate_policy="reject")
            except InputFileError as error:
                assert f"{ids[first_repeat]!r}" in str(error)
                assert error.line == first_repeat + 1, (ids, str(error))
            else:
                raise AssertionError("a duplicate id under reject must be refused")

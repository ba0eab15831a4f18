"""The library meets data where it is: array-likes, records, DataFrames out, short reprs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import datasets
import numpy as np
import pandas as pd
import pytest
import sacrebleu

import assay
from assay.errors import InputFileError, InvalidTypeError
from assay.evaluation.runs import SystemInput, evaluate
from assay.structured.example import score_bundled_example

SAMPLE = assay.data_path("xlsample")
GOLD = [SAMPLE / "qa_single_doc.jsonl", SAMPLE / "qa_cross_doc.jsonl"]
PREDICTIONS = sorted((SAMPLE / "predictions").iterdir())
HYPS = ["the cat sat on the mat", "a quick brown fox", "hello there world"]
REFS = ["the cat is on the mat", "the quick brown fox jumps", "hello world"]


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize(
    "wrap",
    [
        tuple,
        np.array,
        pd.Series,
        lambda xs: datasets.Dataset.from_dict({"c": list(xs)})["c"],
    ],
    ids=["tuple", "numpy", "pandas", "datasets"],
)
def test_score_corpus_takes_array_likes(wrap: Any) -> None:
    expected = sacrebleu.corpus_bleu(HYPS, [REFS]).score / 100
    result = assay.score_corpus("corpus_bleu", wrap(HYPS), wrap(REFS))
    assert result.value == pytest.approx(expected, abs=1e-12)
    assert result.n == 3


def test_score_corpus_takes_a_column_of_target_lists() -> None:
    targets = [["Paris", "paris, france"], ["42"]]
    frame = pd.DataFrame({"p": ["Paris", "41"], "t": targets})
    column = datasets.Dataset.from_pandas(frame)["t"]
    for t in (frame["t"], column, np.array([np.array(x) for x in targets], dtype=object)):
        result = assay.score_corpus("exact_match", frame["p"], t)
        assert result.values == (1.0, 0.0)


@pytest.mark.parametrize("bad", [{"a", "b"}, (x for x in ["a"]), "ab", {"a": 1}])
def test_score_corpus_still_refuses_non_sequences(bad: Any) -> None:
    with pytest.raises(InvalidTypeError, match="predictions must be a list or another sequence"):
        assay.score_corpus("f1", bad, ["a"])


def test_a_nan_in_a_series_is_an_error_not_the_text_nan() -> None:
    with pytest.raises(InvalidTypeError, match="prediction must be a string, got float"):
        assay.score_corpus("f1", pd.Series(["a", None]), ["a", "b"])


def per_question(result: Any) -> list[list[dict[str, Any]]]:
    return [s.to_dict()["per_question"] for s in result.systems]


def test_evaluate_takes_gold_and_predictions_as_records_and_frames() -> None:
    by_files = evaluate(GOLD, [SystemInput(p.stem, (str(p),)) for p in PREDICTIONS])
    gold_rows = [row for path in GOLD for row in lines(path)]
    as_records = evaluate(gold_rows, [SystemInput(p.stem, lines(p)) for p in PREDICTIONS])
    assert per_question(as_records) == per_question(by_files)
    gold_frame = pd.DataFrame(gold_rows)
    as_frames = evaluate(
        gold_frame, [SystemInput(p.stem, pd.read_json(p, lines=True)) for p in PREDICTIONS]
    )
    assert per_question(as_frames) == per_question(by_files)
    assert as_records.gold_files == ("gold records",)
    assert as_records.systems[0].prediction_files == ("atlas-7b records",)


def test_a_string_path_is_one_file_not_its_characters() -> None:
    path = str(PREDICTIONS[0])
    for files in (path, Path(path), [path], (path,)):
        entry = SystemInput("atlas", files)
        assert entry.files == (path,) and entry.records is None
    result = evaluate(GOLD, [SystemInput("atlas", path)])
    assert result.systems[0].evaluated_count == 48


def test_bad_records_name_the_row_index() -> None:
    gold_rows = [row for path in GOLD for row in lines(path)]
    broken = [*gold_rows[:3], {"question_id": "x1"}, *gold_rows[3:]]
    with pytest.raises(InputFileError) as caught:
        evaluate(broken, [SystemInput("a", str(PREDICTIONS[0]))])
    assert str(caught.value).startswith("gold records[3]: field 'answer': missing")
    preds = lines(PREDICTIONS[0])
    preds[2] = {"prediction": "no id here"}
    with pytest.raises(InputFileError) as caught:
        evaluate(GOLD, [SystemInput("atlas", preds)])
    assert "atlas records" in str(caught.value) and "([2]) has no id" in str(caught.value)
    twice = [gold_rows[0], gold_rows[0]]
    with pytest.raises(InputFileError, match=r"first at gold records\[0\]"):
        evaluate(twice, [SystemInput("a", str(PREDICTIONS[0]))])
    with pytest.raises(InvalidTypeError, match="not a mix"):
        SystemInput("a", [str(PREDICTIONS[0]), {"id": "q1"}])
    with pytest.raises(InvalidTypeError, match="expected a file path"):
        SystemInput("a", 42)


def test_result_frames_hold_every_item_and_the_means() -> None:
    result = evaluate(GOLD, [SystemInput(p.stem, str(p)) for p in PREDICTIONS])
    frame = result.to_pandas()
    assert len(frame) == 3 * 48
    means = frame.groupby("system")["accuracy"].mean()
    for system in result.systems:
        assert means[system.system] == pytest.approx(system.overall.accuracy, abs=1e-12)
    summary = result.summary_frame()
    assert list(summary["system"]) == [s.system for s in result.leaderboard()]
    assert list(summary.columns) == [
        "system", "questions", "evaluated", "missing_predictions", "n", "correct", "accuracy",
        "token_f1", "anls",
    ]  # fmt: skip


def test_reprs_are_a_few_lines() -> None:
    result = evaluate(GOLD, [SystemInput(p.stem, str(p)) for p in PREDICTIONS])
    text = repr(result)
    assert len(text) < 600 and len(text.splitlines()) == 4
    assert "borealis-70b" in text.splitlines()[1]  # leaderboard order
    assert len(repr(result.systems[0]).splitlines()) == 1
    html = result._repr_html_()
    assert html.startswith("<table>") and html.count("<tr>") == 4
    structured = score_bundled_example()
    assert len(repr(structured).splitlines()) == 7 and "(11/30)" in repr(structured)


def test_structured_frames_agree_with_the_report() -> None:
    report = score_bundled_example()
    items = report.to_pandas()
    document = report.to_dict()
    assert len(items) == len(document["items"])
    headlines = {h["key"]: h for h in document["headlines"]}
    assert int((items["format_verdict"] == "pass").sum()) == headlines["format_compliance"]["k"]
    assert int(items["end_to_end_pass"].sum()) == headlines["end_to_end_pass"]["k"]
    assert int(items["claims_supported"].sum()) == headlines["claim_support"]["k"]
    summary = report.summary_frame()
    assert list(summary["k"]) == [h["k"] for h in document["headlines"]]

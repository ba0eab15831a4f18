"""Issue 32 item 11: the library as a new user meets it in a notebook."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pandas as pd
import pytest
from rouge_score import rouge_scorer

import assay

PREDICTIONS = ["the cat sat", "a dog", "blue"]
TARGETS = [["the cat sat on the mat"], ["a dog ran"], ["red"]]


def test_score_corpus_takes_several_metrics() -> None:
    results = assay.score_corpus(["f1", "rouge_l"], PREDICTIONS, TARGETS)
    assert list(results) == ["f1", "rouge_l"]
    # f1 by hand: 3/3 and 3/6 -> 2/3; 2/2 and 2/3 -> 0.8; no shared token -> 0.
    assert results["f1"].value == pytest.approx((2 / 3 + 0.8 + 0) / 3, abs=1e-12)
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    pairs = zip(PREDICTIONS, TARGETS, strict=True)
    expected = [scorer.score(t[0], p)["rougeL"].fmeasure for p, t in pairs]
    assert list(results["rouge_l"].values) == pytest.approx(expected, abs=1e-12)


def test_corpus_result_to_pandas_has_one_row_per_item() -> None:
    frame = assay.score_corpus("f1", PREDICTIONS, TARGETS).to_pandas()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == ["item", "value"]
    assert frame["item"].tolist() == [0, 1, 2]
    assert frame["value"].tolist() == pytest.approx([2 / 3, 0.8, 0.0], abs=1e-12)
    # a corpus metric's frame carries its statistics: "a b" vs "a b c": hyp 2, ref 3
    stats = assay.score_corpus("corpus_bleu", ["a b"], [["a b c"]]).to_pandas()
    assert stats.loc[0, "hyp_len"] == 2 and stats.loc[0, "ref_len"] == 3


def test_stats_is_reachable_after_import_assay_and_loads_on_use() -> None:
    code = (
        "import sys, assay; before = 'assay.stats' in sys.modules; "
        "p = assay.stats.paired_approximate_randomization; print(before, callable(p))"
    )
    out = subprocess.check_output([sys.executable, "-c", code], text=True).split()
    assert out == ["False", "True"]


@pytest.mark.parametrize(
    ("make", "head"),
    [
        (lambda: assay.bind("f1"), "BoundMetric('f1', signature='f1|tok:word|"),
        (lambda: assay.get_metric("bleu"), "MetricSpec('bleu', family='ngram', options:"),
        (lambda: assay.score_corpus("f1", ["a"], ["a"]), "CorpusResult(f1=1.0, mean over n=1"),
    ],
)
def test_short_reprs_hold_no_function_addresses(make: Any, head: str) -> None:
    text = repr(make())
    assert text.startswith(head)
    assert " at 0x" not in text and "\n" not in text and len(text) < 300


@pytest.mark.parametrize("missing", [None, float("nan")])
def test_a_missing_prediction_is_not_advised_to_become_text(missing: object) -> None:
    with pytest.raises(assay.InvalidTypeError) as info:
        assay.score_corpus("f1", pd.Series(["a", missing], dtype=object), ["a", "b"])
    message = str(info.value)
    assert "str()" not in message
    assert "item 1" in message and "''" in message and "missing" in message
    with pytest.raises(assay.InvalidTypeError) as single:
        assay.score("f1", missing, ["a"])  # type: ignore[arg-type]
    assert "str()" not in str(single.value)
    with pytest.raises(assay.InvalidTypeError, match="str()"):  # a number: str() is right
        assay.score("f1", 3, ["a"])  # type: ignore[arg-type]

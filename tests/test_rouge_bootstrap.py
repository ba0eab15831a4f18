"""ROUGE's ``aggregate="bootstrap"``: rouge-score's ``BootstrapAggregator`` low/mid/high.

The oracle is the installed rouge-score: its ``BootstrapAggregator`` draws from NumPy's
global ``RandomState``, so the test seeds it with ``np.random.seed(seed)`` and assay
must return exactly the same ``low``/``mid``/``high`` for ``bootstrap_seed=seed``. The published
values (rouge-score's ``scoring_test.py``) are corpus rows in
``tests/vectors/ngram/rouge_1.jsonl``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from rouge_score import rouge_scorer, scoring

import assay
from _ngram_cases import make_pairs
from assay.errors import InvalidOptionError
from assay.metrics.rouge_bootstrap import bootstrap_interval
from cli_helpers import run_captured

VECTORS = Path(__file__).parent / "vectors" / "ngram" / "rouge_1.jsonl"
PAIRS = [(p, t[0]) for p, t in make_pairs(300, seed=20261201)]
TYPES = {"rouge_1": "rouge1", "rouge_2": "rouge2", "rouge_l": "rougeL", "rouge_lsum": "rougeLsum"}
MEASURES = {"p": "precision", "r": "recall", "f": "fmeasure"}


def _peer(rouge_type: str, pairs: list[tuple[str, str]], seed: int, **kwargs: float) -> object:
    """rouge-score's aggregate of one score type after ``np.random.seed(seed)``."""
    scorer = rouge_scorer.RougeScorer([rouge_type])
    aggregator = scoring.BootstrapAggregator(**kwargs)  # type: ignore[arg-type]
    for prediction, target in pairs:
        aggregator.add_scores(scorer.score(target, prediction))
    np.random.seed(seed)
    return aggregator.aggregate()[rouge_type]


@pytest.mark.parametrize("name", sorted(TYPES))
def test_low_mid_high_equal_rouge_score_given_the_same_seed(name: str) -> None:
    preds, targets = [p for p, _ in PAIRS], [t for _, t in PAIRS]
    for seed, kwargs in ((7, {}), (2026, {"confidence_interval": 0.9, "n_samples": 333})):
        theirs = _peer(TYPES[name], PAIRS, seed, **kwargs)
        for measure, field in MEASURES.items():
            result = assay.score_corpus(
                name, preds, targets, tokenizer="rouge-score", aggregate="bootstrap",
                bootstrap_seed=seed, measure=measure, **kwargs,
            )  # fmt: skip
            expected = [getattr(getattr(theirs, k), field) for k in ("low", "mid", "high")]
            assert result.details is not None
            assert [result.details[k] for k in ("low", "mid", "high")] == expected
            assert result.value == result.details["mid"]


def test_random_matrices_and_sizes_match_the_aggregator_exactly() -> None:
    """Item counts past one block of resamples, every interval rouge-score accepts."""
    rng = random.Random(13)
    for trial in range(25):
        n = rng.choice([1, 2, 3, 17, 250, 1200, 4100])
        k = rng.choice([1, 10, 500, 1000])
        ci = rng.choice([0.0, 0.5, 0.9, 0.95, 1.0])
        rows = [scoring.Score(rng.random(), rng.random(), rng.random()) for _ in range(n)]
        aggregator = scoring.BootstrapAggregator(confidence_interval=ci, n_samples=k)
        for row in rows:
            aggregator.add_scores({"x": row})
        seed = rng.randrange(2**32)
        np.random.seed(seed)
        theirs = aggregator.aggregate()["x"]
        for column in range(3):
            ours = bootstrap_interval([r[column] for r in rows], k, ci, seed)
            assert ours == (theirs.low[column], theirs.mid[column], theirs.high[column]), trial


def _published_rows() -> list[dict]:
    rows = [json.loads(line) for line in VECTORS.read_text(encoding="utf-8").splitlines()]
    return [row for row in rows if "expected_details" in row]


@pytest.mark.parametrize("row", _published_rows(), ids=lambda r: r["case"])
def test_rouge_score_published_intervals(row: dict) -> None:
    result = assay.score_corpus(row["metric"], row["predictions"], row["targets_list"],
                                **row["options"])  # fmt: skip
    assert result.details is not None
    for key, expected in row["expected_details"].items():
        assert result.details[key] == pytest.approx(expected, abs=row["tolerance"])


def test_hf_rouge_default_is_the_mid_not_the_mean() -> None:
    """HF ``rouge`` returns ``BootstrapAggregator().aggregate()[t].mid.fmeasure``."""
    preds, targets = [p for p, _ in PAIRS], [t for _, t in PAIRS]
    theirs = _peer("rouge1", PAIRS, 99)
    plain = assay.score_corpus("rouge_1", preds, targets, tokenizer="rouge-score")
    boot = assay.score_corpus("rouge_1", preds, targets, tokenizer="rouge-score",
                              aggregate="bootstrap", bootstrap_seed=99)  # fmt: skip
    assert boot.value == theirs.mid.fmeasure  # type: ignore[attr-defined]
    assert boot.details is not None and boot.details["mean"] == plain.value
    assert plain.value != boot.value  # the two numbers users confuse differ
    assert (plain.aggregation, boot.aggregation) == ("mean", "bootstrap")
    assert boot.to_dict()["aggregate"] == "bootstrap" and "aggregate" not in plain.to_dict()
    assert boot.values == plain.values  # item values do not depend on the aggregate


def test_signature_records_seed_samples_and_interval() -> None:
    assert assay.signature("rouge_l") == (
        "rouge_l|tok:word|norm:none|measure:f|beta:1.0|multi:native|v:0.1.0"
    )
    assert assay.signature("rouge_l", aggregate="bootstrap") == (
        "rouge_l|tok:word|norm:none|measure:f|beta:1.0|agg:bootstrap|seed:12345"
        "|samples:1000|ci:0.95|multi:native|v:0.1.0"
    )
    assert assay.signature(
        "rouge_2", aggregate="bootstrap", bootstrap_seed=3, n_samples=50, confidence_interval=0.5
    ).endswith("|agg:bootstrap|seed:3|samples:50|ci:0.5|multi:native|v:0.1.0")


def test_same_seed_same_result_other_seed_other_interval() -> None:
    preds, targets = [p for p, _ in PAIRS], [t for _, t in PAIRS]
    first = assay.score_corpus("rouge_1", preds, targets, aggregate="bootstrap", bootstrap_seed=5)
    again = assay.score_corpus("rouge_1", preds, targets, aggregate="bootstrap", bootstrap_seed=5)
    other = assay.score_corpus("rouge_1", preds, targets, aggregate="bootstrap", bootstrap_seed=6)
    assert first.to_dict() == again.to_dict()
    assert first.details != other.details


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"bootstrap_seed": 3}, "add aggregate='bootstrap'"),
        ({"n_samples": 10}, "add aggregate='bootstrap'"),
        ({"aggregate": "median"}, "expected 'mean' or 'bootstrap'"),
        ({"aggregate": "bootstrap", "bootstrap_seed": -1}, "from 0 to 4294967295"),
        ({"aggregate": "bootstrap", "n_samples": 0}, "positive integer"),
        ({"aggregate": "bootstrap", "confidence_interval": 1.5}, "from 0 to 1"),
    ],
)
def test_bad_bootstrap_options_are_refused(options: dict, fragment: str) -> None:
    with pytest.raises(InvalidOptionError, match=fragment):
        assay.score_corpus("rouge_1", ["a"], ["a"], **options)


def test_cli_score_file_prints_low_mid_high(tmp_path: Path) -> None:
    pairs = PAIRS[:40]
    path = tmp_path / "pairs.jsonl"
    path.write_text(
        "".join(
            json.dumps({"id": str(i), "prediction": p, "targets": [t]}) + "\n"
            for i, (p, t) in enumerate(pairs)
        ),
        encoding="utf-8",
    )
    code, out, err = run_captured(
        "score", "rouge_1", "--file", str(path), "--tokenizer", "rouge-score",
        "--aggregate", "bootstrap", "--bootstrap-seed", "42",
    )  # fmt: skip
    assert code == 0, err
    theirs = _peer("rouge1", pairs, 42)
    lines = out.splitlines()
    mid = theirs.mid.fmeasure  # type: ignore[attr-defined]
    assert lines[0] == f"rouge_1: {mid:.6f} (bootstrap over n=40)"
    assert f"low: {float(theirs.low.fmeasure)!r}" in lines  # type: ignore[attr-defined]
    assert f"high: {float(theirs.high.fmeasure)!r}" in lines  # type: ignore[attr-defined]
    assert lines[-1].endswith("|agg:bootstrap|seed:42|samples:1000|ci:0.95|multi:native|v:0.1.0")


def test_default_seed_is_the_stats_default() -> None:
    from assay.metrics.rouge_bootstrap import DEFAULT_SEED
    from assay.stats import DEFAULT_SEED as STATS_SEED

    assert DEFAULT_SEED == STATS_SEED == 12345

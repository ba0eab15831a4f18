"""Reference vectors, signatures, options and errors of the n-gram metrics."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
from assay.cli.main import cli
from assay.metrics.rouge_lcs import lcs_indices, lcs_length

VECTORS = Path(__file__).parent / "vectors" / "ngram"


def _rows() -> list[Any]:
    rows = []
    for path in sorted(VECTORS.glob("*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            rows.append(pytest.param(json.loads(line), id=f"{path.stem}:{number}"))
    return rows


@pytest.mark.parametrize("row", _rows())
def test_reference_vector(row: dict[str, Any]) -> None:
    assert row["source"] and row["tolerance"] <= 1e-9
    if "predictions" in row:
        got = assay.score_corpus(
            row["metric"], row["predictions"], row["targets_list"], **row["options"]
        ).value
    else:
        got = assay.score(row["metric"], row["prediction"], row["targets"], **row["options"])
    assert abs(got - row["expected"]) <= row["tolerance"]


def test_every_family_has_vectors() -> None:
    names = {p.stem for p in VECTORS.glob("*.jsonl")}
    assert names >= {"bleu", "bleu_4", "corpus_bleu", "gleu", "chrf", "chrf++"}
    assert names >= {"rouge_1", "rouge_2", "rouge_l", "rouge_lsum"}


SIGNATURES = {
    "bleu": "bleu|tok:word|norm:none|order:4|lc:no|smooth:exp|eps:0.1|k:1.0|eff:yes"
    "|empty:stop|multi:native|v:0.1.0",
    "corpus_bleu": "corpus_bleu|tok:13a|norm:none|order:4|lc:no|smooth:exp|eps:0.1|k:1.0"
    "|eff:no|empty:stop|multi:native|v:0.1.0",
    "bleu_4": "bleu_4|tok:word|norm:none|multi:max|v:0.1.0",
    "gleu": "gleu|tok:word|norm:none|min:1|max:4|multi:native|v:0.1.0",
    "rouge_l": "rouge_l|tok:word|norm:none|measure:f|beta:1.0|multi:native|v:0.1.0",
    "chrf": "chrf|tok:none|norm:none|nc:6|nw:0|beta:2.0|lc:no|ws:no|multi:native|v:0.1.0",
    "chrf++": "chrf++|tok:none|norm:none|nc:6|nw:2|beta:2.0|lc:no|ws:no|multi:native|v:0.1.0",
    "f1": "f1|tok:word|norm:none|multi:max|v:0.1.0",
}


@pytest.mark.parametrize(("name", "expected"), sorted(SIGNATURES.items()))
def test_signatures_are_pinned(name: str, expected: str) -> None:
    assert assay.signature(name) == expected


def test_options_are_recorded_in_the_signature() -> None:
    sig = assay.signature("bleu", smoothing="add-k", k=2, empty_order="nltk")
    assert "smooth:add-k" in sig and "k:2.0" in sig and "empty:floor-one" in sig
    assert "measure:r" in assay.signature("rouge_lsum", measure="recall")


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("bleu", {"smoothing": "method8"}),  # method0 ... method7 are nltk aliases
        ("bleu", {"empty_order": "never"}),
        ("bleu", {"max_order": 0}),
        ("rouge_l", {"measure": "x"}),
        ("rouge_1", {"beta": -1}),
        ("chrf", {"tokenizer": "word"}),
        ("gleu", {"min_order": 3, "max_order": 2}),
    ],
)
def test_bad_options_raise_typed_errors(name: str, options: dict[str, Any]) -> None:
    with pytest.raises(assay.InvalidOptionError):
        assay.score(name, "a b", ["a b"], **options)


def test_score_corpus_input_errors() -> None:
    with pytest.raises(assay.InvalidInputError):
        assay.score_corpus("bleu", ["a", "b"], [["a"]])
    with pytest.raises(assay.InvalidInputError):
        assay.score_corpus("bleu", [], [])
    with pytest.raises(assay.InvalidTypeError):
        assay.score_corpus("bleu", "a b", ["a b"])
    with pytest.raises(assay.UnknownMetricError):
        assay.score_corpus("bleu5", ["a"], ["a"])


def test_score_corpus_works_for_every_metric() -> None:
    for name in assay.metric_names():
        result = assay.score_corpus(name, ["the cat sat", ""], [["the cat sat"], ["x"]])
        assert result.n == 2 and len(result.values) == 2
        assert 0.0 <= result.value <= 1.0
        assert result.signature == assay.signature(name)
        assert json.loads(json.dumps(result.to_dict(), sort_keys=True))["metric"] == name
        if result.statistics is None:
            assert result.is_mean and result.value == sum(result.values) / 2
        else:
            assert len(result.statistic_names) == len(result.statistics[0])


def test_corpus_bleu_is_not_the_mean_of_sentence_scores() -> None:
    result = assay.score_corpus("corpus_bleu", ["a b c d", "x"], [["a b c d"], ["y"]])
    assert result.values == (1.0, 0.0)
    assert result.value == pytest.approx(0.8**0.25, abs=1e-12)
    assert result.statistics == ((4, 4, 4, 3, 2, 1, 4, 3, 2, 1), (1, 1, 0, 0, 0, 0, 1, 0, 0, 0))


def test_rouge_score_tokenizer_loses_non_ascii_text() -> None:
    assert assay.tokenize("Café 東京 naïve", "rouge-score") == ["caf", "na", "ve"]
    assert assay.score("rouge_1", "東京", "東京", tokenizer="rouge-score") == 0.0
    assert assay.score("rouge_1", "東京", "東京") == 1.0


def test_rouge_score_stem_only_stems_tokens_longer_than_three() -> None:
    # Porter maps "runs" -> "run" (4 chars, stemmed) but leaves "ran"/"was" (3 chars) alone.
    assert assay.tokenize("runs ran was caresses", "rouge-score-stem") == [
        "run",
        "ran",
        "was",
        "caress",
    ]


def test_lcs_on_long_sequences() -> None:
    a = [f"w{i % 97}" for i in range(3000)]
    b = [f"w{i % 89}" for i in range(3000)]
    assert lcs_length(a, a) == 3000
    assert lcs_length(a, []) == 0
    assert lcs_indices(["a", "b", "c"], ["b", "c", "a"]) == [1, 2]
    assert 0 < lcs_length(a, b) < 3000


def test_cli_lists_and_scores_the_new_metrics() -> None:
    runner = CliRunner()
    listing = runner.invoke(cli, ["metrics"], terminal_width=250)
    for name in ("bleu", "corpus_bleu", "bleu_4", "gleu", "rouge_lsum", "chrf++"):
        assert name in listing.output
    result = runner.invoke(
        cli,
        ["score", "rouge_1", "-p", "the cat sat", "-t", "the cat sat on the mat"]
        + ["--option", "measure=r", "--option", "beta=2"],
    )
    assert result.exit_code == 0, result.output
    assert "rouge_1: 0.500000" in result.output
    assert "measure:r|beta:2.0" in result.output


def test_cli_file_uses_the_corpus_definition(tmp_path: Path) -> None:
    path = tmp_path / "pairs.jsonl"
    rows = [
        {"id": "1", "prediction": "a b c d", "targets": ["a b c d"]},
        {"id": "2", "prediction": "x", "targets": "y"},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    result = CliRunner().invoke(cli, ["score", "corpus_bleu", "--file", str(path)])
    assert result.exit_code == 0, result.output
    assert f"corpus_bleu: {0.8**0.25:.6f} (corpus over n=2)" in result.output


def test_cli_bad_option_syntax_is_a_usage_error() -> None:
    result = CliRunner().invoke(cli, ["score", "bleu", "-p", "a", "-t", "a", "--option", "oops"])
    assert result.exit_code != 0
    assert "KEY=VALUE" in result.output


def _dp_lcs_table(a: list[str], b: list[str]) -> list[list[int]]:
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            if a[i - 1] == b[j - 1]:
                table[i][j] = table[i - 1][j - 1] + 1
            else:
                table[i][j] = max(table[i - 1][j], table[i][j - 1])
    return table


_TOKENS = st.lists(st.sampled_from(["a", "b", "c", "d", "é"]), max_size=14)


@settings(max_examples=300, deadline=None)
@given(_TOKENS, _TOKENS)
def test_lcs_matches_the_textbook_table(a: list[str], b: list[str]) -> None:
    table = _dp_lcs_table(a, b)
    assert lcs_length(a, b) == table[-1][-1]
    indices = lcs_indices(a, b)
    assert len(indices) == table[-1][-1]
    assert indices == sorted(set(indices))


_TEXT = st.text(alphabet="ab cdé.\n", max_size=40)
_NGRAM_METRICS = ("bleu", "corpus_bleu", "bleu_4", "gleu", "rouge_1", "rouge_2", "rouge_l")


@settings(max_examples=60, deadline=None)
@given(_TEXT, st.lists(_TEXT, min_size=1, max_size=3))
def test_scores_are_in_the_unit_interval(prediction: str, targets: list[str]) -> None:
    for name in (*_NGRAM_METRICS, "rouge_lsum", "chrf", "chrf++"):
        assert 0.0 <= assay.score(name, prediction, targets) <= 1.0 + 1e-12


@pytest.mark.parametrize("name", [*_NGRAM_METRICS, "rouge_lsum", "chrf", "chrf++"])
def test_identity_scores_one(name: str) -> None:
    text = "the quick brown fox jumps over the lazy dog"
    assert assay.score(name, text, [text]) == pytest.approx(1.0, abs=1e-12)

"""The public namespace, signatures and typed errors of the single entry point."""

import subprocess
import sys

import pytest

import assay
from assay.metrics.registry import REGISTRY

PUBLIC = [
    "AccountingError",
    "AssayError",
    "CompareOptions",
    "CorpusResult",
    "EvaluationResult",
    "InputFileError",
    "InvalidInputError",
    "InvalidOptionError",
    "InvalidTypeError",
    "Judge",
    "RescoreResult",
    "StructuredItem",
    "StructuredReport",
    "SystemInput",
    "UnknownMetricError",
    "UnknownNameError",
    "UnknownNormalizerError",
    "UnknownTokenizerError",
    "__version__",
    "bind",
    "data_path",
    "diff_reports",
    "evaluate",
    "get_metric",
    "load_contract",
    "metric_names",
    "normalize",
    "rescore",
    "result_document",
    "score",
    "score_corpus",
    "score_structured",
    "signature",
    "tokenize",
]


def test_public_namespace_is_pinned() -> None:
    assert sorted(assay.__all__) == sorted(PUBLIC)
    for name in PUBLIC:
        assert hasattr(assay, name), name


SIGNATURES = {
    "f1": "f1|tok:word|norm:none|multi:max|v:0.1.0",
    "exact_match": "exact_match|tok:none|norm:strip|multi:max|v:0.1.0",
    "accuracy": "accuracy|tok:none|norm:lower-space|multi:single|v:0.1.0",
    "token_f1.set": "token_f1.set|tok:whitespace|norm:xldocbench|multi:max|v:0.1.0",
    "squad_v1.em": "squad_v1.em|tok:whitespace|norm:squad|multi:max|v:0.1.0",
    "squad_v1.f1": "squad_v1.f1|tok:whitespace|norm:squad|multi:max|v:0.1.0",
    "squad_v2.em": "squad_v2.em|tok:whitespace|norm:squad|multi:native|v:0.1.0",
    "squad_v2.f1": "squad_v2.f1|tok:whitespace|norm:squad|multi:native|v:0.1.0",
    "anls": "anls|tok:none|norm:lower-space|thr:0.5|multi:max|v:0.1.0",
    "anls.docvqa": "anls.docvqa|tok:none|norm:lower-space|thr:0.5|multi:max|v:0.1.0",
    "edit_similarity": "edit_similarity|tok:none|norm:lower-space|multi:max|v:0.1.0",
}


@pytest.mark.parametrize(("name", "expected"), sorted(SIGNATURES.items()))
def test_default_signatures_are_pinned(name: str, expected: str) -> None:
    assert assay.signature(name) == expected


def test_signature_records_overridden_options() -> None:
    assert (
        assay.signature("f1", tokenizer="unicode", normalizer="squad")
        == "f1|tok:unicode|norm:squad|multi:max|v:0.1.0"
    )
    assert (
        assay.signature("anls", threshold=0.75)
        == "anls|tok:none|norm:lower-space|thr:0.75|multi:max|v:0.1.0"
    )


def test_every_descriptor_is_complete() -> None:
    for name, spec in REGISTRY.items():
        assert spec.name == name
        assert spec.description and spec.citation and spec.version
        assert spec.multi in ("max", "single", "native")
        assert spec.aggregation and isinstance(spec.higher_is_better, bool)


def test_single_string_target_is_wrapped() -> None:
    assert assay.score("exact_match", "Paris", "Paris") == 1.0


def test_unknown_metric_suggests_close_names() -> None:
    with pytest.raises(assay.UnknownMetricError) as info:
        assay.score("f_1", "a", ["a"])
    assert isinstance(info.value, ValueError)
    assert "'f1'" in str(info.value)
    assert "f1" in info.value.suggestions


def test_unknown_tokenizer_lists_known_ones() -> None:
    with pytest.raises(assay.UnknownTokenizerError) as info:
        assay.score("f1", "a", ["a"], tokenizer="words")
    message = str(info.value)
    assert "'words'" in message and "word" in message and "whitespace" in message


def test_unknown_normalizer_is_typed() -> None:
    with pytest.raises(assay.UnknownNormalizerError, match="squad"):
        assay.score("f1", "a", ["a"], normalizer="sqad")


def test_option_the_metric_does_not_take() -> None:
    with pytest.raises(assay.InvalidOptionError, match="threshold"):
        assay.score("f1", "a", ["a"], threshold=0.5)
    with pytest.raises(assay.InvalidOptionError, match="tokenizer"):
        assay.score("squad_v1.f1", "a", ["a"], tokenizer="word")


def test_bad_option_value() -> None:
    with pytest.raises(assay.InvalidOptionError, match="between 0 and 1"):
        assay.score("anls", "a", ["a"], threshold=1.5)


@pytest.mark.parametrize("prediction", [None, 3, 2.5, ["a"], b"a"])
def test_non_string_prediction(prediction: object) -> None:
    with pytest.raises(assay.InvalidTypeError, match="prediction must be a string") as info:
        assay.score("f1", prediction, ["a"])  # type: ignore[arg-type]
    assert isinstance(info.value, TypeError) and isinstance(info.value, assay.AssayError)


def test_empty_targets_list() -> None:
    with pytest.raises(assay.InvalidInputError, match="targets is empty"):
        assay.score("f1", "a", [])


def test_non_string_target_names_its_index() -> None:
    with pytest.raises(assay.InvalidTypeError, match=r"targets\[1\]"):
        assay.score("f1", "a", ["a", 7])  # type: ignore[list-item]


def test_accuracy_takes_exactly_one_target() -> None:
    with pytest.raises(assay.InvalidInputError, match="exactly one target"):
        assay.score("accuracy", "a", ["a", "b"])


def test_bind_scores_like_score() -> None:
    bound = assay.bind("f1")
    assert bound.signature == assay.signature("f1")
    assert bound.score("the cat sat", ["the cat sat on the mat"]) == 2 / 3


def test_import_does_not_load_heavy_dependencies() -> None:
    # Import time itself is measured by bench/import_time.py; here: what gets imported.
    code = (
        "import assay, sys; heavy = ('numpy', 'matplotlib', 'rich', 'jsonschema', 'jinja2', "
        "'click'); print(sorted(m for m in heavy if m in sys.modules))"
    )
    assert subprocess.check_output([sys.executable, "-c", code], text=True).strip() == "[]"


def test_score_in_a_loop_validates_each_option_value_by_its_type() -> None:
    # score() remembers bound metrics; 1 (an int) is not a boolean even after True was bound.
    assert assay.score("bleu", "a b c d", ["a b c d"], lowercase=True) == 1.0
    with pytest.raises(assay.InvalidOptionError, match="lowercase"):
        assay.score("bleu", "a b c d", ["a b c d"], lowercase=1)
    with pytest.raises(assay.InvalidOptionError, match="lowercase"):
        assay.score("bleu", "a b c d", ["a b c d"], lowercase=1)


def test_score_gives_the_same_value_as_bind_for_repeated_and_unhashable_options() -> None:
    bound = assay.bind("chrf", beta=1)
    for _ in range(3):
        assert assay.score("chrf", "the cat", ["the hat"], beta=1) == bound.score(
            "the cat", ["the hat"]
        )
    with pytest.raises(assay.InvalidOptionError, match="beta"):
        assay.score("chrf", "the cat", ["the hat"], beta=[1])

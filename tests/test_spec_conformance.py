"""Spec-conformance checks: names, spellings and edge cases as issues 2 and 3 word them."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import assay
from assay.metrics.registry import ALIASES, REGISTRY


@pytest.mark.parametrize(
    ("spelling", "canonical"),
    [
        ("chrF", "chrf"),
        ("chrF++", "chrf++"),
        ("chrfpp", "chrf++"),
        ("chrf_pp", "chrf++"),
        ("rougeL", "rouge_l"),
        ("rougeLsum", "rouge_lsum"),
        ("rouge1", "rouge_1"),
        ("rouge2", "rouge_2"),
        ("anls_docvqa", "anls.docvqa"),
        ("docvqa_anls", "anls.docvqa"),
        ("GLEU", "gleu"),
        ("google_bleu", "gleu"),
    ],
)
def test_common_spellings_resolve_to_one_canonical_metric(spelling: str, canonical: str) -> None:
    spec = assay.get_metric(spelling)
    assert spec.name == canonical
    assert assay.signature(spelling) == assay.signature(canonical)
    assert assay.signature(spelling).startswith(canonical + "|")
    assert assay.score(spelling, "the cat sat", ["the cat sat"]) == 1.0
    assert assay.score_corpus(spelling, ["a"], ["a"]).metric == canonical


def test_aliases_point_at_registered_names_and_are_not_listed() -> None:
    assert set(ALIASES.values()) <= set(REGISTRY)
    assert not set(ALIASES) & set(assay.metric_names())
    assert "rougeL" not in assay.metric_names()


@pytest.mark.parametrize("name", ["f2", "f_1", "F1", "rogue_l", "bleu5", "chrf+", "rouge-l", ""])
def test_unknown_names_still_raise_with_suggestions(name: str) -> None:
    with pytest.raises(assay.UnknownMetricError) as info:
        assay.score(name, "a", ["a"])
    assert isinstance(info.value, ValueError)
    assert "Known metrics:" in str(info.value)


def test_non_string_metric_name_is_unknown() -> None:
    with pytest.raises(assay.UnknownMetricError):
        assay.get_metric(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("measure", "expected"),
    [
        # prediction "a b c", target "a b": 2 shared unigrams; P = 2/3, R = 2/2,
        # F = 2·(2/3)·1 / (2/3 + 1) = 0.8.
        ("p", 2 / 3),
        ("P", 2 / 3),
        ("precision", 2 / 3),
        ("Precision", 2 / 3),
        ("r", 1.0),
        ("R", 1.0),
        ("recall", 1.0),
        ("f", 0.8),
        ("F", 0.8),
        ("fmeasure", 0.8),
        ("f-measure", 0.8),
    ],
)
def test_rouge_measure_names(measure: str, expected: float) -> None:
    assert assay.score("rouge_1", "a b c", ["a b"], measure=measure) == pytest.approx(expected)
    assert assay.score("rouge_l", "a b c", "a b", measure=measure) == pytest.approx(expected)


def test_rouge_measure_is_canonical_in_the_signature() -> None:
    assert "|measure:p|" in assay.signature("rouge_l", measure="Precision")
    with pytest.raises(assay.InvalidOptionError):
        assay.score("rouge_1", "a", "a", measure="accuracy")


def test_bleu_corpus_value_sums_statistics_never_means_sentence_scores() -> None:
    # Segments: "a b c d" vs "a b c d" (m = 4, 3, 2, 1) and "e f g h" vs "e f x h"
    # (m = 3, 1, 0, 0); totals 8, 6, 4, 2; c = r = 8 so BP = 1.
    # Corpus BLEU = (7/8 · 4/6 · 2/4 · 1/2)^(1/4) = (7/48)^(1/4).
    preds = ["a b c d", "e f g h"]
    refs = [["a b c d"], ["e f x h"]]
    for name in ("bleu", "corpus_bleu"):
        result = assay.score_corpus(name, preds, refs)
        assert result.value == pytest.approx((7 / 48) ** 0.25, abs=1e-12)
        assert not result.is_mean
        assert result.value != pytest.approx(sum(result.values) / 2)


def test_bleu_corpus_matches_sacrebleu_corpus_score() -> None:
    from sacrebleu.metrics import BLEU

    preds = ["the cat sat on the mat", "a dog ran", "it is raining today in paris"]
    refs = [["the cat is on the mat"], ["the dog ran away"], ["it rains in paris today"]]
    sacre = BLEU(tokenize="none", effective_order=True).corpus_score(preds, [[r[0] for r in refs]])
    ours = assay.score_corpus("bleu", preds, refs, tokenizer="whitespace")
    assert ours.value == pytest.approx(sacre.score / 100, abs=1e-9)


def test_tokenizer_none_is_sacrebleus_none() -> None:
    from sacrebleu.metrics import BLEU

    hyp, ref = "the cat sat on the mat .", "the cat is on the mat ."
    sacre = BLEU(tokenize="none", effective_order=True).sentence_score(hyp, [ref]).score / 100
    assert assay.score("bleu", hyp, [ref], tokenizer="none") == pytest.approx(sacre, abs=1e-12)
    assert assay.tokenize("a  b\tc", "none") == ["a", "b", "c"]


@pytest.mark.parametrize(
    ("metric", "key"), [("rouge_1", "rouge1"), ("rouge_2", "rouge2"), ("rouge_l", "rougeL")]
)
def test_rouge_use_stemmer_matches_rouge_score(metric: str, key: str) -> None:
    from rouge_score import rouge_scorer

    target = "The runners were running quickly through the flooded streets."
    prediction = "A runner runs quick through flooded street, running."
    ref = rouge_scorer.RougeScorer([key], use_stemmer=True).score(target, prediction)[key]
    for options in ({"use_stemmer": True}, {"use_stemmer": True, "tokenizer": "rouge-score"}):
        got = {m: assay.score(metric, prediction, target, measure=m, **options) for m in "prf"}
        assert got["p"] == pytest.approx(ref.precision, abs=1e-12)
        assert got["r"] == pytest.approx(ref.recall, abs=1e-12)
        assert got["f"] == pytest.approx(ref.fmeasure, abs=1e-12)
    sig = assay.signature(metric, use_stemmer=True)
    assert "|tok:rouge-score-stem|" in sig
    assert assay.signature(metric, use_stemmer=False) == assay.signature(metric)


def test_rouge_use_stemmer_rejects_other_tokenizers_and_non_bools() -> None:
    with pytest.raises(assay.InvalidOptionError):
        assay.score("rouge_l", "a", "a", use_stemmer=True, tokenizer="word")
    with pytest.raises(assay.InvalidOptionError):
        assay.score("rouge_l", "a", "a", use_stemmer="yes")


def test_corpus_result_says_how_the_value_was_made() -> None:
    # f1 per item: "a b" vs "a" -> P = 1/2, R = 1, F1 = 2/3; "c" vs "c" -> 1. Mean = 5/6.
    mean = assay.score_corpus("f1", ["a b", "c"], [["a"], "c"])
    assert mean.value == pytest.approx(5 / 6) and float(mean) == mean.value
    assert mean.is_mean and mean.aggregation == "mean"
    assert mean.per_item == mean.values == pytest.approx((2 / 3, 1.0))
    assert mean.statistics is None
    summed = assay.score_corpus("chrf", ["a b", "c"], [["a"], ["c"]])
    assert not summed.is_mean and summed.aggregation == "corpus"
    assert summed.statistics is not None and len(summed.statistics) == 2


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我爱北京。", ["我", "爱", "北", "京"]),
        ("「東京」、大阪！", ["東", "京", "大", "阪"]),
        ("カタカナ・ー", ["カ", "タ", "カ", "ナ", "ー"]),
        ("한국어, 좋아요.", ["한", "국", "어", "좋", "아", "요"]),
        ("東京2020年 Tokyo", ["東", "京", "2020", "年", "tokyo"]),
    ],
)
def test_cjk_tokenizer_drops_cjk_punctuation_like_unicode(text: str, expected: list[str]) -> None:
    # Expected by hand: each Han/Kana/Hangul word character alone; 。「」、・！ , . are
    # not word characters (the `unicode` tokenizer drops them too).
    assert assay.tokenize(text, "cjk") == expected


_MIXED = "我爱北京東京カタナー々한국어abcé\u0301नमस्ते。、「」・〜!?., \n"


@given(st.text(alphabet=_MIXED, max_size=40))
def test_cjk_keeps_exactly_the_characters_unicode_keeps(text: str) -> None:
    assert "".join(assay.tokenize(text, "cjk")) == "".join(assay.tokenize(text, "unicode"))


def test_descriptor_carries_what_issue_2_lists() -> None:
    import dataclasses

    spec = assay.get_metric("f1")
    assert dataclasses.is_dataclass(spec)
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.name = "g"  # type: ignore[misc]
    assert (spec.name, spec.default_tokenizer, spec.default_normalizer) == ("f1", "word", "none")
    assert spec.function is spec.fn and callable(spec.function)
    assert spec.multi_target == spec.multi == "max"
    assert spec.aggregation == "mean" and spec.higher_is_better is True
    assert spec.version == "0.1.0" and spec.citation
    assert assay.get_metric("squad_v2.f1").multi_target == "native"

"""Every accuracy rule and trap of the released evaluator, with hand-computed verdicts."""

import pytest

from assay.evaluation.xldocbench import answer_type, choice_letter, number
from scoring_helpers import acc, levenshtein, scores

XL = "xldocbench"


@pytest.mark.parametrize(
    ("fmt", "rule", "kind"),
    [
        ("Str", "numeric_tolerance", "entity"),  # the format wins when it is mapped
        ("Int", "casefold_exact_match", "numeric"),
        ("Float", "", "numeric"),
        ("None", "exact_match", "unanswerable"),
        ("Bool", "", "boolean"),
        ("Boolean", "", "boolean"),
        ("Percentage", "percentage_exact", "percentage"),
        ("quantity", "numeric_tolerance", "numeric"),  # unmapped: the rule is consulted
        ("Amount", "relative_tolerance", "numeric"),
        ("single_choice", "choice_exact_match", "single_choice"),
        ("List", "casefold_exact_match", "list"),
        ("str", "", "str"),  # the map is case-sensitive
    ],
)
def test_answer_type_map(fmt: str, rule: str, kind: str) -> None:
    assert answer_type(fmt, rule) == kind


def test_missing_format_means_str() -> None:
    # no format: Str → entity; "paris" is a substring of "it is paris"
    assert acc(XL, "It is Paris", "Paris", fmt=None) == 1.0


# --- string rule -------------------------------------------------------------------------


def test_string_containment_after_normalisation() -> None:
    # P = "capital is paris." (prefix? no; articles gone), G = "paris" ⊂ P
    assert acc(XL, "The capital is Paris.", "Paris") == 1.0


def test_string_trap_character_substring() -> None:
    # G = "c" is a character substring of "because of x"
    assert acc(XL, "Because of X", "C") == 1.0


def test_string_similarity_threshold_inclusive() -> None:
    # lev("abcde", "abcdx") = 1, max len 5 → 1 − 1/5 = 0.8 ≥ 0.8
    assert levenshtein("abcde", "abcdx") == 1
    assert acc(XL, "abcde", "abcdx") == 1.0
    # lev("abcde", "abcxy") = 2 → 0.6 < 0.8, and no containment
    assert acc(XL, "abcde", "abcxy") == 0.0


def test_string_similarity_near_miss_accepted() -> None:
    # "amsterdm" vs "amsterdam": lev 1, max 9 → 0.888… ≥ 0.8
    assert acc(XL, "Amsterdm", "Amsterdam") == 1.0


def test_empty_gold_string_rule() -> None:
    # G = "": containment needs a non-empty G; similarity("", "") = 1 (both empty)
    assert acc(XL, "", None) == 1.0
    assert acc(XL, "x", None) == 0.0  # 1 − 1/1 = 0


def test_prefix_removed_once_each_in_order() -> None:
    # "answer: the answer is oslo": "the answer is" is tried first and is not a prefix;
    # "answer:" is removed → "the answer is oslo"; "answer is" is not a prefix → kept.
    # P = "answer is oslo" (article gone) still contains G = "oslo".
    assert acc(XL, "Answer: the answer is Oslo", "Oslo") == 1.0


# --- numeric -------------------------------------------------------------------------------


def test_numeric_commas_and_spaces_deleted() -> None:
    assert number("1250") == 1250.0
    assert acc(XL, "1,250", "1250", "Int") == 1.0
    assert acc(XL, "1 250", "1,250", "Int") == 1.0  # "1 250" → "1250"


def test_numeric_tolerance_inclusive() -> None:
    # |105 − 100| / 100 = 0.05 ≤ 0.05
    assert acc(XL, "105", "100", "Int") == 1.0
    # 0.051 > 0.05
    assert acc(XL, "105.1", "100", "Float") == 0.0


def test_numeric_gold_zero() -> None:
    assert acc(XL, "0.0000001", "0", "Int") == 1.0  # 1e-7 < 1e-6
    assert acc(XL, "0.00001", "0", "Int") == 0.0


def test_numeric_trap_spaces_glue_numbers() -> None:
    # "3 items cost 1,250" → "3 items cost 1250" → "3itemscost1250" → first number 3
    assert acc(XL, "3 items cost 1,250", "1250", "Int") == 0.0


def test_numeric_trap_decimal_comma() -> None:
    # "63,1" → "631" ≠ 63.1
    assert acc(XL, "63,1", "63.1", "Float") == 0.0


def test_numeric_trap_unicode_minus() -> None:
    # "−8.4": the minus sign is deleted by normalisation → 8.4 vs −8.4: |16.8|/8.4 = 2
    assert acc(XL, "\u22128.4", "-8.4", "Float") == 0.0
    assert acc(XL, "-8.4", "-8.4", "Float") == 1.0


def test_numeric_trap_scientific_and_powers() -> None:
    assert acc(XL, "2.5e2", "250", "Int") == 0.0  # first number 2.5
    assert acc(XL, "2.5\u00d710^2", "250", "Int") == 0.0  # "2.5102" → 2.5102
    assert acc(XL, "10^3", "1000", "Int") == 0.0  # "103"
    assert acc(XL, "1/2", "0.5", "Float") == 0.0  # "12"


def test_numeric_falls_through_to_string_rule() -> None:
    # no number in P: "three" vs "3": not contained, 1 − 5/5 = 0
    assert acc(XL, "three", "3", "Int") == 0.0
    # no number in G: string rule; "n/a" → "na" vs "na"
    assert acc(XL, "NA", "n/a", "Int") == 1.0


def test_percentage_uses_numeric_tolerance() -> None:
    assert acc(XL, "42.9%", "42.9%", "Percentage", "percentage_exact") == 1.0
    # |43 − 42.9| / 42.9 ≈ 0.0023 ≤ 0.05: accepted although the rule says "exact"
    assert acc(XL, "43%", "42.9%", "Percentage", "percentage_exact") == 1.0
    # trap: the fraction form 0.429 vs 42.9
    assert acc(XL, "0.429", "42.9%", "Percentage", "percentage_exact") == 0.0


# --- unanswerable ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pred", "verdict"),
    [
        ("Not answerable", 1.0),
        ("This is unanswerable.", 1.0),
        ("It cannot be determined from the text", 1.0),
        ("cannot be answered", 1.0),
        ("There is not enough information", 1.0),
        ("CONTEXT_OVERFLOW", 1.0),
        ("I can't be determined", 0.0),  # apostrophe deleted: "cant be determined"
        ("insufficient evidence", 0.0),
        ("Not stated in the document", 0.0),
        ("Paris", 0.0),
    ],
)
def test_unanswerable_phrases(pred: str, verdict: float) -> None:
    assert acc(XL, pred, "Not answerable", "None", "exact_match") == verdict


# --- boolean -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pred", "gold", "verdict"),
    [
        ("Yes", "Yes", 1.0),
        ("yes, it did", "Yes", 1.0),
        ("True", "Yes", 1.0),
        ("No", "No", 1.0),
        ("False", "No", 1.0),
        ("No", "Yes", 0.0),
        ("incorrect", "No", 0.0),  # trap: contains "correct" → TRUE
        ("It is not true", "No", 0.0),  # trap: contains "true" → TRUE
        ("I don't know", "No", 1.0),  # trap: "know" contains "no" → FALSE
        ("maybe", "No", 0.0),  # undecided → 0
        ("", "No", 0.0),
    ],
)
def test_boolean_polarity(pred: str, gold: str, verdict: float) -> None:
    assert acc(XL, pred, gold, "Bool") == verdict


# --- single_choice -------------------------------------------------------------------------


def test_choice_letters() -> None:
    assert choice_letter("(c)") == "C"
    assert acc(XL, "(C)", "C", "single_choice", "choice_exact_match") == 1.0
    assert acc(XL, "Option C", "C", "single_choice", "choice_exact_match") == 1.0
    assert acc(XL, "B", "C", "single_choice", "choice_exact_match") == 0.0


def test_choice_trap_article_is_a_letter() -> None:
    # "I THINK IT IS A D": the first standalone A–D is the article "A"
    assert acc(XL, "I think it is a D", "D", "single_choice", "choice_exact_match") == 0.0


def test_choice_trap_falls_through_to_substring() -> None:
    # no standalone letter in P → string rule: "c" ⊂ "because of cost"
    assert acc(XL, "Because of cost", "C", "single_choice", "choice_exact_match") == 1.0


# --- token F1 and ANLS -------------------------------------------------------------------


def test_token_f1_sets() -> None:
    # P = {capital, is, paris}, G = {paris}: P = 1/3, R = 1 → 2·(1/3)/(4/3) = 0.5
    assert scores(XL, "the capital is paris", "Paris").token_f1 == pytest.approx(0.5)
    assert scores(XL, "paris paris", "Paris").token_f1 == 1.0  # sets
    assert scores(XL, "Paris.", "Paris").token_f1 == 0.0  # "paris." ≠ "paris"
    assert scores(XL, "", None).token_f1 == 1.0  # both empty
    assert scores(XL, "x", None).token_f1 == 0.0  # empty gold, non-empty prediction
    assert scores(XL, "", "Paris").token_f1 == 0.0


def test_anls_raw_strip_lower() -> None:
    # "amsterdm" vs "amsterdam": 1 − 1/9
    assert scores(XL, "Amsterdm", "Amsterdam").anls == pytest.approx(1 - 1 / 9)
    assert scores(XL, "  Paris ", "paris").anls == 1.0  # stripped and lowercased
    # inner whitespace is kept: "new  york" vs "new york": lev 1, max 9
    assert scores(XL, "new  york", "New York").anls == pytest.approx(1 - 1 / 9)
    # exactly 0.5 is kept: lev("abcd", "abxy") = 2, max 4
    assert scores(XL, "abcd", "abxy").anls == 0.5
    assert scores(XL, "abcd", "axyz").anls == 0.0  # 0.25 < 0.5
    assert scores(XL, "", None).anls == 1.0 and scores(XL, "", "x").anls == 0.0


def test_anls_is_not_normalised() -> None:
    # "the answer is paris." vs "paris": lev 15 (delete 14 + 1 chars), max 20 → 0.25 → 0
    assert levenshtein("the answer is paris.", "paris") == 15
    assert scores(XL, "The answer is Paris.", "Paris").anls == 0.0

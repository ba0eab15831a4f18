"""The ``assay`` profile: each difference from ``xldocbench`` is a named test with both verdicts."""

import pytest

from assay.evaluation.assay_rules import (
    ABSTENTION_PHRASES,
    abstains,
    answer_type,
    choice_letter,
    polarity,
)
from scoring_helpers import acc

AS, XL = "assay", "xldocbench"


def both(
    pred: str, value: object, fmt: str = "Str", rule: str | None = None, substituted: bool = False
) -> tuple[float, float]:
    return (
        acc(XL, pred, value, fmt, rule, substituted),
        acc(AS, pred, value, fmt, rule, substituted),
    )


# --- verification rule honoured ---------------------------------------------------------


def test_difference_rule_numeric_tolerance_on_str_format() -> None:
    # xldocbench: Str → entity; "1251" vs "1250": not contained, 1 − 1/4 = 0.75 < 0.8 → 0
    # assay: the rule says numeric: |1251 − 1250| / 1250 = 0.0008 ≤ 0.05 → 1
    assert both("1,251", "1,250", "Str", "numeric_tolerance") == (0.0, 1.0)


def test_difference_percentage_exact_is_exact() -> None:
    # xldocbench: 5 % tolerance → 43 vs 42.9 accepted; assay: 0.43 ≠ 0.429 → rejected
    assert both("43%", "42.9%", "Percentage", "percentage_exact") == (1.0, 0.0)


def test_assay_answer_types() -> None:
    assert answer_type("Str", "numeric_tolerance") == "numeric"
    assert answer_type("Str", "choice_exact_match") == "choice"
    assert answer_type("Percentage", "percentage_exact") == "percentage"
    assert answer_type("single_choice", "") == "choice"
    assert answer_type("None", "exact_match") == "unanswerable"
    assert answer_type("List", "casefold_exact_match") == "list"


# --- numbers read from the raw text ---------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "pred", "gold", "fmt"),
    [
        ("decimal_comma", "63,1", "63.1", "Float"),  # xl: 631
        ("unicode_minus", "\u22128.4 mmHg", "-8.4", "Float"),  # xl: 8.4
        ("en_dash_minus", "\u20138.4", "-8.4", "Float"),
        ("scientific", "2.5e2", "250", "Int"),  # xl: 2.5
        ("times_ten", "2.5\u00d710^2", "250", "Int"),  # xl: 2.5102
        ("power", "10^3", "1000", "Int"),  # xl: 103
        ("fraction", "1/2", "0.5", "Float"),  # xl: 12
        ("dot_thousands_decimal_comma", "1.250,5", "1250.5", "Float"),  # xl: 1.2505
    ],
)
def test_difference_numbers(name: str, pred: str, gold: str, fmt: str) -> None:
    assert both(pred, gold, fmt, "numeric_tolerance") == (0.0, 1.0), name


def test_same_verdict_thousands_comma() -> None:
    assert both("1,250.5", "1250.5", "Float", "numeric_tolerance") == (1.0, 1.0)


def test_difference_percentage_fraction_equivalence() -> None:
    # 0.429 read as a fraction equals 42.9% / 100; xldocbench compares 0.429 with 42.9
    assert both("0.429", "42.9%", "Percentage", "percentage_exact") == (0.0, 1.0)
    assert both("42.9 percent", "0.429", "Percentage", "percentage_exact") == (0.0, 1.0)
    assert both("1/2", "50%", "Percentage", "percentage_exact") == (0.0, 1.0)


# --- choice ---------------------------------------------------------------------------


def test_difference_choice_article_is_not_a_letter() -> None:
    # xldocbench picks the article "A"; assay only takes capital bare letters → D
    assert both("I think it is a D", "D", "single_choice", "choice_exact_match") == (0.0, 1.0)


def test_difference_choice_never_substring() -> None:
    # xldocbench: no letter → "c" ⊂ "because of cost"; assay: no letter, no option text → 0
    assert both("Because of cost", "C", "single_choice", "choice_exact_match") == (1.0, 0.0)


@pytest.mark.parametrize(
    ("text", "letter"),
    [
        ("(D)", "D"),
        ("(d) the last one", "D"),
        ("Option C", "C"),
        ("option c", "C"),
        ("answer: B", "B"),
        ("The answer is B", "B"),
        ("B. Lower dose", "B"),
        ("C", "C"),
        ("it is a D", "D"),
        ("no letter here", None),
    ],
)
def test_choice_letter_forms(text: str, letter: str | None) -> None:
    assert choice_letter(text) == letter


def test_choice_option_text_when_no_letter() -> None:
    # gold "B) Reduced costs": the prediction names the option text by whole tokens
    assert (
        acc(AS, "It reduced costs", "B) Reduced costs", "single_choice", "choice_exact_match")
        == 1.0
    )
    assert acc(AS, "Costs", "B) Reduced costs", "single_choice", "choice_exact_match") == 0.0


# --- entity containment by whole tokens ------------------------------------------------------


def test_difference_entity_whole_tokens() -> None:
    assert both("Because of X", "C") == (1.0, 0.0)
    assert both("The capital is Paris.", "Paris") == (1.0, 1.0)
    # "cat" inside "concatenate": xl contains by characters, assay does not;
    # similarity("concatenate", "cat") = 1 − 8/11 < 0.8
    assert both("concatenate", "cat") == (1.0, 0.0)


# --- abstentions --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pred",
    [
        "I can't be determined from the report.",
        "can\u2019t be determined",
        "Insufficient evidence to say.",
        "Not stated in the document",
        "The document doesn't say.",
        "The report does not mention it.",
    ],
)
def test_difference_abstentions(pred: str) -> None:
    assert both(pred, "Not answerable", "None", "exact_match") == (0.0, 1.0)


def test_abstention_whole_words_and_list() -> None:
    assert abstains("Unknown")
    assert not abstains("The unknowns were 3")  # "unknowns" is not the word "unknown"
    assert "insufficient evidence" in ABSTENTION_PHRASES


def test_difference_context_overflow_is_not_an_abstention() -> None:
    # a status-substituted CONTEXT_OVERFLOW counts as abstaining in xldocbench only
    assert both("CONTEXT_OVERFLOW", "Not answerable", "None", "exact_match", substituted=True) == (
        1.0,
        0.0,
    )


# --- booleans ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pred", "gold", "verdicts"),
    [
        ("incorrect", "No", (0.0, 1.0)),  # xl: contains "correct" → TRUE
        ("It is not true that it was met.", "No", (0.0, 1.0)),  # negation flips TRUE
        ("I don't know", "No", (1.0, 0.0)),  # xl: "know" contains "no"
        ("Nothing suggests so", "No", (1.0, 0.0)),  # xl: "nothing" contains "no"
        ("Yes", "Yes", (1.0, 1.0)),
        ("Not true", "Yes", (1.0, 0.0)),  # xl: contains "true"
    ],
)
def test_difference_booleans(pred: str, gold: str, verdicts: tuple[float, float]) -> None:
    assert both(pred, gold, "Bool") == verdicts


def test_polarity_words() -> None:
    assert polarity("Yes, it is not required") is True  # the first polarity word decides
    assert polarity("It is not false") is True
    assert polarity("wrong") is False
    assert polarity("maybe") is None

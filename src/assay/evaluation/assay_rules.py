"""Relaxed accuracy of the ``assay`` profile: the released rules with the traps fixed.

Each difference from :mod:`assay.evaluation.xldocbench` is deliberate and tested by name:

- **verification rule honoured**: ``numeric_tolerance`` → numeric, ``percentage_exact``
  → percentage compared exactly, ``choice_exact_match`` → option letters, whatever the
  format says; otherwise the released format map.
- **numbers from the raw text** (:mod:`assay.numbers`): thousands and decimal commas,
  Unicode minus and en dash, scientific and ×10^ notation, powers, fractions,
  percentages. Percentage answers accept 42.9% ⇔ 0.429 (both sides read as fractions).
- **choice**: option letters from ``(D)``, ``Option C``, ``answer: B``, ``B.``, a bare
  capital letter; never character substrings. No letter in the prediction → the
  option text after the gold letter is matched by whole tokens.
- **entity containment by whole tokens**: "Because of X" does not contain "C".
- **abstentions**: :data:`ABSTENTION_PHRASES`, matched by whole words after
  apostrophes are unified and contractions expanded (``can't`` → ``can not``).
  A status-substituted ``CONTEXT_OVERFLOW`` is *not* an abstention.
- **booleans by whole words**, with negation: the first polarity word decides and an
  odd number of negators before it flips it ("not true" → FALSE, "incorrect" → FALSE,
  "I don't know" → undecided).
"""

from __future__ import annotations

import math
import re
import unicodedata
from functools import lru_cache
from typing import Any

from assay.evaluation.xldocbench import ANSWER_TYPES
from assay.metrics.edit import similarity, similarity_bound
from assay.numbers import Number, first_number, percent_readings, within_relative
from assay.text.normalize import drop_articles, spaced_without_articles

RULE_TYPES = {
    "numeric_tolerance": "numeric",
    "percentage_exact": "percentage",
    "choice_exact_match": "choice",
}
FORMAT_TYPES = ANSWER_TYPES  # the released format → answer-type map, unchanged
CHOICE_FORMATS = ("single_choice", "multiple_choice", "choice")
ABSTENTION_PHRASES = (
    "not answerable",
    "unanswerable",
    "can not be answered",
    "can not answer",
    "can not be determined",
    "can not determine",
    "not enough information",
    "insufficient information",
    "insufficient evidence",
    "insufficient data",
    "not stated",
    "not mentioned",
    "not provided",
    "not specified",
    "not given",
    "not available",
    "not found in the document",
    "no information",
    "no answer",
    "does not mention",
    "does not say",
    "does not state",
    "does not specify",
    "does not provide",
    "does not contain",
    "do not know",
    "unknown",
)
TRUE_WORDS = frozenset({"yes", "true", "correct", "right", "affirmative", "yeah", "yep"})
FALSE_WORDS = frozenset({"no", "false", "incorrect", "wrong", "nope"})
NEGATORS = frozenset({"not", "never", "neither", "nor"})
NUMERIC_TOLERANCE = 0.05
EXACT_TOLERANCE = 1e-9
STRING_SIMILARITY = 0.8

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u2032": "'"})
_CANNOT = re.compile(r"\bcannot\b")
_CONTRACTIONS = (
    (re.compile(r"\bcan't\b"), "can not"),
    (re.compile(r"\bwon't\b"), "will not"),
    (_CANNOT, "can not"),
    (re.compile(r"n't\b"), " not"),
)
_PREFIXES = ("final answer:", "the answer is", "answer:", "answer is")
_NON_WORD = re.compile(r"[^\w\s.\-%]")
# A "." or "-" not between word characters: ``(?<!\w)[.-]|[.-](?!\w)``, written to start
# with the mark so the scan is a fast character search (same matches, tested).
_LOOSE_MARK = re.compile(r"[.\-](?:(?<!\w[.\-])|(?!\w))")
_WORD = re.compile(r"\w+")
# On ASCII text ``bytes.translate`` with these tables maps exactly the characters the
# patterns match to a space, in one C pass (tables read off the patterns themselves).
# ``_NON_WORD_TO_SPACE`` also maps every whitespace character to a space: the later passes
# tell characters apart only as word characters or not, and tokens are split at both.
_NON_WORD_TO_SPACE = bytes(
    32 if _NON_WORD.match(chr(c)) or chr(c).isspace() else c for c in range(256)
)
_NOT_W_TO_SPACE = bytes(32 if c < 128 and not _WORD.match(chr(c)) else c for c in range(256))
_EXPLICIT_CHOICE = re.compile(
    r"\(([A-Ha-h])\)|\b(?:option|choice|answer(?:\s+is)?)\s*[:\-]?\s*\(?([A-Ha-h])\b(?![\w'])"
)
_LEADING_CHOICE = re.compile(r"^\s*([A-H])\s*(?:[).:]|$)")
_BARE_CHOICE = re.compile(r"\b([A-H])\b(?!['\w])")

CONFIG: dict[str, Any] = {
    "rule_types": RULE_TYPES,
    "format_types": FORMAT_TYPES,
    "choice_formats": list(CHOICE_FORMATS),
    "abstention_phrases": list(ABSTENTION_PHRASES),
    "true_words": sorted(TRUE_WORDS),
    "false_words": sorted(FALSE_WORDS),
    "negators": sorted(NEGATORS),
    "numeric_tolerance": NUMERIC_TOLERANCE,
    "exact_tolerance": EXACT_TOLERANCE,
    "string_similarity": STRING_SIMILARITY,
}


def answer_type(answer_format: str, rule: str) -> str:
    """The rule's type when the rule is specific, else the released format map."""
    if rule in RULE_TYPES:
        return RULE_TYPES[rule]
    mapped = FORMAT_TYPES.get(answer_format)
    if mapped is not None:
        return mapped
    if "numeric" in rule or "tolerance" in rule:
        return "numeric"
    lowered = answer_format.lower()
    return "choice" if lowered in CHOICE_FORMATS else lowered


def words(text: str) -> str:
    """NFKC, casefold, unify apostrophes, expand contractions, words separated by spaces."""
    text = unicodedata.normalize("NFKC", text).casefold().translate(_APOSTROPHES)
    if "'" in text:
        for pattern, replacement in _CONTRACTIONS:
            text = pattern.sub(replacement, text)
    elif "cannot" in text:  # the only contraction pattern without an apostrophe
        text = _CANNOT.sub("can not", text)
    if text.isascii():  # ``\w+`` runs: every other character is a separator
        return " ".join(text.encode("ascii").translate(_NOT_W_TO_SPACE).decode("ascii").split())
    return " ".join(_WORD.findall(text))


def normalise(text: str) -> str:
    """Entity normalisation: casefold, answer prefixes off, punctuation → space, no articles."""
    text = unicodedata.normalize("NFKC", text).strip().casefold()
    if text.startswith(_PREFIXES):  # one check for the usual text without a prefix
        for prefix in _PREFIXES:
            if text.startswith(prefix):
                text = text[len(prefix) :].strip()
    if not text.isascii():
        text = _NON_WORD.sub(" ", text)
        if "." in text or "-" in text:
            text = _LOOSE_MARK.sub(" ", text)
        return " ".join(drop_articles(text))
    text = text.encode("ascii").translate(_NON_WORD_TO_SPACE).decode("ascii")
    if "." in text or "-" in text:
        text = _loose_marks_to_spaces(text)
    if "." in text or "-" in text or "%" in text:
        return " ".join(drop_articles(text))
    return spaced_without_articles(text)


def _loose_marks_to_spaces(text: str) -> str:
    """``_LOOSE_MARK.sub(" ", text)``; a ``.`` before a space or at the end first, by replace.

    Such a ``.`` is loose whatever precedes it, and a space in its place leaves every
    other mark's neighbours as word characters or not, as they were.
    """
    if ". " in text:
        text = text.replace(". ", "  ")
    if text.endswith("."):
        text = text[:-1] + " "
    if "." in text or "-" in text:
        text = _LOOSE_MARK.sub(" ", text)
    return text


def abstains(text: str) -> bool:
    """Whether the text is an abstention (whole-word phrase match)."""
    padded = f" {words(text)} "
    return any(f" {phrase} " in padded for phrase in ABSTENTION_PHRASES)


def polarity(text: str) -> bool | None:
    """First polarity word, flipped by an odd number of negators before it."""
    negations = 0
    for word in words(text).split():
        if word in NEGATORS:
            negations += 1
        elif word in TRUE_WORDS or word in FALSE_WORDS:
            return (word in TRUE_WORDS) != (negations % 2 == 1)
    return None


def contains_tokens(prediction: str, gold: str) -> bool:
    """Whether the gold's tokens occur contiguously, as whole tokens, in the prediction."""
    return f" {gold} " in f" {prediction} "


@lru_cache(maxsize=1 << 14)
def _gold_normalise(raw_gold: str) -> str:
    """:func:`normalise` of a gold answer, computed once for every system that meets it."""
    return normalise(raw_gold)


@lru_cache(maxsize=1 << 14)
def _gold_number(raw_gold: str) -> Number | None:
    """:func:`_number` of a gold answer, computed once for every system."""
    return _number(raw_gold)


def entity_rule(raw_pred: str, raw_gold: str) -> float:
    """Whole-token containment, else similarity ≥ 0.8, on normalised texts."""
    p, g = normalise(raw_pred), _gold_normalise(raw_gold)
    if not g:
        return 1.0 if not p else 0.0
    if contains_tokens(p, g):
        return 1.0
    if similarity_bound(p, g) < STRING_SIMILARITY:  # the lengths alone keep it below
        return 0.0
    return 1.0 if similarity(p, g) >= STRING_SIMILARITY else 0.0


def choice_letter(raw: str) -> str | None:
    """An option letter: explicit forms first, then a leading or bare capital letter."""
    text = unicodedata.normalize("NFKC", raw).strip()
    match = _EXPLICIT_CHOICE.search(text) or _LEADING_CHOICE.search(text)
    match = match or _BARE_CHOICE.search(text)
    if match is None:
        return None
    return next(group for group in match.groups() if group).upper()


def choice_rule(raw_pred: str, raw_gold: str) -> float:
    """Letters when both have one; else the gold option text by whole tokens; never substrings."""
    gold_letter = choice_letter(raw_gold)
    pred_letter = choice_letter(raw_pred)
    if gold_letter is None:
        return entity_rule(raw_pred, raw_gold)
    if pred_letter is not None:
        return 1.0 if pred_letter == gold_letter else 0.0
    option_text = re.sub(r"^\W*[A-Ha-h]\W+", "", raw_gold.strip(), count=1)
    if option_text and option_text != raw_gold.strip() and normalise(option_text):
        return 1.0 if contains_tokens(normalise(raw_pred), normalise(option_text)) else 0.0
    return 0.0


def _number(raw: str) -> Number | None:
    """The first number, or ``None`` when there is none or it is beyond the float range.

    A value past the range (``10^99999``, ``2e`` + thousands of digits) cannot be
    compared within a relative tolerance, so such an answer is judged by the entity
    rule on its text instead.
    """
    number = first_number(normalise_prefix(raw))
    return number if number is not None and math.isfinite(number.value) else None


def normalise_prefix(raw: str) -> str:
    """The raw text without a leading answer prefix (case-insensitive)."""
    text = raw.strip()
    folded = text.casefold()  # folded again only when a prefix came off
    for prefix in _PREFIXES:
        if folded.startswith(prefix):
            text = text[len(prefix) :].strip()
            folded = text.casefold()
    return text


def numeric_rule(raw_pred: str, raw_gold: str) -> float:
    """First numbers of raw texts within 5% relative tolerance; else the entity rule."""
    pred, gold = _number(raw_pred), _gold_number(raw_gold)
    if pred is None or gold is None:
        return entity_rule(raw_pred, raw_gold)
    return 1.0 if within_relative(pred.value, gold.value, NUMERIC_TOLERANCE) else 0.0


def percentage_rule(raw_pred: str, raw_gold: str, exact: bool) -> float:
    """Compare as fractions: 42.9% ⇔ 0.429; a bare number may be either reading."""
    pred, gold = _number(raw_pred), _gold_number(raw_gold)
    if pred is None or gold is None:
        return entity_rule(raw_pred, raw_gold)
    tolerance = EXACT_TOLERANCE if exact else NUMERIC_TOLERANCE
    for p in percent_readings(pred):
        for g in percent_readings(gold):
            if within_relative(p, g, tolerance):
                return 1.0
    return 0.0


def boolean_rule(raw_pred: str, raw_gold: str) -> float:
    """Polarity by whole words; an undecided gold falls back to the entity rule."""
    gold = polarity(raw_gold)
    if gold is None:
        return entity_rule(raw_pred, raw_gold)
    pred = polarity(raw_pred)
    return 1.0 if pred is not None and pred == gold else 0.0


def accuracy(kind: str, rule: str, raw_pred: str, raw_gold: str, substituted: bool) -> float:
    """Relaxed accuracy (0 or 1) of the raw prediction against the raw gold."""
    if kind == "unanswerable":
        return 1.0 if not substituted and abstains(raw_pred) else 0.0
    if substituted:
        return 0.0
    if kind == "boolean":
        return boolean_rule(raw_pred, raw_gold)
    if kind == "numeric":
        return numeric_rule(raw_pred, raw_gold)
    if kind == "percentage":
        return percentage_rule(raw_pred, raw_gold, exact=rule == "percentage_exact")
    if kind == "choice":
        return choice_rule(raw_pred, raw_gold)
    return entity_rule(raw_pred, raw_gold)

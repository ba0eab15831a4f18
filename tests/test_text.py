"""Tokenizers and normalizers: the contracts behind every signature."""

import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import assay
from assay.text import NORMALIZERS, TOKENIZERS, normalize, tokenize

NAMASTE = "नमस्ते"  # न म स ् त े : virama (Mn) and vowel sign e (Mn)


@given(st.text())
def test_word_is_the_classic_contract_bit_for_bit(text: str) -> None:
    assert tokenize(text, "word") == re.findall(r"\w+", text.lower())


def test_word_splits_devanagari_at_combining_marks() -> None:
    # stdlib \w is str.isalnum() or '_': the virama and the vowel sign are marks, not alnum.
    assert tokenize(NAMASTE, "word") == ["नमस", "त"]


def test_unicode_keeps_devanagari_and_thai_words_whole() -> None:
    assert tokenize(f"{NAMASTE} दुनिया", "unicode") == [NAMASTE, "दुनिया"]
    assert tokenize("สวัสดี ครับ", "unicode") == ["สวัสดี", "ครับ"]


def test_unicode_applies_nfc_and_lowercase() -> None:
    decomposed = "Cafe\u0301"  # e + combining acute
    assert tokenize(decomposed, "unicode") == ["caf\u00e9"]
    assert tokenize(decomposed, "word") == ["cafe"]  # the mark splits off and is dropped


def test_cjk_splits_han_kana_hangul_per_character() -> None:
    assert tokenize("東京タワー is 333m", "cjk") == ["東", "京", "タ", "ワ", "ー", "is", "333m"]
    assert tokenize("ひらがな", "cjk") == ["ひ", "ら", "が", "な"]
    assert tokenize("한국어 text", "cjk") == ["한", "국", "어", "text"]
    assert tokenize("東京タワー", "unicode") == ["東京タワー"]


def test_whitespace_char_and_none() -> None:
    assert tokenize(" a  b\tc\n", "whitespace") == ["a", "b", "c"]
    assert tokenize("ab c", "char") == ["a", "b", " ", "c"]
    assert tokenize(" a  b\n", "none") == ["a", "b"]  # sacrebleu's tokenize='none'
    assert tokenize("", "none") == []


SACREBLEU_SAMPLES = [
    "Hello, world! It's 3.14 or 1,000 -- really?",
    "The cost was $5.00 (approx.) & rising; see <b>here</b>.",
    "Line one-\nline two\nthree",
    "Quotes &quot;ok&quot; &amp; &lt;tags&gt; stay <skipped> gone",
    "2019-2020 ranges: 3-4, a-b, x.y, 7.",
    "naïve café — “smart quotes” … ok",
    "",
    "   spaces   ",
]


@pytest.mark.parametrize("text", SACREBLEU_SAMPLES)
def test_13a_matches_sacrebleu(text: str) -> None:
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    assert tokenize(text, "13a") == Tokenizer13a()(text).split()


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=60))
def test_13a_matches_sacrebleu_on_random_text(text: str) -> None:
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    assert tokenize(text, "13a") == Tokenizer13a()(text).split()


_13A_HARD = [*"0123456789.,-–  ab\n\t&;<>()/'\"\u00a0\u0663é"]
_13A_HARD += ["&amp;", "&quot;", "<skipped>", "-\n"]


@given(st.lists(st.sampled_from(_13A_HARD), max_size=30).map("".join))
def test_13a_matches_sacrebleu_on_digits_and_punctuation(text: str) -> None:
    # Stresses the single-pass rules: periods, commas and dashes next to digits,
    # Unicode digits (not [0-9]), non-ASCII whitespace, entities and joined lines.
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    assert tokenize(text, "13a") == Tokenizer13a()(text).split()


def test_13a_matches_sacrebleu_on_a_random_corpus() -> None:
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    rng = random.Random(1310)
    sacre = Tokenizer13a()
    for _ in range(20000):
        text = "".join(rng.choice(_13A_HARD) for _ in range(rng.randint(0, 16)))
        assert tokenize(text, "13a") == sacre(text).split(), text


_13A_LONG = [*_13A_HARD, *"!#$%*+:=?@[\\]^_`{|}~", "word", "Word7", "12", " ", " ", " "]


@given(st.lists(st.sampled_from(_13A_LONG), min_size=60, max_size=200).map("".join))
def test_13a_matches_sacrebleu_on_long_text(text: str) -> None:
    # Texts past _13A_PAD_MIN characters go through the padding pass when no two
    # periods/commas touch and no period/comma sits between digits or dash after a digit.
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    assert tokenize(text, "13a") == Tokenizer13a()(text).split()


def test_13a_padding_pass_matches_sacrebleu_on_a_random_corpus() -> None:
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    from assay.text.tokenize import _13A_DIGIT_JOINED
    rng = random.Random(1311)
    sacre = Tokenizer13a()
    padded = 0
    pieces = [p for p in _13A_LONG if p not in (".", ",")]
    for _ in range(3000):
        words = [rng.choice(pieces) for _ in range(rng.randint(40, 160))]
        for i in range(0, len(words), rng.randint(3, 12)):  # sentence ends, commas
            words[i] += rng.choice(". , ".split(" "))
        text = "".join(words)
        line = text.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
        adjacent = any(pair in line for pair in ("..", ".,", ",.", ",,"))
        if len(line) >= 96 and not adjacent and not _13A_DIGIT_JOINED.search(line):
            padded += 1
        assert tokenize(text, "13a") == sacre(text).split(), text
    assert padded > 600, padded  # the padding pass itself was exercised


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The Quick, brown fox!", "quick brown fox"),
        ("  an apple  a day ", "apple day"),
        ("theater is not the", "theater is not"),  # whole words only
        ("co-op's", "coops"),  # ASCII punctuation deleted, not replaced
        ("“curly” quotes", "“curly” quotes"),  # non-ASCII punctuation kept
        ("", ""),
    ],
)
def test_squad_normalizer(text: str, expected: str) -> None:
    assert normalize(text, "squad") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("  The answer is: 42 ", "42"),  # prefix, then ':' deleted
        ("Answer: Answer is x", "x"),  # both prefixes once each, in order
        ("answer is the answer is y", "answer is y"),  # "answer is" removed, then "the"
        ("$1,250.50 (approx.)", "1250.50 approx."),
        ("3/4 + 10^2 – 5%", "34 102 5%"),  # slash, caret, plus, en dash deleted
        ("It's a well-known fact", "its well-known fact"),
        ("Ça été", "ça été"),  # Unicode word characters kept
    ],
)
def test_xldocbench_normalizer(text: str, expected: str) -> None:
    assert normalize(text, "xldocbench") == expected


def test_lower_space_and_strip() -> None:
    assert normalize("  New\t\nYORK  ", "lower-space") == "new york"
    assert normalize("  A  ", "strip") == "A"
    assert normalize(" A ", "lower") == " a "
    assert normalize(" A ", "none") == " A "


def test_unknown_names_list_known_ones() -> None:
    with pytest.raises(assay.UnknownTokenizerError) as info:
        tokenize("a", "wrod")
    assert info.value.suggestions == ["word"]
    for name in TOKENIZERS:
        assert name in str(info.value)
    with pytest.raises(assay.UnknownNormalizerError) as info2:
        normalize("a", "SQuAD")
    for name in NORMALIZERS:
        assert name in str(info2.value)

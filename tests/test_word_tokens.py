"""The ``word`` tokenizer's ASCII shortcut gives the contract's tokens exactly.

The contract is ``re.findall(r"\\w+", text.lower())`` with the standard-library ``re``
(written out here, not taken from assay). Every ASCII character is drawn, as are
non-ASCII letters, marks and spaces (those texts take the ``findall`` itself).
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from assay.text.tokenize import LINE_TOKENIZERS, tokenize_word, tokenize_word_lines

ASCII = st.text(alphabet=st.characters(max_codepoint=127), max_size=40)
MIXED = st.text(alphabet="aZ_9 .,-\t\nÉé\u0301\u00a0\u0130K", max_size=20)


@settings(max_examples=1000)
@given(st.one_of(ASCII, MIXED))
def test_word_tokens_equal_the_findall_of_the_lowered_text(text: str) -> None:
    assert tokenize_word(text) == re.findall(r"\w+", text.lower())


def test_every_ascii_character_alone_and_between_words() -> None:
    for code in range(128):
        for text in (chr(code), f"Ab{chr(code)}Cd", f"{chr(code)}X{chr(code)}"):
            assert tokenize_word(text) == re.findall(r"\w+", text.lower()), repr(text)


def test_word_tokens_by_hand() -> None:
    assert tokenize_word("The cat_2, SAT-on\tthe mat.") == [
        "the",
        "cat_2",
        "sat",
        "on",
        "the",
        "mat",
    ]
    assert tokenize_word("Écrit à l'école") == ["écrit", "à", "l", "école"]


@settings(max_examples=500)
@given(st.one_of(ASCII, MIXED, st.text(alphabet="ab \n\n\r\x0b\x1c.", max_size=30)))
def test_line_form_is_the_contract_per_non_empty_line(text: str) -> None:
    expected = [re.findall(r"\w+", line.lower()) for line in text.split("\n") if line]
    assert tokenize_word_lines(text) == expected
    assert LINE_TOKENIZERS[tokenize_word] is tokenize_word_lines


def test_line_form_by_hand() -> None:
    assert tokenize_word_lines("The cat.\n\n--\nSAT_on\n") == [["the", "cat"], [], ["sat_on"]]
    assert tokenize_word_lines("") == []
    assert tokenize_word_lines("Été\n\nx") == [["été"], ["x"]]

"""The rouge-score tokenizers (and their line-aware form) against rouge-score's own.

rouge-score lowercases, turns every character outside ``[a-z0-9]`` into a space and
splits; assay takes a ``bytes.translate`` path on ASCII text and a regex otherwise.
Both must give rouge-score's tokens on every character class: ASCII letters of both
cases, digits, punctuation, every whitespace and control character, and non-ASCII text
(whose case mapping can yield ASCII letters: ``"İ".lower()`` holds an ``i``).
"""

from __future__ import annotations

import random
import string

from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import tokenize as rouge_tokenize

from assay.text.tokenize import (
    LINE_TOKENIZERS,
    tokenize_rouge_score,
    tokenize_rouge_score_lines,
    tokenize_rouge_score_stem,
)

ALPHABET = string.printable + "\x00\x1c\x1d\x1e\x1f\x7f\x85\xa0\u2028\u3000ÄéßİK\u212aŉ東京"


def _reference(text: str, stem: bool = False) -> list[str]:
    from nltk.stem import porter

    return list(rouge_tokenize.tokenize(text, porter.PorterStemmer() if stem else None))


def test_every_ascii_character_splits_or_joins_as_rouge_score() -> None:
    for code in range(128):
        text = f"Ab{chr(code)}Cd 9{chr(code)}z"
        assert tokenize_rouge_score(text) == _reference(text), repr(chr(code))


def test_seeded_texts_match_rouge_score() -> None:
    rng = random.Random(20261202)
    for _ in range(3000):
        text = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 60)))
        assert tokenize_rouge_score(text) == _reference(text), repr(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_any_text_matches_rouge_score(text: str) -> None:
    assert tokenize_rouge_score(text) == _reference(text)


def test_stemming_tokenizer_matches_rouge_score() -> None:
    text = "The RUNNING dogs ran, caresses; ponies... Café naïve 3.14 ÄRGER"
    assert tokenize_rouge_score_stem(text) == _reference(text, stem=True)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list(ALPHABET + "\n\n\n")), max_size=80))
def test_line_form_is_the_tokenizer_per_non_empty_line(text: str) -> None:
    expected = [_reference(line) for line in text.split("\n") if line]
    assert tokenize_rouge_score_lines(text) == expected
    assert LINE_TOKENIZERS[tokenize_rouge_score] is tokenize_rouge_score_lines


def test_line_form_keeps_lines_without_tokens_and_drops_empty_ones() -> None:
    assert tokenize_rouge_score_lines("A b\n\n!!\nc-D\n") == [["a", "b"], [], ["c", "d"]]
    assert tokenize_rouge_score_lines("") == []
    assert tokenize_rouge_score_lines("Ünï\n\nx") == [["n"], ["x"]]

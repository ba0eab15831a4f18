r"""Named tokenizers: the tokenizer is a contract, recorded in every signature.

=============  ==================================================================
name           contract
=============  ==================================================================
``word``       ``re.findall(r"\\w+", text.lower())`` with the standard-library ``re``;
               the classic contract, kept bit-for-bit. Combining marks (Devanagari
               vowel signs, Thai tone marks) are *not* ``\\w`` there and split words.
``unicode``    NFC, lowercase, then runs of word characters by Unicode rules
               (``regex`` module: letters, marks, digits, connector punctuation,
               join controls), so Devanagari and Thai words stay whole.
``cjk``        as ``unicode``, but every word character (``\\w`` as in ``unicode``)
               whose Script_Extensions include Han, Hiragana, Katakana or Hangul is a
               token of its own (``\\p{scx=Han}``, ``\\p{scx=Hiragana}``,
               ``\\p{scx=Katakana}``, ``\\p{scx=Hangul}``; this covers the prolonged
               sound mark ``ー`` and the iteration mark ``々``). CJK punctuation
               (``。、「」・〜``) is not ``\\w`` and is dropped, as in ``unicode``.
``whitespace`` ``text.split()``.
``char``       the code points of ``text``, unchanged (whitespace included).
``13a``        the mteval-v13a rules as documented by sacrebleu (see :func:`tokenize_13a`).
``none``       no tokenization of its own: the text split on whitespace, exactly
               sacrebleu's ``tokenize='none'`` (same tokens as ``whitespace``). Metrics
               that do not tokenise show ``tok:none`` in their signature.
``rouge-score`` Google's rouge-score ``DefaultTokenizer``: ``str.lower()``, every run
               of characters outside ``[a-z0-9]`` is a separator. Non-ASCII letters
               are therefore *lost* (``"café"`` → ``caf``; Chinese text → no token).
``rouge-score-stem`` as ``rouge-score``, then nltk's ``PorterStemmer()`` on tokens
               longer than 3 characters (rouge-score's ``use_stemmer=True``); needs
               ``nltk`` installed.
=============  ==================================================================
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable

import regex

from assay.errors import InvalidOptionError, UnknownTokenizerError

Tokenizer = Callable[[str], list[str]]

_WORD = re.compile(r"\w+")
_UNICODE_WORD = regex.compile(r"\w+")
_CJK_CLASS = r"\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}"
_CJK = regex.compile(rf"(?=\w)[{_CJK_CLASS}]|[^\W{_CJK_CLASS}]+")
_ROUGE_TOKEN = re.compile(r"[a-z0-9]+")

# mteval-v13a, in the order the script applies them.
_13A_RULES = (
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),  # punctuation and symbols
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),  # period/comma unless preceded by a digit
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),  # ... unless followed by a digit
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),  # dash after a digit
)


def tokenize_word(text: str) -> list[str]:
    r"""Lowercase and take runs of ``\\w`` (standard-library ``re``)."""
    return _WORD.findall(text.lower())


def tokenize_unicode(text: str) -> list[str]:
    """NFC, lowercase, then Unicode word runs that keep combining marks attached."""
    tokens: list[str] = _UNICODE_WORD.findall(unicodedata.normalize("NFC", text).lower())
    return tokens


def tokenize_cjk(text: str) -> list[str]:
    """As :func:`tokenize_unicode`, with each Han/Kana/Hangul character a token."""
    tokens: list[str] = _CJK.findall(unicodedata.normalize("NFC", text).lower())
    return tokens


def tokenize_whitespace(text: str) -> list[str]:
    """Split on runs of whitespace (``str.split()``)."""
    return text.split()


def tokenize_char(text: str) -> list[str]:
    """One token per code point."""
    return list(text)


def tokenize_none(text: str) -> list[str]:
    """No tokenization beyond splitting on whitespace (sacrebleu's ``tokenize='none'``)."""
    return text.split()


def tokenize_13a(text: str) -> list[str]:
    """Tokenise like mteval-v13a (sacrebleu's default ``13a``).

    Drops ``<skipped>``, joins ``-`` + newline, turns newlines into spaces, unescapes
    ``&quot; &amp; &lt; &gt;``, then separates punctuation and symbols, periods and
    commas not inside numbers, and dashes after digits. Case is kept.
    """
    line = text.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        line = line.replace("&quot;", '"').replace("&amp;", "&")
        line = line.replace("&lt;", "<").replace("&gt;", ">")
    line = f" {line} "
    for pattern, replacement in _13A_RULES:
        line = pattern.sub(replacement, line)
    return line.split()


def tokenize_rouge_score(text: str) -> list[str]:
    """Tokenise like rouge-score: lowercase, keep runs of ``[a-z0-9]`` only."""
    return _ROUGE_TOKEN.findall(text.lower())


@functools.lru_cache(maxsize=1)
def _porter() -> Callable[[str], str]:
    try:
        from nltk.stem import porter
    except ImportError:  # pragma: no cover - nltk is a test dependency
        raise InvalidOptionError(
            "tokenizer 'rouge-score-stem' needs nltk's Porter stemmer; pip install nltk"
        ) from None
    return functools.lru_cache(maxsize=65536)(porter.PorterStemmer().stem)


def tokenize_rouge_score_stem(text: str) -> list[str]:
    """As :func:`tokenize_rouge_score`, then Porter-stem tokens longer than 3 characters."""
    stem = _porter()
    tokens = (stem(t) if len(t) > 3 else t for t in _ROUGE_TOKEN.findall(text.lower()))
    return [t for t in tokens if _ROUGE_TOKEN.fullmatch(t)]


TOKENIZERS: dict[str, Tokenizer] = {
    "word": tokenize_word,
    "unicode": tokenize_unicode,
    "cjk": tokenize_cjk,
    "whitespace": tokenize_whitespace,
    "char": tokenize_char,
    "13a": tokenize_13a,
    "none": tokenize_none,
    "rouge-score": tokenize_rouge_score,
    "rouge-score-stem": tokenize_rouge_score_stem,
}


def get_tokenizer(name: str) -> Tokenizer:
    """Return the tokenizer registered under ``name``.

    Raises:
        UnknownTokenizerError: ``name`` is not registered; the message lists known names.
    """
    try:
        return TOKENIZERS[name]
    except (KeyError, TypeError):
        raise UnknownTokenizerError(name, TOKENIZERS) from None


def tokenize(text: str, tokenizer: str = "word") -> list[str]:
    """Tokenise ``text`` with the named tokenizer."""
    return get_tokenizer(tokenizer)(text)

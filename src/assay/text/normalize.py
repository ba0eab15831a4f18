"""Named normalizers: pure ``str -> str`` functions with stable short names.

============== =====================================================================
name           what it does
============== =====================================================================
``none``       nothing.
``strip``      removes surrounding whitespace.
``lower``      ``str.lower()`` and nothing else.
``strip-lower`` strip, then ``str.lower()`` (inner whitespace kept; the XL-DocBench
               ANLS preprocessing).
``lower-space`` lowercase, strip, and collapse every whitespace run to one space
               (the ANLS / DocVQA preprocessing).
``squad``      SQuAD's ``normalize_answer``: lowercase, delete ASCII punctuation
               (``string.punctuation``), replace whole-word a/an/the by a space,
               collapse whitespace.
``xldocbench`` the XL-DocBench released evaluator: strip + lowercase; remove the
               prefixes "the answer is", "answer:", "answer is" once each in that
               order; delete every character that is not a word character,
               whitespace, ``.``, ``-`` or ``%``; replace whole-word a/an/the by a
               space; collapse whitespace.
============== =====================================================================
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable

from assay.errors import UnknownNormalizerError

Normalizer = Callable[[str], str]

# ``\b(a|an|the)\b``, written to start with a letter so the scan skips every position
# that holds neither "a" nor "t" (same matches on every text, tested).
_ARTICLES = re.compile(r"a(?<!\wa)n?(?!\w)|the(?<!\wthe)(?!\w)")
_ARTICLE_WORDS = frozenset({"a", "an", "the"})
_NOT_XL_KEPT = re.compile(r"[^\w\s.\-%]")
# The ASCII characters ``_NOT_XL_KEPT`` matches, read off the pattern itself: on ASCII
# text ``bytes.translate`` deletes exactly what the regex deletes, in one C pass.
_XL_DELETED_ASCII = bytes(c for c in range(128) if _NOT_XL_KEPT.match(chr(c)))
_PUNCT_TABLE = str.maketrans("", "", string.punctuation)
# ``squad`` on ASCII text: one ``bytes.translate`` lowercases and deletes the punctuation.
_ASCII_LOWER = bytes.maketrans(string.ascii_uppercase.encode(), string.ascii_lowercase.encode())
_PUNCT_BYTES = string.punctuation.encode("ascii")
# Deleting every byte but the ASCII controls that are neither ``\w`` nor whitespace
# leaves nothing iff the text has none of them (then its tokens are runs of ``\w``).
_ALL_BUT_ODD_CONTROLS = bytes(
    c for c in range(256) if not (c < 128 and not chr(c).isprintable() and not chr(c).isspace())
)
_XL_PREFIXES = ("the answer is", "answer:", "answer is")


def normalize_none(text: str) -> str:
    """Return ``text`` unchanged."""
    return text


def normalize_strip(text: str) -> str:
    """Remove surrounding whitespace."""
    return text.strip()


def normalize_lower(text: str) -> str:
    """Lowercase with ``str.lower()``."""
    return text.lower()


def normalize_strip_lower(text: str) -> str:
    """Strip surrounding whitespace, then lowercase with ``str.lower()``."""
    return text.strip().lower()


def normalize_lower_space(text: str) -> str:
    """Lowercase, strip and collapse whitespace runs to single spaces."""
    return " ".join(text.lower().split())


def normalize_squad(text: str) -> str:
    """SQuAD ``normalize_answer``: lower, drop punctuation, drop articles, fix spaces."""
    return " ".join(squad_tokens(text))


def squad_tokens(text: str) -> list[str]:
    """The whitespace tokens of :func:`normalize_squad` (``normalize_squad(text).split()``).

    On ASCII text one ``bytes.translate`` lowercases (ASCII ``str.lower`` maps exactly
    ``A-Z``) and deletes ``string.punctuation``. What is left is letters, digits,
    whitespace and perhaps control characters; without controls every token is a run of
    word characters, which holds an article iff it is one (:func:`drop_articles`), so
    the tokens are filtered with no regex pass. Other text takes the plain expression.
    """
    if text.isascii():
        kept = text.encode("ascii").translate(_ASCII_LOWER, _PUNCT_BYTES)
        if text.isprintable() or not kept.translate(None, _ALL_BUT_ODD_CONTROLS):
            return [token for token in kept.decode("ascii").split() if token not in _ARTICLE_WORDS]
    return _ARTICLES.sub(" ", text.lower().translate(_PUNCT_TABLE)).split()


def drop_articles(text: str) -> list[str]:
    r"""The whitespace tokens of ``re.sub(r"\b(a|an|the)\b", " ", text)``.

    ``text`` must hold only word characters, whitespace and ``.``, ``-``, ``%`` (what
    the ``xldocbench`` and ``assay`` entity normalisations leave). Without a mark every
    token is a run of word characters, which holds an article iff it *is* ``a``, ``an``
    or ``the``: the tokens are filtered, no regex pass. ``str.split()`` splits on
    exactly the characters ``\s`` matches (``str.isspace``).
    """
    if "." in text or "-" in text or "%" in text:
        return _ARTICLES.sub(" ", text).split()
    return [token for token in text.split() if token not in _ARTICLE_WORDS]


def spaced_without_articles(text: str) -> str:
    """``" ".join(drop_articles(text))`` by C-level string passes, without a token list.

    ``text`` must hold only word characters and the space character (no other
    whitespace, no ``.``, ``-`` or ``%``): its tokens are then runs of word characters,
    and an article is a token equal to ``a``, ``an`` or ``the``, replaced with its
    padding spaces by one space until none is left.
    """
    while "  " in text:
        text = text.replace("  ", " ")
    text = f" {text.strip(' ')} "
    for article in (" a ", " an ", " the "):
        while article in text:
            text = text.replace(article, " ")
    return text[1:-1]


def _xl_kept(text: str) -> str:
    """The ``xldocbench`` normalisation before articles: strip, lower, prefixes, deletions."""
    text = text.strip().lower()
    if text.startswith(_XL_PREFIXES):  # one check for the usual text without a prefix
        for prefix in _XL_PREFIXES:
            if text.startswith(prefix):
                text = text[len(prefix) :].strip()
    if text.isascii():
        return text.encode("ascii").translate(None, _XL_DELETED_ASCII).decode("ascii")
    return _NOT_XL_KEPT.sub("", text)


def xldocbench_tokens(text: str) -> list[str]:
    """The whitespace tokens of :func:`normalize_xldocbench` (``normalize(text).split()``)."""
    return drop_articles(_xl_kept(text))


def _dots_end_tokens(text: str) -> bool:
    """Whether every ``.`` in ``text`` is followed by a space or ends the text."""
    return text.count(".") == text.count(". ") + text.endswith(".")


def xldocbench_token_set(text: str) -> set[str]:
    """``set(xldocbench_tokens(text))``, built from the distinct tokens only.

    A token without ``.``, ``-`` or ``%`` is a run of word characters: it holds an
    article iff it is one. The article pattern is applied to each distinct token that
    has a mark, alone: its ends are whitespace in the text, which the pattern's
    lookarounds treat as they treat the ends of the token. When every ``.`` ends its
    token (sentence ends) and there is no ``-`` or ``%``, the marked tokens are a word
    run and a ``.``: only ``a.``, ``an.`` and ``the.`` change, each to ``.``.
    """
    text = _xl_kept(text)
    tokens = set(text.split())
    if "-" not in text and "%" not in text and _dots_end_tokens(text):
        # Each token is a run of word characters, with or without one "." after it:
        # only "a.", "an." and "the." change (to ".").
        for marked in ("a.", "an.", "the."):
            if marked in tokens:
                tokens.discard(marked)
                tokens.add(".")
    elif "." in text or "-" in text or "%" in text:
        for token in [t for t in tokens if not t.isalnum()]:
            pieces = _ARTICLES.sub(" ", token).split()
            if pieces != [token]:
                tokens.discard(token)
                tokens.update(pieces)
    tokens.difference_update(_ARTICLE_WORDS)
    return tokens


def normalize_xldocbench(text: str) -> str:
    r"""Normalise like the XL-DocBench released evaluator (see module docstring).

    ``re.sub(r"\s+", " ", t).strip()`` as released is the tokens joined by one space
    (see :func:`drop_articles`).
    """
    return " ".join(xldocbench_tokens(text))


NORMALIZERS: dict[str, Normalizer] = {
    "none": normalize_none,
    "strip": normalize_strip,
    "lower": normalize_lower,
    "strip-lower": normalize_strip_lower,
    "lower-space": normalize_lower_space,
    "squad": normalize_squad,
    "xldocbench": normalize_xldocbench,
}


def get_normalizer(name: str) -> Normalizer:
    """Return the normalizer registered under ``name``.

    Raises:
        UnknownNormalizerError: ``name`` is not registered; the message lists known names.
    """
    try:
        return NORMALIZERS[name]
    except (KeyError, TypeError):
        raise UnknownNormalizerError(name, NORMALIZERS) from None


def normalize(text: str, normalizer: str = "none") -> str:
    """Normalise ``text`` with the named normalizer."""
    return get_normalizer(normalizer)(text)

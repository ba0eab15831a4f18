r"""Tercom's text preparation for TER, as sacrebleu's ``TercomTokenizer`` defines it.

The steps, in order (each switched by an option of the ``ter`` metric):

1. trailing whitespace removed (sacrebleu strips each segment before tokenising);
2. lowercase unless ``case_sensitive``;
3. ``normalized``: join ``\n-`` hyphenation, newlines to spaces, unescape
   ``&quot; &amp; &lt; &gt;``, then the Western rules: punctuation and symbols
   split off, ``'s`` split off, ``.``/``,`` split unless between digits, ``-`` split
   after a digit; with ``asian_support`` also CJK ideographs, strokes, radicals,
   compatibility forms and enclosed letters become single tokens, and CJK and
   full-width punctuation is split off;
4. ``no_punct``: ``. , ? : ; ! " ( )`` removed (with ``asian_support`` also CJK and
   full-width punctuation);
5. split on whitespace.

The kana rules of Tercom (split a Hiragana/Katakana run "only when adjacent to
something else") are written with ``^`` inside a group, so they only ever match a
text that *is* one kana run; assay keeps that behaviour, because sacrebleu has it.
"""

from __future__ import annotations

import re

_GENERAL = (
    (re.compile(r"\n-"), ""),
    (re.compile(r"\n"), " "),
    (re.compile(r"&quot;"), '"'),
    (re.compile(r"&amp;"), "&"),
    (re.compile(r"&lt;"), "<"),
    (re.compile(r"&gt;"), ">"),
)
_WESTERN = (
    (re.compile(r"([{-~[-` -&(-+:-@/])"), r" \1 "),
    (re.compile(r"'s "), r" 's "),
    (re.compile(r"'s$"), r" 's"),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
)
_ASIAN_PUNCT = r"([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])"
_FULL_WIDTH_PUNCT = r"([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])"
_ASIAN = (
    (re.compile(r"([\u4e00-\u9fff\u3400-\u4dbf])"), r" \1 "),
    (re.compile(r"([\u31c0-\u31ef\u2e80-\u2eff])"), r" \1 "),
    (re.compile(r"([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])"), r" \1 "),
    (re.compile(r"([\u3200-\u3f22])"), r" \1 "),
    (re.compile(r"(^|^[\u3040-\u309f])([\u3040-\u309f]+)(?=$|^[\u3040-\u309f])"), r"\1 \2 "),
    (re.compile(r"(^|^[\u30a0-\u30ff])([\u30a0-\u30ff]+)(?=$|^[\u30a0-\u30ff])"), r"\1 \2 "),
    (re.compile(r"(^|^[\u31f0-\u31ff])([\u31f0-\u31ff]+)(?=$|^[\u31f0-\u31ff])"), r"\1 \2 "),
    (re.compile(_ASIAN_PUNCT), r" \1 "),
    (re.compile(_FULL_WIDTH_PUNCT), r" \1 "),
)
_PUNCT = re.compile(r"[\.,\?:;!\"\(\)]")
_ASIAN_PUNCT_RE = (re.compile(_ASIAN_PUNCT), re.compile(_FULL_WIDTH_PUNCT))


def _apply(text: str, rules: tuple[tuple[re.Pattern[str], str], ...]) -> str:
    for pattern, replacement in rules:
        text = pattern.sub(replacement, text)
    return text


def tercom_tokens(
    text: str,
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> list[str]:
    """The TER tokens of ``text`` under sacrebleu's Tercom options (see the module doc)."""
    text = text.rstrip()
    if not text:
        return []
    if not case_sensitive:
        text = text.lower()
    if normalized:
        text = f" {_apply(text, _GENERAL)} "
        text = _apply(text, _WESTERN)
        if asian_support:
            text = _apply(text, _ASIAN)
    if no_punct:
        text = _PUNCT.sub("", text)
        if asian_support:
            for pattern in _ASIAN_PUNCT_RE:
                text = pattern.sub("", text)
    return text.split()

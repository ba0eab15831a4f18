"""chrF's characters and chrF++'s words of a whole corpus, packed from one code-point array.

The per-item path builds ``"".join(text.split())`` and :func:`~assay.metrics.chrf.
split_punctuation` per text, a Python loop over every word. Here the texts are
joined once and read as code points (numpy): whitespace (exactly the characters
``str.split`` splits on, :data:`WHITESPACE`) is dropped for the characters, and
the words are the runs of non-whitespace, cut as sacrebleu cuts them: a word of
two or more characters whose last character is ASCII punctuation loses that mark
to a token of its own, else one whose first character is punctuation loses that
one. Each token gets an integer key from its characters' dense ids (one digit
each, so equal keys mean equal strings); a token too long for one 62-bit key
continues in a second key after its first one renumbered densely among the long
tokens, and so on. The keys renumbered densely are the word ids. Import this module lazily (numpy).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from assay.metrics._vector import IntArray, Packed

BoolArray = npt.NDArray[np.bool_]

PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
"""sacrebleu's ``CHRF._PUNCTS``: the marks split off a word's end (else its start)."""

WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
"""Every code point ``str.isspace`` accepts, so every one ``str.split()`` splits on."""

_LONG = 1 << 62  # keys of tokens too long for one integer start here (short ones stay below)


def _flags(codes: IntArray, marks: str) -> BoolArray:
    """Per code point in ``codes``, whether it is one of ``marks``."""
    return np.isin(codes, np.array([ord(c) for c in marks], dtype=np.int64))


def pack_corpus(
    texts: Sequence[str], whitespace: bool, words: bool
) -> tuple[Packed, Packed | None]:
    """The texts' characters (whitespace dropped unless ``whitespace``) and, with ``words``, words.

    The same packings as ``pack_chars(["".join(t.split()) ...])`` (or of the texts
    themselves) and ``pack_tokens([split_punctuation(t) ...])`` up to the numbering
    of the ids, which the n-gram clipping does not see.
    """
    joined = "".join(texts)
    points = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    if not len(points):
        none = np.zeros(0, dtype=np.int64)
        empty = Packed(none, np.zeros(len(texts), dtype=np.int64), 1)
        return (Packed(none, lengths, 1), empty if words else None)
    present = np.zeros(int(points.max()) + 1, dtype=np.int64)
    present[points] = 1
    renumber = np.cumsum(present) - 1
    vocab = int(renumber[-1]) + 1
    distinct = np.flatnonzero(present)  # the code point of each id
    if whitespace and not words:
        return Packed(renumber[points], lengths, vocab), None
    space = _flags(distinct, WHITESPACE)
    if np.array_equal(space, distinct <= 32):  # whitespace is exactly the code points <= " "
        kept = np.flatnonzero(points > 32)
    else:
        kept = np.flatnonzero((~space)[renumber[points]])
    offsets = np.concatenate(([0], np.cumsum(lengths)))
    first = np.searchsorted(kept, offsets)  # each text's first kept character (and the end)
    kept_ids = renumber.take(points.take(kept))  # take: faster than indexing
    if whitespace:
        chars = Packed(renumber[points], lengths, vocab)
    else:
        chars = Packed(kept_ids, np.diff(first), vocab)
    if not words:
        return chars, None
    punct = _flags(distinct, PUNCTUATION)[kept_ids]
    return chars, _pack_words(kept, first, kept_ids, punct, vocab)


def _pack_words(
    kept: IntArray, first: IntArray, ids: IntArray, punct: BoolArray, vocab: int
) -> Packed:
    """The tokens of sacrebleu's word split as dense ids per text (see the module docstring).

    Args:
        kept: the positions in ``joined`` of the non-whitespace characters.
        first: per text, the index in ``kept`` of its first character; last, ``len(kept)``.
        ids: per kept character, its dense id (``0..vocab - 1``).
        punct: per kept character, whether it is ASCII punctuation.
        vocab: the number of distinct characters.
    """
    n = len(kept)
    n_texts = len(first) - 1
    if not n:
        return Packed(np.zeros(0, dtype=np.int64), np.zeros(n_texts, dtype=np.int64), 1)
    # among the kept characters, a word starts after a gap (whitespace) or at a text's start
    start = np.empty(n + 1, dtype=bool)
    start[0] = start[n] = True
    np.greater(kept[1:] - kept[:-1], 1, out=start[1:n])
    start[first[:-1][first[:-1] < n]] = True
    starts = np.flatnonzero(start[:n])
    ends = np.flatnonzero(start[1:])
    long_word = ends > starts
    trailing = long_word & punct[ends]
    leading = long_word & ~punct[ends] & punct[starts]
    start[ends[trailing]] = True  # the mark split off becomes a token of its own
    start[starts[leading] + 1] = True
    token_start = np.flatnonzero(start[:n])  # tokens are contiguous among the kept characters
    size = np.diff(np.append(token_start, n))
    bits = int(vocab).bit_length()  # digits are 1..vocab
    width = 62 // bits
    padded = np.zeros(n + width, dtype=np.int64)  # the digits, and 0s past the last token
    np.add(ids, 1, out=padded[:n])
    key = _digits(padded, token_start, size, 0, min(width, int(size.max())), bits, None)
    long_token = np.flatnonzero(size > width)
    if len(long_token):
        long_keys = _long_keys(
            padded, token_start[long_token], size[long_token], key[long_token], width, bits
        )
        key[long_token] = _LONG + long_keys
    uniq, numbers = np.unique(key, return_inverse=True)
    per_text = np.diff(np.searchsorted(token_start, first))
    return Packed(numbers.astype(np.int64).reshape(-1), per_text, max(len(uniq), 1))


def _digits(
    padded: IntArray,
    start: IntArray,
    size: IntArray,
    offset: int,
    count: int,
    bits: int,
    key: IntArray | None,
) -> IntArray:
    """``key`` (or 0) shifted by ``count`` digits holding characters ``offset..`` of each token.

    A token shorter than ``offset + count`` gets the digit 0 past its end (its
    characters' digits are never 0, so no two strings get the same digits).
    """
    out = np.zeros(len(start), dtype=np.int64) if key is None else key.copy()
    clip = len(start) and int(start.max()) + offset + count > len(padded)
    at = start + offset
    digit = np.empty(len(start), dtype=np.int64)
    for k in range(offset, offset + count):  # in place: no new arrays per digit
        np.take(padded, at, out=digit, mode="clip" if clip else "raise")
        digit *= size > k
        out <<= bits
        out |= digit
        at += 1
    return out


def _long_keys(
    padded: IntArray, start: IntArray, size: IntArray, key: IntArray, width: int, bits: int
) -> IntArray:
    """Dense numbers for tokens longer than one key: the key so far renumbered, then more digits."""
    done, longest = width, int(size.max())
    while True:
        uniq, rank = np.unique(key, return_inverse=True)
        rank = rank.reshape(-1).astype(np.int64)
        if done >= longest:
            return rank
        more = (62 - max(len(uniq) - 1, 1).bit_length()) // bits
        if more < 1:
            raise OverflowError("word keys do not fit in 63 bits")
        key = _digits(padded, start, size, done, more, bits, rank)
        done += more

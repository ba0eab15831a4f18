"""chrF++'s corpus packing from one code-point array equals the per-text split and sacrebleu.

:func:`assay.metrics._chrf_pack.pack_corpus` builds chrF's characters and chrF++'s
words for a whole corpus without a per-word loop. It is checked against the
per-text packings it replaces (``"".join(t.split())`` + ``pack_chars``;
``split_punctuation`` + ``pack_tokens``, the latter itself checked against
sacrebleu's ``_remove_punctuation``) up to the numbering of the ids, and through the
metric against sacrebleu's statistics: unicode whitespace and punctuation, empty
and whitespace-only texts, tokens longer than one integer key, several references.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF

from assay.metrics import _chrf_pack, _vector
from assay.metrics.chrf import split_punctuation
from assay.metrics.registry import get_metric


def _same_up_to_numbering(ours: _vector.Packed, expected: _vector.Packed) -> None:
    """Equal lengths, and ids that map one to one onto the expected ids, position by position."""
    assert ours.lengths.tolist() == expected.lengths.tolist()
    assert len(ours.ids) == len(expected.ids)
    mapping: dict[int, int] = {}
    for a, b in zip(ours.ids.tolist(), expected.ids.tolist(), strict=True):
        assert mapping.setdefault(a, b) == b
    assert len(set(mapping.values())) == len(mapping)
    assert int(ours.ids.max(initial=0)) < ours.vocab


CHARS = "ab(.),'-\"!~xé字😀 \t\n\u3000\xa0\x1c\x85\u2028"
TEXTS = st.lists(
    st.one_of(
        st.text(alphabet=CHARS, max_size=30),
        st.text(alphabet="abc", min_size=9, max_size=40).map(lambda t: f"({t}. {t[::-1]})"),
        st.just(""),
        st.just(" \t "),
    ),
    min_size=1,
    max_size=8,
)


@settings(max_examples=400, deadline=None)
@given(TEXTS, st.booleans())
def test_pack_corpus_equals_the_per_text_packings(texts: list[str], whitespace: bool) -> None:
    chars, words = _chrf_pack.pack_corpus(texts, whitespace, True)
    stripped = texts if whitespace else ["".join(text.split()) for text in texts]
    _same_up_to_numbering(chars, _vector.pack_chars(stripped))
    assert words is not None
    _same_up_to_numbering(words, _vector.pack_tokens([split_punctuation(t) for t in texts]))


def test_tokens_longer_than_several_keys() -> None:
    # 40 distinct characters (6-bit digits, 10 per key): tokens of 0..95 characters that
    # share long prefixes, so equal first keys must be told apart by later ones
    alphabet = "".join(chr(0x4E00 + i) for i in range(40))
    base = alphabet * 3
    texts = [" ".join(base[:n] + suffix for n in range(0, 95, 7) for suffix in ("", "一")) + ".",
             base[:60] + " " + base[:61] + " " + base[:60] + "!", "", alphabet]  # fmt: skip
    chars, words = _chrf_pack.pack_corpus(texts, False, True)
    assert words is not None
    _same_up_to_numbering(words, _vector.pack_tokens([split_punctuation(t) for t in texts]))
    _same_up_to_numbering(chars, _vector.pack_chars(["".join(t.split()) for t in texts]))


def test_whitespace_is_exactly_what_str_split_splits_on() -> None:
    spaces = "".join(chr(c) for c in range(0x110000) if chr(c).isspace())
    assert spaces == _chrf_pack.WHITESPACE
    assert set(_chrf_pack.PUNCTUATION) == CHRF._PUNCTS


def test_empty_and_whitespace_only_corpora() -> None:
    # also control characters below " " that are not whitespace (kept as characters)
    for texts in ([""], ["", ""], [" ", "\n\t"], ["", "a", " "], ["\x00a \x01. b\x1f", "\x02"]):
        chars, words = _chrf_pack.pack_corpus(texts, False, True)
        assert words is not None
        _same_up_to_numbering(chars, _vector.pack_chars(["".join(t.split()) for t in texts]))
        _same_up_to_numbering(words, _vector.pack_tokens([split_punctuation(t) for t in texts]))


PAIR_TEXT = st.text(alphabet="ab(.),'-\"!~é字 \t\u3000\xa0", max_size=40)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(PAIR_TEXT, st.lists(PAIR_TEXT, min_size=1, max_size=3)), min_size=1,
             max_size=12),
    st.booleans(),
    st.booleans(),
)  # fmt: skip
def test_chrf_plus_plus_batch_equals_sacrebleu(
    items: list[tuple[str, list[str]]], whitespace: bool, lowercase: bool
) -> None:
    spec = get_metric("chrf++")
    assert spec.batch_stats_fn is not None and spec.reduce_fn is not None
    settings_ = spec.bind(whitespace=whitespace, lowercase=lowercase).settings
    preds = [p for p, _ in items]
    targets = [t for _, t in items]
    ours = spec.batch_stats_fn(preds, targets, settings_)
    scorer = CHRF(word_order=2, whitespace=whitespace, lowercase=lowercase)
    for row, (pred, refs) in zip(ours, items, strict=True):
        assert spec.reduce_fn(row, settings_) * 100 == scorer.sentence_score(pred, refs).score
    if all(len(refs) == 1 for _, refs in items):
        theirs = scorer._extract_corpus_statistics(preds, [[refs[0] for refs in targets]])
        assert [list(row) for row in ours] == theirs
    assert np.all(np.array([len(row) for row in ours]) == 24)

r"""Word and character error rates: WER, CER, MER, WIL, WIP (Morris et al. 2004).

From one alignment of the target (reference) tokens with the prediction tokens::

    H hits, S substitutions, D deletions, I insertions;  N_ref = H+S+D,  N_hyp = H+S+I
    WER = (S + D + I) / N_ref          MER = (S + D + I) / (H + S + D + I)
    WIP = (H / N_ref) · (H / N_hyp)    WIL = 1 − WIP

Edge cases as jiwer 4: an empty target gives WER = I (the insertion *count*), MER =
1 and WIP = 0 (MER = 0, WIP = 1 when the prediction is empty too); an empty
prediction gives WIP = 0. WER and CER are not bounded by 1 (``value_range`` is
[0, ∞)); lower is better for WER, CER, MER and WIL, higher for WIP.

**Alignment.** MER, WIL and WIP depend on *which* of several equally short
alignments is chosen (``S + D + I`` does not, ``H`` does). Like jiwer, assay takes
the edit operations from rapidfuzz's ``Levenshtein.opcodes`` on the token
sequences (tokens mapped to one code point each), so both pick the same alignment.

**Corpus.** The statistics per item are ``(hits, substitutions, deletions,
insertions)``; the corpus value comes from the counts summed over items (as jiwer
does for a list of sentences), never from a mean of rates.

**Text.** ``wer``/``mer``/``wil``/``wip`` use the ``jiwer`` tokenizer (jiwer's
``wer_default``); ``cer`` uses the ``strip`` normalizer and the ``char`` tokenizer
(jiwer's ``cer_default``: surrounding whitespace stripped, every other character,
spaces included, is a token).

**Several targets** (jiwer takes one): the target giving the best value of the
metric (lowest error, highest WIP; the first on ties) supplies the statistics.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from typing import Any

from rapidfuzz.distance import Levenshtein

from assay.metrics.base import MetricSpec, Settings, Stats
from assay.text.tokenize import tokenize_char

_TAG = itemgetter(0)


def _as_code_points(a: Sequence[str], b: Sequence[str]) -> tuple[str, str]:
    vocab: dict[str, str] = {}
    for tok in (*a, *b):
        if tok not in vocab:
            i = len(vocab)
            vocab[tok] = chr(i if i < 0xD800 else i + 0x800)
    return "".join(map(vocab.__getitem__, a)), "".join(map(vocab.__getitem__, b))


def edit_counts(ref: Sequence[str], hyp: Sequence[str]) -> Stats:
    """``(hits, substitutions, deletions, insertions)`` of rapidfuzz's alignment.

    Two strings are aligned as they are (each character a token); token lists are
    first mapped to one code point per distinct token. rapidfuzz's alignment
    depends only on which tokens are equal, so both give the same operations.
    """
    if not ref or not hyp:
        return (0, 0, len(ref), len(hyp))
    if ref == hyp:  # no edit operation
        return (len(ref), 0, 0, 0)
    if isinstance(ref, str) and isinstance(hyp, str):
        a, b = ref, hyp
    else:
        a, b = _as_code_points(ref, hyp)
    # Levenshtein.opcodes (jiwer's source) is built from these edit operations.
    tags = list(map(_TAG, Levenshtein.editops(a, b).as_list()))
    subs, dels = tags.count("replace"), tags.count("delete")
    return (len(ref) - subs - dels, subs, dels, len(tags) - subs - dels)


def wer_from_counts(stats: Sequence[float]) -> float:
    """WER from ``(H, S, D, I)``; an empty target gives the insertion count."""
    h, s, d, i = stats
    n_ref = h + s + d
    return float(i) if n_ref == 0 else (s + d + i) / n_ref


def mer_from_counts(stats: Sequence[float]) -> float:
    """MER from ``(H, S, D, I)``; an empty target gives 1 (0 if the prediction is empty too)."""
    h, s, d, i = stats
    if h + s + d == 0:
        return 0.0 if h + s + i == 0 else 1.0
    return (s + d + i) / (h + s + d + i)


def wip_from_counts(stats: Sequence[float]) -> float:
    """WIP from ``(H, S, D, I)``; an empty target gives 1 iff the prediction is empty."""
    h, s, d, i = stats
    n_ref, n_hyp = h + s + d, h + s + i
    if n_ref == 0:
        return 1.0 if n_hyp == 0 else 0.0
    if n_hyp == 0:
        return 0.0
    return (h / n_ref) * (h / n_hyp)


def wil_from_counts(stats: Sequence[float]) -> float:
    """WIL = 1 − WIP."""
    return 1.0 - wip_from_counts(stats)


def _tokens(text: str, s: Settings) -> Sequence[str]:
    """The tokens; with the ``char`` tokenizer the normalised text itself (its characters)."""
    if s.tokenize is tokenize_char:
        return s.normalize(text)
    return s.tokenize(s.normalize(text))


def _stats_fn(
    value: Callable[[Sequence[float]], float], higher: bool
) -> Callable[[str, Sequence[str], Settings], Stats]:
    def stats(prediction: str, targets: Sequence[str], s: Settings) -> Stats:
        hyp = _tokens(prediction, s)
        if len(targets) == 1:
            return edit_counts(_tokens(targets[0], s), hyp)
        best: Stats = ()
        best_value = -math.inf if higher else math.inf
        for target in targets:
            row = edit_counts(_tokens(target, s), hyp)
            v = value(row)
            if (v > best_value) if higher else (v < best_value):
                best, best_value = row, v
        return best

    return stats


def _names(params: Mapping[str, Any]) -> tuple[str, ...]:
    return ("hits", "substitutions", "deletions", "insertions")


def _edges(unit: str, empty_target: str, both: str) -> dict[str, str]:
    return {
        "empty prediction": f"every target {unit} is a deletion",
        "empty target": empty_target,
        "both empty": both,
        "whitespace-only": "no tokens: same as empty",
        "punctuation-only": f"punctuation {unit}s are compared like any other",
        "no shared tokens": "every aligned token is a substitution",
        "exact match": "no error",
        "repeated tokens": "aligned one by one",
    }


def _spec(
    name: str,
    value: Callable[[Sequence[float]], float],
    description: str,
    higher: bool,
    bounded: bool,
    edges: dict[str, str],
    cer: bool = False,
) -> MetricSpec:
    stats = _stats_fn(value, higher)

    def reduce(row: Sequence[float], s: Settings) -> float:
        return value(row)

    def score(prediction: str, targets: Sequence[str], s: Settings) -> float:
        return value(stats(prediction, targets, s))

    return MetricSpec(
        name=name,
        fn=score,
        description=description,
        citation="Morris, Maier & Green 2004 (WER, MER, WIL, WIP); jiwer 4 definitions",
        family="edit",
        tokenizer="char" if cer else "jiwer",
        normalizer="strip" if cer else "none",
        multi="native",
        aggregation="corpus",
        higher_is_better=higher,
        value_range=(0.0, 1.0 if bounded else math.inf),
        edge_cases=edges,
        stats_fn=stats,
        stats_names=_names,
        reduce_fn=reduce,
        corpus_from_stats=True,
    )


_RATE_EMPTY = "the number of predicted tokens (jiwer: WER = insertions when N_ref = 0)"
METRICS = (
    _spec(
        "wer",
        wer_from_counts,
        "word error rate (S+D+I)/N_ref, jiwer alignment; lower is better; can exceed 1",
        False,
        False,
        _edges("word", _RATE_EMPTY, "0"),
    ),
    _spec(
        "cer",
        wer_from_counts,
        "character error rate (S+D+I)/N_ref over stripped characters; lower is better",
        False,
        False,
        _edges("character", _RATE_EMPTY.replace("tokens", "characters"), "0"),
        cer=True,
    ),
    _spec(
        "mer",
        mer_from_counts,
        "match error rate (S+D+I)/(H+S+D+I), jiwer alignment; lower is better",
        False,
        True,
        _edges("word", "1 (0 when the prediction is empty too)", "0"),
    ),
    _spec(
        "wil",
        wil_from_counts,
        "word information lost 1 − (H/N_ref)(H/N_hyp), jiwer alignment; lower is better",
        False,
        True,
        _edges("word", "1 (0 when the prediction is empty too)", "0"),
    ),
    _spec(
        "wip",
        wip_from_counts,
        "word information preserved (H/N_ref)(H/N_hyp), jiwer alignment; higher is better",
        True,
        True,
        _edges("word", "0 (1 when the prediction is empty too)", "1"),
    ),
)

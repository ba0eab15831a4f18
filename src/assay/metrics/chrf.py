"""chrF and chrF++ (Popović 2015, 2017): character (and word) n-gram F-score.

For each character order ``n = 1..char_order`` (default 6) over the text with all
whitespace removed, and each word order ``1..word_order`` (chrF++: 2) over words
with one leading or trailing ASCII punctuation mark split off, the statistics are
``(hyp n-grams, ref n-grams, clipped matches)``; a side with no reference n-grams
counts 0 hypothesis n-grams too (as sacrebleu does). The score::

    P, R = mean over orders with hyp > 0 and ref > 0 of match/hyp, match/ref
    chrF = (1 + β²) P R / (β² P + R)          (β = 2; 0 when P + R = 0)

Multi-reference: the reference with the best sentence chrF (first on ties) gives
the segment's statistics; corpus chrF is computed from the statistics summed over
segments. ``lowercase`` lowercases both sides; ``whitespace`` keeps whitespace in
character n-grams. Matches sacrebleu ``CHRF`` (default ``eps_smoothing=False``)
on the 0..1 scale (sacrebleu reports ×100).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from assay.metrics.base import MetricSpec, Param, Settings, Stats
from assay.metrics.ngrams import (
    check_bool,
    check_nonnegative_int,
    check_positive_int,
    check_positive_number,
    count,
    ngram_counts,
    shifted,
)

_PUNCTS = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def char_ngrams(text: str, n: int) -> Iterable[str]:
    """The character ``n``-grams of ``text``, in order."""
    if n == 1:
        return text
    if n == 2:
        return map(str.__add__, text, text[1:])
    return map("".join, zip(*[text[k:] for k in range(n)]))  # noqa: B905


def split_punctuation(text: str) -> list[str]:
    """Whitespace words with one trailing (else leading) punctuation mark split off."""
    words: list[str] = []
    append = words.append
    for word in text.split():  # the last character first: most words end in none
        if word[-1] in _PUNCTS and len(word) > 1:
            words += (word[:-1], word[-1])
        elif word[0] in _PUNCTS and len(word) > 1:
            words += (word[0], word[1:])
        else:
            append(word)
    return words


@dataclass(frozen=True, slots=True)
class _Side:
    """One text's character sequence, word sequence and hypothesis n-gram counts."""

    chars: str
    words: list[str]
    counts: list[dict[Any, int]]


def _side(text: str, char_order: int, word_order: int, whitespace: bool, hyp: bool) -> _Side:
    chars = text if whitespace else "".join(text.split())
    words = split_punctuation(text) if word_order else []
    counts: list[dict[Any, int]] = []
    if hyp:
        counts = [count(char_ngrams(chars, n)) for n in range(1, char_order + 1)]
        counts += [ngram_counts(words, n) for n in range(1, word_order + 1)]
    return _Side(chars, words, counts)


def _family_stats(
    hyp: Sequence[Any], ref: Sequence[Any], hyp_counts: Sequence[dict[Any, int]], grams: Any
) -> list[int]:
    """``(hyp, ref, match)`` per order for one family (characters or words)."""
    stats: list[int] = []
    matched = True
    for n, counts in enumerate(hyp_counts, start=1):
        n_hyp, n_ref = max(len(hyp) - n + 1, 0), max(len(ref) - n + 1, 0)
        if not n_ref:  # sacrebleu counts no hypothesis n-gram when the reference has none
            stats += [0, 0, 0]
            continue
        hits = 0
        if matched and n_hyp:
            get = counts.__getitem__
            for gram, r in count(filter(counts.__contains__, grams(ref, n))).items():
                h = get(gram)
                hits += h if h < r else r
        matched = hits > 0  # no n-gram match means no (n+1)-gram match
        stats += [n_hyp, n_ref, hits]
    return stats


def pair_statistics(hyp: _Side, ref: _Side, char_order: int) -> Stats:
    """``(hyp, ref, match)`` per order for one hypothesis/reference pair, flattened."""
    chars = _family_stats(hyp.chars, ref.chars, hyp.counts[:char_order], char_ngrams)
    words = _family_stats(hyp.words, ref.words, hyp.counts[char_order:], shifted)
    return (*chars, *words)


_EPS = 1e-16


def chrf_eps_smoothed(stats: Sequence[float], beta: float) -> float:
    """Score chrF with ``eps_smoothing`` (sacrebleu, torchmetrics, chrF++.py): mean per-order F.

    An order without hypothesis (reference) n-grams gets precision (recall) 1e-16, and
    an order whose F is undefined contributes 1e-16; the sum is divided by all orders.
    """
    factor = beta**2
    total = 0.0
    for i in range(0, len(stats), 3):
        n_hyp, n_ref, n_match = stats[i], stats[i + 1], stats[i + 2]
        prec = n_match / n_hyp if n_hyp > 0 else _EPS
        rec = n_match / n_ref if n_ref > 0 else _EPS
        denom = factor * prec + rec
        total += (1 + factor) * prec * rec / denom if denom > 0 else _EPS
    return total / (len(stats) // 3)


def chrf_from_statistics(stats: Sequence[float], beta: float, eps: bool = False) -> float:
    """The chrF score on the 0..1 scale from flattened ``(hyp, ref, match)`` statistics.

    ``eps`` selects :func:`chrf_eps_smoothed`; otherwise sacrebleu's default
    (effective-order averages of precision and recall, then one F).
    """
    if eps:
        return chrf_eps_smoothed(stats, beta)
    factor = beta**2
    avg_p = avg_r = 0.0
    orders = 0
    for i in range(0, len(stats), 3):
        n_hyp, n_ref, n_match = stats[i], stats[i + 1], stats[i + 2]
        if n_hyp > 0 and n_ref > 0:
            avg_p += n_match / n_hyp
            avg_r += n_match / n_ref
            orders += 1
    if orders == 0:
        return 0.0
    avg_p /= orders
    avg_r /= orders
    if not avg_p + avg_r:
        return 0.0
    return (1 + factor) * avg_p * avg_r / (factor * avg_p + avg_r)


def _prepare(text: str, s: Settings) -> str:
    text = s.normalize(text)
    return text.lower() if s.params["lowercase"] else text


def _stats(prediction: str, targets: Sequence[str], s: Settings) -> Stats:
    p = s.params
    orders = (p["char_order"], p["word_order"], p["whitespace"])
    hyp = _side(_prepare(prediction, s), *orders, hyp=True)
    if len(targets) == 1:
        return pair_statistics(hyp, _side(_prepare(targets[0], s), *orders, hyp=False), orders[0])
    best: Stats = ()
    best_score = -1.0
    for target in targets:
        stats = pair_statistics(hyp, _side(_prepare(target, s), *orders, hyp=False), orders[0])
        value = chrf_from_statistics(stats, p["beta"], p["eps_smoothing"])
        if value > best_score:
            best, best_score = stats, value
    return best


def _batch_stats(
    predictions: Sequence[str], targets_list: Sequence[Sequence[str]], s: Settings
) -> list[Stats]:
    """:func:`_stats` for a whole corpus: every hypothesis/reference pair vectorised."""
    import numpy as np

    from assay.metrics import _chrf_pack, _vector

    p = s.params
    char_order, word_order, beta = p["char_order"], p["word_order"], p["beta"]
    eps = p["eps_smoothing"]
    texts = [_prepare(text, s) for text in _pair_texts(predictions, targets_list)]
    if word_order:  # characters and words from one code-point array (no per-word loop)
        chars, words = _chrf_pack.pack_corpus(texts, p["whitespace"], True)
        assert words is not None
        table = np.hstack([_pair_table(chars, char_order), _pair_table(words, word_order)])
    else:  # as fast as the joint packing for characters alone, measured
        stripped = texts if p["whitespace"] else ["".join(text.split()) for text in texts]
        table = _pair_table(_vector.pack_chars(stripped), char_order)
    rows: list[Stats] = list(map(tuple, table.tolist()))
    if len(rows) == len(targets_list):  # one reference per item: the rows are the items'
        return rows
    out: list[Stats] = []
    start = 0
    for targets in targets_list:
        pairs = rows[start : start + len(targets)]
        start += len(targets)
        if len(pairs) == 1:
            out.append(pairs[0])
        else:
            values = [chrf_from_statistics(row, beta, eps) for row in pairs]
            out.append(pairs[values.index(max(values))])
    return out


def _pair_texts(predictions: Sequence[str], targets_list: Sequence[Sequence[str]]) -> list[str]:
    """Hypothesis, reference, hypothesis, reference… one pair per (item, target)."""
    texts: list[str] = []
    for prediction, targets in zip(predictions, targets_list, strict=True):
        for target in targets:
            texts += [prediction, target]
    return texts


def _pair_table(packed: Any, max_order: int) -> Any:
    """``(hyp, ref, match)`` per order for packed hypothesis/reference pairs (numpy)."""
    import numpy as np

    from assay.metrics import _vector

    n_pairs = len(packed.lengths) // 2
    group = np.repeat(np.arange(n_pairs), 2)
    slot = np.tile(np.array([0, 1]), n_pairs)
    matches = _vector.clipped_matches(packed, group, slot, n_pairs, max_order)
    hyp_len, ref_len = packed.lengths[0::2], packed.lengths[1::2]
    columns = []
    for n in range(1, max_order + 1):
        n_ref = np.maximum(ref_len - n + 1, 0)
        n_hyp = np.where(n_ref > 0, np.maximum(hyp_len - n + 1, 0), 0)
        columns += [n_hyp, n_ref, matches[n - 1]]
    return np.vstack(columns).T


def _reduce(stats: Sequence[float], s: Settings) -> float:
    return chrf_from_statistics(stats, s.params["beta"], s.params["eps_smoothing"])


def _chrf(prediction: str, targets: Sequence[str], s: Settings) -> float:
    return _reduce(_stats(prediction, targets, s), s)


def _names(params: Mapping[str, Any]) -> tuple[str, ...]:
    names: list[str] = []
    orders = [f"char{n}" for n in range(1, params["char_order"] + 1)]
    orders += [f"word{n}" for n in range(1, params["word_order"] + 1)]
    for order in orders:
        names += [f"{order}_hyp", f"{order}_ref", f"{order}_match"]
    return tuple(names)


def _params(word_order: int) -> tuple[Param, ...]:
    return (
        Param("char_order", 6, "nc", check_positive_int, "character n-gram order"),
        Param("word_order", word_order, "nw", check_nonnegative_int, "word n-gram order"),
        Param("beta", 2.0, "beta", check_positive_number, "recall weight β"),
        Param("lowercase", False, "lc", check_bool, "lowercase both sides"),
        Param("whitespace", False, "ws", check_bool, "keep whitespace in character n-grams"),
        Param("eps_smoothing", False, "eps", check_bool, "mean of per-order F (chrF++.py)",
              omit_default=True),  # fmt: skip
    )


_EDGES = {
    "empty prediction": "0",
    "empty target": "0",
    "both empty": "0 (as sacrebleu)",
    "whitespace-only": "no characters: same as empty",
    "punctuation-only": "scored as characters",
    "no shared tokens": "shared characters still count",
    "exact match": "1",
    "repeated tokens": "character n-grams counted with multiplicity, clipped",
}


def _spec(name: str, word_order: int, description: str, citation: str) -> MetricSpec:
    return MetricSpec(
        name=name,
        fn=_chrf,
        description=description,
        citation=citation,
        family="ngram",
        normalizer="none",
        multi="native",
        aggregation="corpus",
        params=_params(word_order),
        edge_cases=_EDGES,
        stats_fn=_stats,
        stats_names=_names,
        reduce_fn=_reduce,
        batch_stats_fn=_batch_stats,
        corpus_from_stats=True,
    )


METRICS = (
    _spec("chrf", 0, "character 6-gram F-score, β = 2 (sacrebleu CHRF)", "Popović 2015, chrF"),
    _spec(
        "chrf++",
        2,
        "chrF plus word 1-2-grams, β = 2 (sacrebleu CHRF word_order=2)",
        "Popović 2017, chrF++",
    ),
)

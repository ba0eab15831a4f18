r"""ROUGE-N for N = 1 … 9, ROUGE-L and ROUGE-Lsum (Lin 2004).

``rouge_1`` … ``rouge_9`` (n-gram co-occurrence, rouge-score's ``rouge1`` … ``rouge9``)::

    overlap = |Counter(pred n-grams) ∩ Counter(target n-grams)|
    P = overlap / max(#pred n-grams, 1),   R = overlap / max(#target n-grams, 1)

``rouge_l``: ``P = LCS / |pred|``, ``R = LCS / |target|`` over token sequences (0 when
either side has no token). The LCS length comes from rapidfuzz's bit-parallel
``LCSseq`` on the token sequences mapped to one code point per distinct token, so
thousands of tokens cost microseconds (:mod:`assay.metrics.rouge_lcs`, with the LCS
positions and union hits of ROUGE-Lsum).

``rouge_lsum`` (summary level, Lin 2004 §3.2): both texts are split on ``\n``
(empty lines dropped) and each sentence is tokenised; for every target sentence
the union of its LCS positions with each predicted sentence is taken, and hits
are counted with the per-token clipping of ROUGE 1.5.5 (a token is counted at most
as often as it occurs on either side). ``P = hits / pred tokens``,
``R = hits / target tokens``. The LCS positions follow rouge-score's backtracking
(prefer moving along the prediction when that keeps a longer LCS), computed from
bit-parallel rows (Hyyrö 2004) instead of a full table. When the items with
more than one sentence on a side hold 64 or more sentence pairs between them, they
go to :mod:`assay.metrics.rouge_union` together (predicted sentences of at most
52 tokens), which runs the rows and the backtracking of every pair of a whole
corpus in lockstep with numpy.

``score_corpus`` on corpora of 2,000 characters or more takes the corpus loops of
:mod:`assay.metrics.rouge_batch` for ROUGE-N and ROUGE-L (each text tokenised once,
no per-item call layers; the same statistics).

All four: ``F = (1 + β²) P R / (β² P + R)`` (0 when P + R = 0; ``beta`` default 1),
``measure`` picks ``f`` (default), ``p`` or ``r``. Multi-target: the target with the
best F (the first on ties) gives P, R and F. The per-item statistics are
``(overlap or lcs hits, pred count, target count)`` of that target; the corpus value
is the mean of item values (as rouge-score's aggregator).

Parity: with tokenizer ``rouge-score`` (or ``rouge-score-stem``) the numbers equal
Google's rouge-score package (``RougeScorer(..., use_stemmer=...)``, ``score_multi``
for several targets). The default tokenizer is ``word``, which keeps non-ASCII text.
``use_stemmer=True`` (rouge-score's own option name) selects the stemming preset
``rouge-score-stem``; it is recorded in the signature as that tokenizer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from assay.errors import InvalidOptionError
from assay.metrics.base import BatchStatsFn, BoundMetric, MetricSpec, Param, Settings, Stats
from assay.metrics.ngrams import (
    check_positive_number,
    clipped_matches,
    count,
    ngram_counts,
    shifted,
)
from assay.metrics.rouge_batch import lcs_stats, ngram_stats, prf
from assay.metrics.rouge_bootstrap import (
    BOOTSTRAP_DEFAULTS,
    BOOTSTRAP_OPTIONS,
    bootstrap_details,
    check_aggregate,
    check_interval,
    check_samples,
    check_seed,
)
from assay.metrics.rouge_lcs import lcs_length, summary_lcs_hits
from assay.text.tokenize import LINE_TOKENIZERS

_MEASURES = {
    **dict.fromkeys(("f", "fmeasure", "f-measure", "f_measure", "fscore", "f-score"), "f"),
    **dict.fromkeys(("p", "precision"), "p"),
    **dict.fromkeys(("r", "recall"), "r"),
}


def check_measure(value: Any) -> str:
    """Validate ``measure``: ``f``, ``p`` or ``r`` (long names and any case accepted)."""
    key = value.strip().lower() if isinstance(value, str) else None
    if key not in _MEASURES:
        raise ValueError("expected 'f', 'p' or 'r' (or fmeasure, precision, recall)")
    return _MEASURES[key]


def _tokens(text: str, s: Settings) -> list[str]:
    return s.tokenize(s.normalize(text))


def _sentences(text: str, s: Settings) -> list[list[str]]:
    text = s.normalize(text)
    lines = LINE_TOKENIZERS.get(s.tokenize)
    if lines is not None:
        return lines(text)
    if "\n" not in text:  # one line: no split, no list of lines
        return [s.tokenize(text)] if text else []
    return [s.tokenize(line) for line in text.split("\n") if line]


PairStats = Callable[[str, str, Settings], Stats]


def _rouge_n(n: int) -> PairStats:
    def pair(prediction: str, target: str, s: Settings) -> Stats:
        """``(hits, pred n-grams, target n-grams)``; target n-grams counted only if shared."""
        pred_tokens, ref_tokens = _tokens(prediction, s), _tokens(target, s)
        pred = ngram_counts(pred_tokens, n)
        ref = count(filter(pred.__contains__, shifted(ref_tokens, n)))
        n_pred, n_ref = len(pred_tokens) - n + 1, len(ref_tokens) - n + 1
        return (clipped_matches(pred, ref), n_pred if n_pred > 0 else 0, n_ref if n_ref > 0 else 0)

    return pair


def _ngram_batch(n: int) -> BatchStatsFn:
    def batch(
        predictions: Sequence[str], targets_list: Sequence[Sequence[str]], s: Settings
    ) -> list[Stats]:
        """ROUGE-N statistics of a corpus at once (:mod:`assay.metrics.rouge_batch`)."""
        return ngram_stats(n, predictions, targets_list, s)

    return batch


def _rouge_l(prediction: str, target: str, s: Settings) -> Stats:
    pred, ref = _tokens(prediction, s), _tokens(target, s)
    if not pred or not ref:
        return (0, len(pred), len(ref))
    return (lcs_length(pred, ref), len(pred), len(ref))


_UNION_MIN_PAIRS = 64  # sentence pairs (of all items together) from which rouge_union is faster


def _rouge_lsum(prediction: str, target: str, s: Settings) -> Stats:
    return _lsum_stats([_sentences(prediction, s)], [[_sentences(target, s)]], s)[0]


def _lsum_batch(
    predictions: Sequence[str], targets_list: Sequence[Sequence[str]], s: Settings
) -> list[Stats]:
    """``rouge_lsum``'s statistics for a corpus: each text split and tokenised once."""
    preds = [_sentences(p, s) for p in predictions]
    return _lsum_stats(preds, [[_sentences(t, s) for t in ts] for ts in targets_list], s)


Sentences = list[list[str]]


def _lsum_stats(
    preds: Sequence[Sentences], targets_list: Sequence[Sequence[Sentences]], s: Settings
) -> list[Stats]:
    """The best target's statistics per item; many union pairs go to :mod:`rouge_union` at once."""
    rows: list[list[list[Any]]] = []
    union: list[tuple[Sentences, Sentences]] = []
    for pred, refs in zip(preds, targets_list, strict=True):
        n_pred = sum(map(len, pred))
        item = []
        for ref in refs:
            row: list[Any] = [0, n_pred, sum(map(len, ref))]
            if not n_pred or not row[2]:
                pass
            elif len(pred) == 1 and len(ref) == 1:  # one LCS: its tokens survive the clipping
                row[0] = lcs_length(pred[0], ref[0])
            else:
                row[0] = None
                union.append((ref, pred))
            item.append(row)
        rows.append(item)
    _fill_union(rows, union)
    beta = s.params["beta"]
    return [_best_row(item, beta) for item in rows]


def _fill_union(rows: list[list[list[Any]]], union: list[tuple[Sentences, Sentences]]) -> None:
    """Put the union-LCS hits into the rows left ``None`` (in order).

    The items of a whole corpus go to :func:`rouge_union.union_hits` together when
    they hold :data:`_UNION_MIN_PAIRS` sentence pairs or more between them (its
    array operations then cover many pairs each); fewer are counted one by one.
    """
    if not union:
        return
    if sum(len(ref) * len(pred) for ref, pred in union) < _UNION_MIN_PAIRS:
        hits: Iterator[int | None] = iter([None] * len(union))
    else:
        from assay.metrics.rouge_union import union_hits

        hits = iter(union_hits(union))
    pending = iter(union)
    for item in rows:
        for row in item:
            if row[0] is None:
                value, (ref, pred) = next(hits), next(pending)
                row[0] = summary_lcs_hits(ref, pred) if value is None else value


def _best_row(item: Sequence[Sequence[Any]], beta: float) -> Stats:
    """The row with the best F (the first on ties), as :func:`_best_target`."""
    if len(item) == 1:  # F is never below 0: the only row is the best
        return tuple(item[0])
    best: Stats = ()
    best_f = -1.0
    for row in item:
        f = prf(row[0], row[1], row[2], beta)[2]
        if f > best_f:
            best, best_f = tuple(row), f
    return best


def _value(stats: Sequence[float], s: Settings) -> float:
    p, r, f = prf(stats[0], stats[1], stats[2], s.params["beta"])
    return {"p": p, "r": r, "f": f}[s.params["measure"]]


def _best_target(pair: PairStats) -> Callable[[str, Sequence[str], Settings], Stats]:
    def stats(prediction: str, targets: Sequence[str], s: Settings) -> Stats:
        best: Stats = ()
        best_f = -1.0
        for target in targets:
            row = pair(prediction, target, s)
            f = prf(row[0], row[1], row[2], s.params["beta"])[2]
            if f > best_f:
                best, best_f = row, f
        return best

    return stats


def _score(stats_fn: Callable[[str, Sequence[str], Settings], Stats]) -> Callable[..., float]:
    def score(prediction: str, targets: Sequence[str], s: Settings) -> float:
        return _value(stats_fn(prediction, targets, s), s)

    return score


def _names(params: Mapping[str, Any]) -> tuple[str, ...]:
    return ("hits", "pred_count", "target_count")


_PARAMS = (
    Param("measure", "f", "measure", check_measure, "f, p or r"),
    Param("beta", 1.0, "beta", check_positive_number, "recall weight β of the F-measure"),
    Param(
        "aggregate", "mean", "agg", check_aggregate,
        "corpus value: mean of items, or bootstrap (rouge-score's BootstrapAggregator mid)",
        omit_default=True,
    ),
    Param("bootstrap_seed", None, "seed", check_seed, "bootstrap seed (default 12345)",
          omit_default=True),
    Param("n_samples", None, "samples", check_samples, "bootstrap resamples (default 1000)",
          omit_default=True),
    Param("confidence_interval", None, "ci", check_interval,
          "bootstrap low/high interval (default 0.95)", omit_default=True),
)  # fmt: skip
_EDGES = {
    "empty prediction": "0",
    "empty target": "0",
    "both empty": "0 (as rouge-score)",
    "whitespace-only": "no tokens: same as empty",
    "punctuation-only": "no word tokens: same as empty",
    "no shared tokens": "0",
    "exact match": "1",
    "repeated tokens": "counted with multiplicity, clipped",
}


_STEMMED = {"rouge-score": "rouge-score-stem", "rouge-score-stem": "rouge-score-stem"}


class RougeSpec(MetricSpec):
    """A ROUGE metric: also takes rouge-score's ``use_stemmer`` option and a bootstrap aggregate.

    ``use_stemmer=True`` means the ``rouge-score-stem`` tokenizer (with no tokenizer
    given, or with ``rouge-score``); ``False`` changes nothing.

    ``aggregate="bootstrap"`` makes the corpus value rouge-score's
    ``BootstrapAggregator`` ``mid`` (see :mod:`assay.metrics.rouge_bootstrap`); its
    ``bootstrap_seed``, ``n_samples`` and ``confidence_interval`` (defaults 12345, 1000, 0.95)
    are then all written into the signature, and are refused without it.
    """

    __slots__ = ()

    def option_names(self) -> list[str]:
        """The options of :class:`MetricSpec` plus ``use_stemmer``."""
        return [*MetricSpec.option_names(self), "use_stemmer"]

    def bind(self, **options: Any) -> BoundMetric:
        """Translate ``use_stemmer`` into the stemming tokenizer, then bind as usual."""
        stem = options.pop("use_stemmer", False)
        if not isinstance(stem, bool):
            raise InvalidOptionError(
                f"metric {self.name!r}: option 'use_stemmer'={stem!r} is invalid: "
                "expected True or False"
            )
        if stem:
            tokenizer = options.get("tokenizer", "rouge-score")
            if tokenizer not in _STEMMED:
                raise InvalidOptionError(
                    f"metric {self.name!r}: use_stemmer=True is rouge-score's Porter stemmer "
                    f"and needs tokenizer='rouge-score', not {tokenizer!r}; drop one of them."
                )
            options["tokenizer"] = _STEMMED[tokenizer]
        given = [key for key in BOOTSTRAP_OPTIONS if options.get(key) is not None]
        if options.get("aggregate", "mean") == "bootstrap":
            options.update({k: v for k, v in BOOTSTRAP_DEFAULTS.items() if k not in given})
        elif given:
            raise InvalidOptionError(
                f"metric {self.name!r}: option {given[0]!r} is a setting of the bootstrap "
                "aggregate; add aggregate='bootstrap' or drop it."
            )
        return MetricSpec.bind(self, **options)

    def corpus_aggregate(
        self, values: Sequence[float], settings: Settings
    ) -> tuple[str, float, Mapping[str, float]] | None:
        """With ``aggregate="bootstrap"``: ``("bootstrap", mid, {low, mid, high, mean})``."""
        if settings.params["aggregate"] != "bootstrap":
            return None
        details = bootstrap_details(values, settings.params)
        return "bootstrap", details["mid"], details


def _spec(
    name: str,
    pair: PairStats,
    description: str,
    citation: str,
    batch: Callable[..., list[Stats]] | None = None,
) -> MetricSpec:
    stats = _best_target(pair)
    return RougeSpec(
        name=name,
        fn=_score(stats),
        description=description,
        citation=citation,
        family="ngram",
        tokenizer="word",
        normalizer="none",
        multi="native",
        params=_PARAMS,
        edge_cases=_EDGES,
        stats_fn=stats,
        stats_names=_names,
        reduce_fn=_value,
        batch_stats_fn=batch,
    )


METRICS = (
    *(
        _spec(
            f"rouge_{n}",
            _rouge_n(n),
            f"ROUGE-{n} {gram} overlap (F by default)",
            "Lin 2004, ROUGE-N" + ("" if n < 3 else " (rouge-score's rouge3 ... rouge9)"),
            _ngram_batch(n),
        )
        for n, gram in ((1, "unigram"), (2, "bigram"), *((k, f"{k}-gram") for k in range(3, 10)))
    ),
    _spec(
        "rouge_l",
        _rouge_l,
        "ROUGE-L longest common subsequence",
        "Lin 2004, ROUGE-L",
        lcs_stats,
    ),
    _spec(
        "rouge_lsum",
        _rouge_lsum,
        "ROUGE-Lsum summary-level union LCS over newline-split sentences",
        "Lin 2004 §3.2, summary-level LCS (ROUGE-Lsum)",
        _lsum_batch,
    ),
)

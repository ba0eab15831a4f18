r"""BLEU (Papineni et al. 2002) from per-segment sufficient statistics.

Statistics per segment (the sacrebleu layout): ``hyp_len, ref_len, m_1..m_N, t_1..t_N``
where ``m_n`` is the clipped n-gram match count (each n-gram clipped at its maximum
count in any *single* reference) and ``t_n`` the number of hypothesis n-grams;
``ref_len`` is the reference length closest to ``hyp_len`` (ties → the shorter).
Corpus BLEU sums the statistics over segments (never a mean of sentence scores)::

    BP   = 1 if c > r else exp(1 − r/c)   (0 when c = 0)
    BLEU = BP · exp( (1/N') Σ_{n ≤ N'} log p_n )

``N'`` is ``max_order``, or with ``effective_order`` the number of orders that
have hypothesis n-grams. No unigram match at all → 0 (both sacrebleu and nltk do
this), except under ``add-one-all``, which gives every order a non-zero precision.
The statistics and the formulas are :mod:`assay.metrics.bleu_stats`; a corpus's
statistics (and ``bleu_4``'s scores) are counted with the n-gram clipping vectorised
in :mod:`assay.metrics.bleu_batch` (the same numbers).

Smoothing (``smoothing``), each with its source and aliases:

=============== =======================================================================
``none``        p_n = m_n / t_n (a zero order makes BLEU 0; nltk's method0 returns a
                tiny non-zero number instead: documented in ``docs/parity.md``).
``floor``       p_n = ε / t_n on orders with m_n = 0 (``epsilon``, default 0.1).
                nltk ``method1``; sacrebleu ``floor``. Chen & Cherry 2014.
``add-k``       p_n = (m_n + k) / (t_n + k) for n ≥ 2 (``k``, default 1). Lin & Och
                2004; nltk ``method2`` (k = 1); sacrebleu ``add-k``.
``add-one-all`` p_n = (m_n + 1) / (t_n + 1) for every n, unigrams included (the rule
                teaching material often calls "method 1"; named for what it does).
``exp``         the k-th order with m_n = 0 gets p_n = 1 / (2^k · t_n). NIST
                mteval-v13a; sacrebleu's default ``exp``; nltk ``method3``.
=============== =======================================================================

Short hypotheses (``empty_order``), where nltk and sacrebleu disagree:

``stop``    (sacrebleu) an order with t_n = 0 — after add-k/add-one-all has been
            added — ends the product: that order and all higher ones have no
            precision, so BLEU is 0 unless ``effective_order`` drops them.
``floor-one`` (nltk) each segment's t_n is floored at 1 before anything else, so an
            empty order is 0/1 and smoothed like any zero-match order.

Text processing: normalizer, then ``lowercase``, then ``str.rstrip`` (sacrebleu strips
trailing whitespace before tokenising; it matters for ``13a``'s ``-\\n`` rule), then
the tokenizer. Registry entries:

* ``bleu`` — sentence BLEU: tokenizer ``word``, ``exp``, ``effective_order`` on
  (sacrebleu's sentence-level defaults, on assay's ``word`` tokens); the corpus
  value of :func:`assay.score_corpus` comes from the summed statistics, as for
  every BLEU (the per-item sentence scores are in ``values``).
* ``corpus_bleu`` — sacrebleu ``corpus_bleu`` defaults (tokenizer ``13a``, ``exp``,
  no effective order); the corpus value comes from summed statistics.
* ``bleu_4`` — the classic teaching definition: for each target separately, BLEU-4
  with ``add-one-all`` on ``word`` tokens, then the max over targets.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from assay.errors import InvalidOptionError
from assay.metrics.base import BoundMetric, MetricSpec, Param, Settings, Stats
from assay.metrics.bleu_batch import batch_stats, bleu_4_batch
from assay.metrics.bleu_smoothing import NLTK_SMOOTHINGS
from assay.metrics.bleu_stats import (
    bleu_4,
    bleu_from_statistics,
    bleu_statistics,
    stat_order,
    tokens,
)
from assay.metrics.ngrams import check_bool, check_positive_int, check_positive_number

SMOOTHINGS = ("none", "floor", "add-k", "add-one-all", "exp", *NLTK_SMOOTHINGS)
# nltk's SmoothingFunction numbering; each alias is recorded under its assay name.
NLTK_METHODS = {"method0": "none", "method1": "floor", "method2": "add-k", "method3": "exp",
                "method4": "length-exp", "method5": "average-3", "method6": "prior-interp",
                "method7": "length-exp+average-3"}  # fmt: skip
EMPTY_ORDERS = ("stop", "floor-one")
_EMPTY_ALIASES = {"sacrebleu": "stop", "nltk": "floor-one"}
BREVITY_REFS = ("closest", "shortest")


def check_smoothing(value: Any) -> str:
    """Validate a smoothing name; nltk's ``method0`` … ``method7`` are aliases."""
    value = NLTK_METHODS.get(value, value) if isinstance(value, str) else value
    if value not in SMOOTHINGS:
        raise ValueError(
            f"expected one of {', '.join(SMOOTHINGS)} or nltk's method0 ... method7 "
            "(method1 = floor, method2 = add-k, method3 = exp, method4 = length-exp, "
            "method5 = average-3, method6 = prior-interp, method7 = length-exp+average-3)"
        )
    return str(value)


def check_epsilon(value: Any) -> float:
    """Validate ε of the floor smoothing: a number ≥ 0 (sacrebleu accepts 0)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
        raise ValueError("expected a number >= 0")
    if math.isinf(value):
        raise ValueError("expected a finite number >= 0")
    return float(value)


def check_weights(value: Any) -> tuple[float, ...] | None:
    """Validate per-order weights: ``None`` (uniform) or a non-empty sequence of numbers ≥ 0."""
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)) or not value:
        raise TypeError("expected a non-empty tuple of per-order weights, e.g. (0.5, 0.5)")
    for w in value:
        if isinstance(w, bool) or not isinstance(w, (int, float)) or not w >= 0:
            raise ValueError(f"every weight must be a number >= 0, got {w!r}")
    return tuple(float(w) for w in value)


def check_brevity(value: Any) -> str:
    """Validate the brevity-penalty reference length: ``closest`` or ``shortest``."""
    if value not in BREVITY_REFS:
        raise ValueError(
            "expected 'closest' (sacrebleu, nltk) or 'shortest' (tf-nmt / Hugging Face bleu)"
        )
    return str(value)


def check_empty_order(value: Any) -> str:
    """Validate the short-hypothesis rule (``sacrebleu``/``nltk`` are accepted aliases)."""
    value = _EMPTY_ALIASES.get(value, value)
    if value not in EMPTY_ORDERS:
        raise ValueError("expected 'stop' (sacrebleu) or 'floor-one' (nltk)")
    return str(value)


def _stats(prediction: str, targets: Sequence[str], s: Settings) -> Stats:
    refs = [tokens(t, s) for t in targets]
    floor_one = s.params["empty_order"] == "floor-one"
    shortest = s.params["brevity"] == "shortest"
    hyp = tokens(prediction, s)
    return bleu_statistics(hyp, refs, stat_order(s.params), floor_one, shortest)


def _reduce(stats: Sequence[float], s: Settings) -> float:
    return bleu_from_statistics(stats, s.params)


def _bleu(prediction: str, targets: Sequence[str], s: Settings) -> float:
    return bleu_from_statistics(_stats(prediction, targets, s), s.params)


def _params(smoothing: str, effective_order: bool) -> tuple[Param, ...]:
    return (
        Param("max_order", 4, "order", check_positive_int, "highest n-gram order N"),
        Param("lowercase", False, "lc", check_bool, "lowercase before tokenising"),
        Param("smoothing", smoothing, "smooth", check_smoothing, "smoothing method"),
        Param("epsilon", 0.1, "eps", check_epsilon, "ε of the floor smoothing (0 allowed)"),
        Param("k", 1.0, "k", check_positive_number, "k of the add-k smoothing"),
        Param("effective_order", effective_order, "eff", check_bool, "drop empty orders"),
        Param("empty_order", "stop", "empty", check_empty_order, "stop or floor-one"),
        Param("weights", None, "w", check_weights, "per-order weights", omit_default=True),
        Param("brevity", "closest", "bp", check_brevity, "closest or shortest reference",
              omit_default=True),  # fmt: skip
    )


def _stat_names(params: Mapping[str, Any]) -> tuple[str, ...]:
    order = stat_order(params)
    return (
        "hyp_len",
        "ref_len",
        *(f"match_{n}" for n in range(1, order + 1)),
        *(f"total_{n}" for n in range(1, order + 1)),
    )


_EDGES = {
    "empty prediction": "0",
    "empty target": "0 (no n-gram can match)",
    "both empty": "0 (BLEU is undefined; sacrebleu and nltk give 0)",
    "whitespace-only": "no tokens: same as empty",
    "punctuation-only": "depends on the tokenizer (no word tokens: same as empty)",
    "no shared tokens": "0",
    "exact match": "1 when the text has at least max_order tokens",
    "repeated tokens": "clipped at the maximum count in any single target",
}
_CITATION = "Papineni et al. 2002; smoothing: Lin & Och 2004, Chen & Cherry 2014"


class BleuSpec(MetricSpec):
    """A BLEU spec whose ``weights`` decide the number of orders when ``max_order`` is not given."""

    __slots__ = ()

    def bind(self, **options: Any) -> BoundMetric:
        """Bind as usual; ``weights`` of length N imply ``max_order=N`` (nltk's rule)."""
        weights = options.get("weights")
        if isinstance(weights, (list, tuple)) and weights:
            given = options.setdefault("max_order", len(weights))
            if given != len(weights):
                raise InvalidOptionError(
                    f"metric {self.name!r}: {len(weights)} weights but max_order={given!r}; "
                    "give one weight per order (or leave max_order out)."
                )
        return MetricSpec.bind(self, **options)


def _stats_spec(name: str, description: str, tokenizer: str, effective_order: bool) -> MetricSpec:
    """The spec of a BLEU computed from summed statistics (``bleu``, ``corpus_bleu``)."""
    return BleuSpec(
        name=name,
        fn=_bleu,
        description=description,
        citation=_CITATION,
        family="ngram",
        tokenizer=tokenizer,
        normalizer="none",
        multi="native",
        aggregation="corpus",
        params=_params("exp", effective_order),
        edge_cases=_EDGES,
        stats_fn=_stats,
        stats_names=_stat_names,
        reduce_fn=_reduce,
        batch_stats_fn=batch_stats,
        corpus_from_stats=True,
    )


METRICS = (
    _stats_spec(
        "bleu",
        "sentence BLEU (exp smoothing, effective order); corpus from summed stats",
        "word",
        True,
    ),
    _stats_spec(
        "corpus_bleu",
        "corpus BLEU from summed statistics (sacrebleu defaults: 13a, exp)",
        "13a",
        False,
    ),
    MetricSpec(
        name="bleu_4",
        fn=bleu_4,
        description="teaching BLEU-4: add-one-all smoothing per target, max over targets",
        citation="Papineni et al. 2002 with add-one smoothing on every order",
        family="ngram",
        tokenizer="word",
        normalizer="none",
        multi="max",
        batch_fn=bleu_4_batch,
        edge_cases={
            **_EDGES,
            "empty target": "0 (a target without tokens is skipped as unmatchable)",
            "no shared tokens": "non-zero (add-one-all gives every order a precision > 0)",
        },
    ),
)

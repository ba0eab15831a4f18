r"""TER, translation edit rate (Snover et al. 2006), as sacrebleu computes it.

``TER = (shifts + edit distance after the shifts) / reference length``; several
references: the fewest edits over the references divided by their *average*
length (sacrebleu). An empty reference counts every hypothesis word as an edit
with length 0; a corpus with total length 0 scores 1 if there is any edit, else
0. Corpus TER = summed edits / summed lengths (statistics ``edits, ref_len``).
Lower is better; TER exceeds 1 when the hypothesis is much longer.

The shift search follows Tercom exactly as sacrebleu re-implements it
(:mod:`assay.metrics.ter_search`, with the banded table of :mod:`assay.metrics.ter_table`);
a corpus's searches run in lockstep in :mod:`assay.metrics.ter_lockstep` (the same
numbers). This module holds the text options, an item's statistics and the spec, and
imports both; neither imports it, so every import runs one way.

Text: :func:`assay.text.tercom.tercom_tokens` with the options ``normalized``,
``no_punct``, ``asian_support`` and ``case_sensitive`` (sacrebleu's defaults: all off).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from assay.metrics.base import MetricSpec, Settings, Stats, bool_option
from assay.metrics.ter_lockstep import ter_edits_many
from assay.metrics.ter_search import edit_stats, ter_statistics
from assay.metrics.ter_table import NUMPY_FROM
from assay.text.tercom import tercom_tokens


def ter_from_statistics(stats: Sequence[float]) -> float:
    """``edits / ref_len``; a zero length gives 1 with edits, else 0 (sacrebleu)."""
    edits, length = stats[0], stats[1]
    if length > 0:
        return edits / length
    return 1.0 if edits > 0 else 0.0


def _tokens(text: str, s: Settings) -> list[str]:
    p = s.params
    return tercom_tokens(
        text,
        normalized=p["normalized"],
        no_punct=p["no_punct"],
        asian_support=p["asian_support"],
        case_sensitive=p["case_sensitive"],
    )


def _stats(prediction: str, targets: Sequence[str], s: Settings) -> Stats:
    return ter_statistics(_tokens(prediction, s), [_tokens(t, s) for t in targets])


def _batch_stats(
    predictions: Sequence[str], targets_list: Sequence[Sequence[str]], s: Settings
) -> list[Stats]:
    """TER's ``_stats`` of every item, all their searches in one :func:`ter_edits_many`.

    A corpus without a target of ``NUMPY_FROM`` characters (so, in practice, without a
    reference of that many words, the only ones whose searches share work) takes the
    per-item statistics: the same numbers without the pair lists.
    """
    if all(len(t) < NUMPY_FROM for targets in targets_list for t in targets):
        return [_stats(p, t, s) for p, t in zip(predictions, targets_list, strict=True)]
    hyps = [_tokens(p, s) for p in predictions]
    refs = [[_tokens(t, s) for t in targets] for targets in targets_list]
    edits = ter_edits_many([(hyp, ref) for hyp, rs in zip(hyps, refs, strict=True) for ref in rs])
    out: list[Stats] = []
    k = 0
    for rs in refs:
        out.append(edit_stats(edits[k : k + len(rs)], rs))
        k += len(rs)
    return out


def _reduce(stats: Sequence[float], s: Settings) -> float:
    return ter_from_statistics(stats)


def _ter(prediction: str, targets: Sequence[str], s: Settings) -> float:
    return ter_from_statistics(_stats(prediction, targets, s))


def _names(params: Mapping[str, Any]) -> tuple[str, ...]:
    return ("edits", "ref_len")


METRICS = (
    MetricSpec(
        name="ter",
        fn=_ter,
        description="translation edit rate with Tercom shifts (sacrebleu TER); lower is better",
        citation="Snover et al. 2006, TER; sacrebleu's Tercom re-implementation",
        family="edit",
        multi="native",
        aggregation="corpus",
        higher_is_better=False,
        value_range=(0.0, math.inf),
        params=(
            bool_option("normalized", "normalized", "Tercom normalisation"),
            bool_option("no_punct", "no_punct", "remove punctuation"),
            bool_option("asian_support", "asian", "CJK splitting/punctuation"),
            bool_option("case_sensitive", "case", "keep case (default: lowercase)"),
        ),
        edge_cases={
            "empty prediction": "1 (every reference word is deleted)",
            "empty target": "1 when the prediction has words (all edits, length 0), else 0",
            "both empty": "0",
            "whitespace-only": "no words: same as empty",
            "punctuation-only": "words like any other unless no_punct removes them",
            "no shared tokens": "1 for equal lengths (every word substituted)",
            "exact match": "0",
            "repeated tokens": "aligned one by one; shifts move runs of ≤ 10 words",
        },
        stats_fn=_stats,
        batch_stats_fn=_batch_stats,
        stats_names=_names,
        reduce_fn=_reduce,
        corpus_from_stats=True,
    ),
)

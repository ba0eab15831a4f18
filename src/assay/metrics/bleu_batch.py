"""BLEU of a whole corpus with the n-gram clipping vectorised (numpy, loaded on first use).

:func:`batch_stats` is the ``batch_stats_fn`` of ``bleu`` and ``corpus_bleu``: each
text is tokenised once, and the clipped matches of every order come from one
:func:`assay.metrics._vector.clipped_matches` over the whole corpus (one group per
item: the hypothesis and its references), giving the same rows
``(hyp_len, ref_len, m_1..m_N, t_1..t_N)`` as
:func:`assay.metrics.bleu_stats.bleu_statistics` item by item (sacrebleu's statistics).

:func:`bleu_4_batch` is ``bleu_4``'s ``batch_fn``: one group per (prediction,
non-empty target) pair, equal statistics scored once under ``add-one-all``, then the
max over each item's targets. Corpora under 2,000 characters, and corpora whose
n-gram keys would overflow, are scored item by item.

``tests/test_ngram_vector.py`` checks both against the per-item path, value for
value. It takes the per-segment rules from :mod:`assay.metrics.bleu_stats`, and
:mod:`assay.metrics.bleu` takes it (it loads numpy only when a corpus is counted).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence

from assay.metrics.base import Settings, Stats
from assay.metrics.bleu_stats import (
    bleu_4,
    brevity_penalty,
    closest_ref_len,
    stat_order,
)
from assay.metrics.bleu_stats import tokens as segment_tokens
from assay.text.normalize import normalize_none


def _text_tokenizer(s: Settings) -> Callable[[str], list[str]]:
    """``bleu_stats.tokens`` under ``s``, the default normalizer and ``lowercase`` resolved once."""
    if s.normalize is normalize_none and not s.params.get("lowercase"):
        tokenize = s.tokenize
        return lambda text: tokenize(text.rstrip())
    return functools.partial(segment_tokens, s=s)


def batch_stats(
    predictions: Sequence[str], targets_list: Sequence[Sequence[str]], s: Settings
) -> list[Stats]:
    """``bleu._stats`` for a whole corpus, with the n-gram clipping vectorised."""
    import numpy as np

    from assay.metrics import _vector

    order, floor_one = stat_order(s.params), s.params["empty_order"] == "floor-one"
    shortest = s.params["brevity"] == "shortest"
    tokens = _text_tokenizer(s)
    hyps = list(map(tokens, predictions))
    n = len(hyps)
    ref_len: list[int]
    if all(len(targets) == 1 for targets in targets_list):  # one reference each
        ref_texts = list(map(tokens, [targets[0] for targets in targets_list]))
        texts = [text for pair in zip(hyps, ref_texts, strict=True) for text in pair]
        group, slot = np.repeat(np.arange(n), 2), np.tile(np.array([0, 1]), n)
        ref_len = list(map(len, ref_texts))
    else:
        refs = [list(map(tokens, targets)) for targets in targets_list]
        texts = []
        group_list: list[int] = []
        slot_list: list[int] = []
        for i, item_refs in enumerate(refs):
            texts += [hyps[i], *item_refs]
            group_list += [i] * (len(item_refs) + 1)
            slot_list += range(len(item_refs) + 1)
        group, slot = np.array(group_list), np.array(slot_list)
        ref_len = [
            len(r[0])
            if len(r) == 1
            else min(map(len, r))
            if shortest
            else closest_ref_len(len(h), [len(t) for t in r])
            for h, r in zip(hyps, refs, strict=True)
        ]
    matches = _vector.clipped_matches(_vector.pack_tokens(texts), group, slot, n, order)
    hyp_len = np.fromiter(map(len, hyps), dtype=np.int64, count=n)
    totals = [np.maximum(hyp_len - k, 1 if floor_one else 0) for k in range(order)]
    table = np.vstack([hyp_len, np.array(ref_len, dtype=np.int64), matches, *totals])
    return list(map(tuple, table.T.tolist()))


def bleu_4_batch(
    predictions: Sequence[str], targets_list: Sequence[Sequence[str]], s: Settings
) -> list[float]:
    """``bleu_stats.bleu_4`` for a whole corpus (max over targets), the clipping vectorised.

    Each (prediction, non-empty target) pair is one group of the vectorised counts;
    the statistics are those of ``bleu_statistics`` (the tests check equality),
    and equal statistics share one BLEU value. Small corpora, and corpora whose
    n-gram keys would overflow, are scored item by item.
    """
    tokenize, normalize = s.tokenize, s.normalize
    size = sum(map(len, predictions)) + sum(len(t) for ts in targets_list for t in ts)
    if size < _BATCH_MIN_CHARS:
        return [_bleu_4_item(p, ts, s) for p, ts in zip(predictions, targets_list, strict=True)]
    import numpy as np

    from assay.metrics import _vector

    texts: list[list[str]] = []
    owner: list[int] = []  # the item of each group (pair)
    for i, (prediction, targets) in enumerate(zip(predictions, targets_list, strict=True)):
        hyp = tokenize(normalize(prediction))
        for target in targets:
            ref = tokenize(normalize(target))
            if ref:  # an empty target scores 0 (see bleu_4)
                texts += (hyp, ref)
                owner.append(i)
    n_groups = len(owner)
    try:
        matches = _vector.clipped_matches(
            _vector.pack_tokens(texts),
            np.repeat(np.arange(n_groups, dtype=np.int64), 2),
            np.tile(np.array([0, 1], dtype=np.int64), n_groups),
            n_groups,
            4,
        )
    except OverflowError:
        return [_bleu_4_item(p, ts, s) for p, ts in zip(predictions, targets_list, strict=True)]
    hyp_len = np.fromiter(map(len, texts[::2]), dtype=np.int64, count=n_groups)
    ref_len = np.fromiter(map(len, texts[1::2]), dtype=np.int64, count=n_groups)
    totals = [np.maximum(hyp_len - k, 0) for k in range(4)]
    table = np.vstack([hyp_len, ref_len, matches, *totals]).T.tolist()
    values = [0.0] * len(predictions)  # every BLEU is ≥ 0: the max with 0 changes nothing
    memo: dict[tuple[int, ...], float] = {}
    for i, row in zip(owner, map(tuple, table), strict=True):
        value = memo.get(row)
        if value is None:
            value = memo[row] = _add_one_all_4(row)
        if value > values[i]:
            values[i] = value
    return values


def _add_one_all_4(stats: Sequence[int]) -> float:
    """``bleu_from_statistics(stats, bleu_stats.BLEU4_PARAMS)`` with its branches resolved.

    Under add-one-all every order has ``m + 1 ≥ 1`` and ``t + 1 ≥ 1``, so no order is
    skipped or zero: the same four logarithms, summed and exponentiated the same way.
    """
    logs = [math.log((stats[2 + n] + 1.0) / (stats[6 + n] + 1.0)) for n in range(4)]
    return brevity_penalty(stats[0], stats[1]) * math.exp(math.fsum(logs) / 4)


def _bleu_4_item(prediction: str, targets: Sequence[str], s: Settings) -> float:
    """One item of ``bleu_4``: the max over its targets (as :meth:`BoundMetric.score_unchecked`)."""
    return float(max(bleu_4(prediction, target, s) for target in targets))


_BATCH_MIN_CHARS = 2000  # smaller corpora: numpy's set-up costs more than it saves

"""The single entry points: :func:`score`, :func:`score_corpus`, :func:`signature`, :func:`bind`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assay.metrics.base import BoundMetric
from assay.metrics.corpus import CorpusResult, score_corpus_bound
from assay.metrics.registry import get_metric


def bind(metric_name: str, **options: Any) -> BoundMetric:
    """Resolve a metric and its options once, for scoring many items.

    Raises:
        UnknownMetricError: unknown metric name (with suggestions).
        InvalidOptionError: an option the metric does not take, or a bad value.
    """
    return get_metric(metric_name).bind(**options)


def score(metric_name: str, prediction: str, targets: str | Sequence[str], **options: Any) -> float:
    """Score one prediction against one or more targets with a registered metric.

    Args:
        metric_name: a registry name, e.g. ``"f1"`` or ``"anls"`` (see ``assay metrics``).
        prediction: the model's answer, a string.
        targets: the gold answer(s): a string or a non-empty list of strings.
        **options: the metric's options, e.g. ``tokenizer="unicode"``, ``threshold=0.5``.

    Returns:
        A float in [0, 1].

    Raises:
        UnknownMetricError: unknown metric name (with suggestions).
        InvalidOptionError: an option the metric does not take, or a bad value.
        InvalidTypeError: a prediction or target that is not a string.
        InvalidInputError: an empty targets list.

    Example:
        >>> score("f1", "the cat sat", ["the cat sat on the mat"])
        0.6666666666666666
    """
    return bind(metric_name, **options).score(prediction, targets)


def signature(metric_name: str, **options: Any) -> str:
    """The canonical signature of a metric with options, e.g. ``f1|tok:word|norm:none|…``."""
    return bind(metric_name, **options).signature


def score_corpus(
    metric_name: str,
    predictions: Sequence[str] | Any,
    targets_list: Sequence[str | Sequence[str]] | Any,
    **options: Any,
) -> CorpusResult:
    """Score a whole corpus: per-item values, statistics and one corpus value.

    Works for every registered metric. Metrics with sufficient statistics and a
    corpus definition (``corpus_bleu``, ``chrf``, ``chrf++``, ``gleu``) compute the
    corpus value from statistics summed over items; every other metric reports the
    mean of the item values, and the record's ``is_mean`` is true.

    Args:
        metric_name: a registry name, e.g. ``"corpus_bleu"`` or ``"rouge_l"``.
        predictions: one prediction string per item: a list, tuple, numpy array,
            pandas Series, ``datasets`` column or other sized sequence.
        targets_list: one entry per item (any such sequence): a target string or a
            non-empty list (or array) of them.
        **options: the metric's options, as for :func:`score`.

    Returns:
        A :class:`CorpusResult` (``.value``, ``.values``, ``.statistics``,
        ``.signature``, ``.is_mean``).

    Raises:
        UnknownMetricError: unknown metric name (with suggestions).
        InvalidOptionError: an option the metric does not take, or a bad value.
        InvalidTypeError: a prediction or target that is not a string, or a non-list corpus.
        InvalidInputError: an empty corpus, mismatched lengths or an empty targets list.

    Example:
        >>> score_corpus("f1", ["the cat"], [["the cat sat"]]).value
        0.8
    """
    return score_corpus_bound(bind(metric_name, **options), predictions, targets_list)

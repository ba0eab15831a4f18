"""The single entry points: :func:`score`, :func:`score_corpus`, :func:`signature`, :func:`bind`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from assay.metrics.base import BoundMetric
from assay.metrics.corpus import (
    CorpusResult,
    Part,
    check_corpus,
    corpus_part,
    corpus_result,
    score_corpus_bound,
)
from assay.metrics.registry import get_metric
from assay.parallel import executor_for


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
    *,
    executor: Any = None,
    progress: Callable[[int, int], None] | None = None,
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
        executor: where the items are scored: ``None`` (this process), ``"local:N"``,
            a scheduler address or a ``dask.distributed.Client`` (see
            :mod:`assay.parallel`); the result is identical for every executor.
        progress: called with ``(done, total)`` partitions (Dask runs).
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
    if executor is not None:
        return _score_corpus_distributed(
            executor, metric_name, predictions, targets_list, progress=progress, **options
        )
    return score_corpus_bound(bind(metric_name, **options), predictions, targets_list)


CHUNK_ITEMS = 20_000  # items per Dask partition: cut by the data, never by the worker count


def _score_corpus_distributed(
    executor: Any,
    metric_name: str,
    predictions: Sequence[str],
    targets_list: Sequence[str | Sequence[str]],
    *,
    progress: Callable[[int, int], None] | None = None,
    **options: Any,
) -> CorpusResult:
    """:func:`score_corpus` with its items scored on ``executor`` (see :mod:`assay.parallel`).

    The items are checked here, cut into partitions of :data:`CHUNK_ITEMS`, scored on
    the workers and reduced here by the same code as :func:`score_corpus`: the
    result is identical to the in-process one.
    """
    bound = bind(metric_name, **options)
    preds, checked = check_corpus(bound, predictions, targets_list)
    with executor_for(executor) as runner:
        if not runner.distributed:
            return corpus_result(bound, [corpus_part(bound, preds, checked)])
        chunks = [
            (preds[i : i + CHUNK_ITEMS], checked[i : i + CHUNK_ITEMS])
            for i in range(0, len(checked), CHUNK_ITEMS)
        ]
        parts = runner.map(_PartTask(bound), chunks, progress=progress)
    return corpus_result(bound, parts)


class _PartTask:
    """One partition of a corpus: its per-item values and statistics."""

    def __init__(self, bound: BoundMetric) -> None:
        self.bound = bound

    def __call__(self, chunk: tuple[Sequence[str], Sequence[Sequence[str]]]) -> Part:
        return corpus_part(self.bound, *chunk)

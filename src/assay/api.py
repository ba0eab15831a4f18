"""The single entry points: :func:`score`, :func:`score_corpus`, :func:`signature`, :func:`bind`."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, overload

from assay.errors import InvalidOptionError
from assay.metrics.base import BoundMetric, check_inputs
from assay.metrics.corpus import (
    CorpusResult,
    Part,
    check_corpus,
    corpus_part,
    corpus_result,
    score_corpus_bound,
)
from assay.metrics.registry import get_metric
from assay.metrics.squad_v2_thresh import probabilities_for, squad_v2_evaluation
from assay.parallel import chunked, executor_for


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
        A float in the metric's declared range (``get_metric(name).value_range``):
        [0, 1] for most metrics, [0, ∞) for the error rates ``wer``, ``cer``, ``ter``.

    Raises:
        UnknownMetricError: unknown metric name (with suggestions).
        InvalidOptionError: an option the metric does not take, or a bad value.
        InvalidTypeError: a prediction or target that is not a string.
        InvalidInputError: an empty targets list.

    Example:
        >>> score("f1", "the cat sat", ["the cat sat on the mat"])
        0.6666666666666666
    """
    if not options:
        try:  # the default binding, looked up once per call
            name, unchecked = _PLAIN[metric_name]
        except (KeyError, TypeError):  # not bound yet, or not a string (then bind says so)
            pass
        else:  # BoundMetric.score's two steps, without its frame
            return unchecked(prediction, check_inputs(name, prediction, targets))
    return _bound(metric_name, options).score(prediction, targets)


_CACHEABLE = (str, int, float, bool, type(None))


def _bound(metric_name: str, options: dict[str, Any]) -> BoundMetric:
    """:func:`bind`, remembered for plain option values (``score`` in a loop binds once).

    The key holds each value's type, so ``1``, ``1.0`` and ``True`` are validated
    separately; other value types (lists, objects) are bound afresh every call.
    """
    if not options and type(metric_name) is str:
        bound = bind(metric_name)
        _PLAIN[metric_name] = (bound.spec.name, bound.score_unchecked)
        return bound
    if isinstance(metric_name, str) and all(type(v) in _CACHEABLE for v in options.values()):
        key = tuple(sorted((k, type(v).__name__, v) for k, v in options.items()))
        return _bind_cached(metric_name, key)
    return bind(metric_name, **options)


_PLAIN: dict[str, tuple[str, Callable[[str, Sequence[str]], float]]] = {}
"""Metrics bound with their default options, by the name (or alias) that bound them: the
registry name (for :func:`check_inputs`' messages) and the bound ``score_unchecked``, so a
call costs one dictionary look-up and the same calls as :meth:`BoundMetric.score`."""


@functools.lru_cache(maxsize=256)
def _bind_cached(metric_name: str, key: tuple[tuple[str, str, Any], ...]) -> BoundMetric:
    return bind(metric_name, **{name: value for name, _, value in key})


def signature(metric_name: str, **options: Any) -> str:
    """The canonical signature of a metric with options, e.g. ``f1|tok:word|norm:none|…``."""
    return bind(metric_name, **options).signature


@overload
def score_corpus(
    metric_name: str,
    predictions: Sequence[str] | Any,
    targets_list: Sequence[str | Sequence[str]] | Any,
    *,
    executor: Any = None,
    progress: Callable[[int, int], None] | None = None,
    no_answer_probabilities: Mapping[Any, float] | None = None,
    ids: Sequence[Any] | None = None,
    **options: Any,
) -> CorpusResult: ...


@overload
def score_corpus(
    metric_name: list[str] | tuple[str, ...],
    predictions: Sequence[str] | Any,
    targets_list: Sequence[str | Sequence[str]] | Any,
    *,
    executor: Any = None,
    progress: Callable[[int, int], None] | None = None,
    no_answer_probabilities: Mapping[Any, float] | None = None,
    ids: Sequence[Any] | None = None,
    **options: Any,
) -> dict[str, CorpusResult]: ...


def score_corpus(
    metric_name: str | list[str] | tuple[str, ...],
    predictions: Sequence[str] | Any,
    targets_list: Sequence[str | Sequence[str]] | Any,
    *,
    executor: Any = None,
    progress: Callable[[int, int], None] | None = None,
    no_answer_probabilities: Mapping[Any, float] | None = None,
    ids: Sequence[Any] | None = None,
    **options: Any,
) -> CorpusResult | dict[str, CorpusResult]:
    """Score a whole corpus: per-item values, statistics and one corpus value.

    Works for every registered metric. Metrics with sufficient statistics and a
    corpus definition (``corpus_bleu``, ``chrf``, ``chrf++``, ``gleu``) compute the
    corpus value from statistics summed over items; every other metric reports the
    mean of the item values, and the record's ``is_mean`` is true.

    Args:
        metric_name: a registry name, e.g. ``"corpus_bleu"`` or ``"rouge_l"``; or a list
            of them (``["f1", "rouge_l"]``): then a dict name → :class:`CorpusResult`
            is returned, in the order given, the options applying to every metric.
        predictions: one prediction string per item: a list, tuple, numpy array,
            pandas Series, ``datasets`` column or other sized sequence.
        targets_list: one entry per item (any such sequence): a target string or a
            non-empty list (or array) of them.
        executor: where the items are scored: ``None`` (this process), ``"local:N"``,
            a scheduler address or a ``dask.distributed.Client`` (see
            :mod:`assay.parallel`); the result is identical for every executor.
        progress: called with ``(done, total)`` partitions (Dask runs).
        no_answer_probabilities: ``squad_v2.em`` / ``squad_v2.f1`` only: a mapping
            question id → probability that the question has no answer; the result's
            ``details`` then holds the official v2.0 script's keys (``exact``, ``f1``,
            ``HasAns_exact``, ``HasAns_f1``, ``NoAns_exact``, ``NoAns_f1``, ``best_exact``,
            ``best_exact_thresh``, ``best_f1``, ``best_f1_thresh``) on its 0–100 scale.
        ids: the question ids, one per item (default: the positions 0, 1, 2, …).
        **options: the metric's options, as for :func:`score`.

    Returns:
        A :class:`CorpusResult` (``.value``, ``.values``, ``.statistics``,
        ``.signature``, ``.is_mean``, ``.details``).

    Raises:
        UnknownMetricError: unknown metric name (with suggestions).
        InvalidOptionError: an option the metric does not take, or a bad value.
        InvalidTypeError: a prediction or target that is not a string, or a non-list corpus.
        InvalidInputError: an empty corpus, mismatched lengths or an empty targets list.

    Example:
        >>> score_corpus("f1", ["the cat"], [["the cat sat"]]).value
        0.8
        >>> {m: r.value for m, r in score_corpus(["f1", "exact_match"], ["a"], ["a"]).items()}
        {'f1': 1.0, 'exact_match': 1.0}
    """
    if isinstance(metric_name, (list, tuple)):
        return {
            name: score_corpus(
                name, predictions, targets_list, executor=executor, progress=progress,
                no_answer_probabilities=no_answer_probabilities, ids=ids, **options,
            )
            for name in dict.fromkeys(metric_name)
        }  # fmt: skip
    if executor is not None:
        result = _score_corpus_distributed(
            executor, metric_name, predictions, targets_list, progress=progress, **options
        )
        bound = bind(metric_name, **options)
    else:
        bound = bind(metric_name, **options)
        result = score_corpus_bound(bound, predictions, targets_list)
    if no_answer_probabilities is None:
        if ids is not None:
            raise InvalidOptionError("ids are only used with no_answer_probabilities; drop ids.")
        return result
    probabilities = no_answer_probabilities
    details = squad_v2_details(bound, result, predictions, targets_list, probabilities, ids)
    return dataclasses.replace(result, details=details)


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
        chunks = list(zip(chunked(preds, CHUNK_ITEMS), chunked(checked, CHUNK_ITEMS), strict=True))
        parts = runner.map(_PartTask(bound), chunks, progress=progress)
    return corpus_result(bound, parts)


class _PartTask:
    """One partition of a corpus: its per-item values and statistics."""

    def __init__(self, bound: BoundMetric) -> None:
        self.bound = bound

    def __call__(self, chunk: tuple[Sequence[str], Sequence[Sequence[str]]]) -> Part:
        return corpus_part(self.bound, *chunk)


def squad_v2_details(
    bound: BoundMetric,
    result: CorpusResult,
    predictions: Sequence[str],
    targets_list: Sequence[Any],
    probabilities: Mapping[Any, float],
    ids: Sequence[Any] | None,
) -> dict[str, float]:
    """The official SQuAD v2.0 script's figures for a corpus (see :func:`score_corpus`)."""
    name = bound.spec.name
    if name not in ("squad_v2.em", "squad_v2.f1"):
        raise InvalidOptionError(
            f"metric {name!r} does not take no_answer_probabilities; it is an option of "
            "squad_v2.em and squad_v2.f1."
        )
    ids = list(range(len(result.values))) if ids is None else list(ids)
    if len(ids) != len(predictions) or len(set(ids)) != len(ids):
        raise InvalidOptionError(
            f"metric {name!r}: give one unique id per prediction ({len(predictions)} "
            f"predictions, {len(ids)} ids, {len(set(ids))} distinct)."
        )
    chance, order = probabilities_for(ids, probabilities, name)
    predictions = [str(p) for p in predictions]
    targets = [[str(t)] if isinstance(t, str) else [str(x) for x in t] for t in targets_list]
    other = get_metric("squad_v2.f1" if name == "squad_v2.em" else "squad_v2.em")
    same_text = {"tokenizer": bound.tokenizer, "normalizer": bound.normalizer}
    text = {} if other.fixed_text else same_text
    extra = score_corpus_bound(other.bind(**text), predictions, targets).values
    own = result.values
    exact, f1 = (own, extra) if name == "squad_v2.em" else (extra, own)
    has_answer = [any(t != "" for t in item) for item in targets]
    answered = [p != "" for p in predictions]
    return squad_v2_evaluation(exact, f1, has_answer, answered, chance, order)

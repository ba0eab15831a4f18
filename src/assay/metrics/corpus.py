"""Corpus scoring: per-item values and statistics, and one corpus value.

For metrics with per-item sufficient statistics and ``corpus_from_stats`` (corpus
BLEU, chrF, GLEU) the corpus value is computed from the statistics summed over
items, never as a mean of item scores. For every other metric the corpus value
is the mean of the item values, and :attr:`CorpusResult.is_mean` says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence, Set, Sized
from dataclasses import dataclass
from typing import Any

from assay.errors import InvalidInputError, InvalidTypeError
from assay.metrics.base import BoundMetric, MetricSpec, Settings, Stats, check_inputs

VECTOR_MIN_CHARS = 2000
"""Smaller corpora (total characters) use the per-item statistics: numpy's set-up costs more."""


@dataclass(frozen=True, slots=True)
class CorpusResult:
    """The result of scoring a corpus with one metric.

    Attributes:
        metric: the registry name.
        value: the corpus value (from summed statistics, or the mean of ``values``).
        values: the per-item values, in input order.
        statistics: per-item sufficient statistics (``None`` when the metric has none).
        statistic_names: the name of each statistic position.
        signature: the metric's canonical signature.
        is_mean: true when ``value`` is the mean of ``values``.
        n: the number of items.
        details: extra named figures of the corpus, e.g. the SQuAD v2.0 script's
            ``best_f1``/``best_f1_thresh`` keys when ``no_answer_probabilities`` is given,
            or ROUGE's bootstrap ``low``/``mid``/``high``/``mean`` (``None`` otherwise, and
            then absent from :meth:`to_dict`).
        aggregate: the named aggregate that gave ``value`` (``"bootstrap"``: ROUGE with
            ``aggregate="bootstrap"``, rouge-score's ``BootstrapAggregator`` mid); ``None``
            for the mean or the corpus formula, and then absent from :meth:`to_dict`.
    """

    metric: str
    value: float
    values: tuple[float, ...]
    statistics: tuple[Stats, ...] | None
    statistic_names: tuple[str, ...]
    signature: str
    is_mean: bool
    n: int
    details: Mapping[str, float] | None = None
    aggregate: str | None = None

    @property
    def per_item(self) -> tuple[float, ...]:
        """The per-item values (the same as :attr:`values`)."""
        return self.values

    @property
    def aggregation(self) -> str:
        """``"mean"`` (mean of the item values), ``"corpus"`` or a named :attr:`aggregate`."""
        if self.aggregate is not None:
            return self.aggregate
        return "mean" if self.is_mean else "corpus"

    def __float__(self) -> float:
        """The corpus value, so ``float(result)`` works."""
        return self.value

    def __repr__(self) -> str:
        """One line: metric, value, how it was aggregated, n and signature (not every value)."""
        return (
            f"CorpusResult({self.metric}={self.value!r}, {self.aggregation} over n={self.n}, "
            f"signature={self.signature!r})"
        )

    def to_pandas(self) -> Any:
        """One row per item: ``item`` (its position), ``value`` and each statistic (needs pandas).

        Raises:
            MissingExtraError: pandas is not installed (``pip install 'assay[pandas]'``).
        """
        from assay.io.frames import data_frame

        names = tuple(self.statistic_names) if self.statistics is not None else ()
        rows = [
            {"item": k, "value": value, **dict(zip(names, self.statistics[k], strict=True))}
            if self.statistics is not None
            else {"item": k, "value": value}
            for k, value in enumerate(self.values)
        ]
        return data_frame(rows, ("item", "value", *names))

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON-ready form (lists instead of tuples)."""
        out: dict[str, Any] = {
            "is_mean": self.is_mean,
            "metric": self.metric,
            "n": self.n,
            "signature": self.signature,
            "statistic_names": list(self.statistic_names),
            "statistics": None
            if self.statistics is None
            else [list(row) for row in self.statistics],
            "value": self.value,
            "values": list(self.values),
        }
        if self.details is not None:
            out["details"] = dict(self.details)
        if self.aggregate is not None:
            out["aggregate"] = self.aggregate
        return out


def sum_statistics(rows: Sequence[Stats]) -> list[int]:
    """Element-wise sum of per-item statistics."""
    return [sum(column) for column in zip(*rows, strict=True)]


def as_list(value: object) -> list[Any] | None:
    """A list from any one-dimensional sequence or array-like, or ``None``.

    Lists and tuples; numpy arrays and pandas Series (through ``tolist()``, so
    numpy scalars become Python ones); and any other sized iterable such as a
    Hugging Face ``datasets`` column. Strings, bytes, mappings and sets are not
    sequences of items (a set has no order) and give ``None``.
    """
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, (str, bytes, bytearray, Mapping, Set)):
        return None
    tolist = getattr(value, "tolist", None)
    if callable(tolist):
        converted = tolist()
        return converted if isinstance(converted, list) else None
    if isinstance(value, Sized) and isinstance(value, Iterable):
        return list(value)
    return None


def _check_list(name: str, label: str, value: object) -> list[Any]:
    converted = as_list(value)
    if converted is None:
        raise InvalidTypeError(
            f"metric {name!r}: {label} must be a list or another sequence (tuple, numpy "
            f"array, pandas Series, datasets column), got {type(value).__name__}; "
            "pass one entry per item."
        )
    return converted


def _entry(targets: Any) -> Any:
    """One item's targets: a string stays; an array-like of strings becomes a list."""
    if isinstance(targets, str):
        return targets
    converted = as_list(targets)
    return targets if converted is None else converted


def _check_corpus(name: str, predictions: object, targets_list: object) -> list[list[str]]:
    preds = _check_list(name, "predictions", predictions)
    targets = _check_list(name, "targets_list", targets_list)
    if len(preds) != len(targets):
        raise InvalidInputError(
            f"metric {name!r}: {len(preds)} predictions but {len(targets)} "
            "target entries; give one targets entry (a string or a list) per prediction."
        )
    if not preds:
        raise InvalidInputError(f"metric {name!r}: the corpus is empty; give at least one item.")
    try:
        return [check_inputs(name, p, _entry(t)) for p, t in zip(preds, targets, strict=True)]
    except (InvalidTypeError, InvalidInputError) as exc:
        raise _at_item(exc, name, preds, targets) from None


def _at_item(
    exc: InvalidTypeError | InvalidInputError, name: str, preds: list[Any], targets: list[Any]
) -> InvalidTypeError | InvalidInputError:
    """The same refusal, naming the position of the first item that fails."""
    for k, (p, t) in enumerate(zip(preds, targets, strict=True)):
        try:
            check_inputs(name, p, _entry(t))
        except (InvalidTypeError, InvalidInputError):
            head = f"metric {name!r}: "
            return type(exc)(str(exc).replace(head, f"{head}item {k}: ", 1))
    return exc


def item_statistics(
    spec: MetricSpec,
    predictions: Sequence[str],
    targets_list: Sequence[Sequence[str]],
    settings: Settings,
) -> tuple[Stats, ...]:
    """Per-item statistics, vectorised for corpora of :data:`VECTOR_MIN_CHARS` or more.

    The vectorised path (``spec.batch_stats_fn``) returns the same tuples as the
    per-item ``stats_fn``; it falls back to ``stats_fn`` when its integer keys
    would overflow.
    """
    if spec.batch_stats_fn is not None and _size(predictions, targets_list) >= VECTOR_MIN_CHARS:
        try:
            return tuple(spec.batch_stats_fn(predictions, targets_list, settings))
        except OverflowError:
            pass
    assert spec.stats_fn is not None
    stats_fn = spec.stats_fn
    return tuple(stats_fn(p, t, settings) for p, t in zip(predictions, targets_list, strict=True))


def _size(predictions: Sequence[str], targets_list: Sequence[Sequence[str]]) -> int:
    """Total characters, counted only until :data:`VECTOR_MIN_CHARS` is reached."""
    size = 0
    for prediction, targets in zip(predictions, targets_list, strict=True):
        size += len(prediction) + sum(map(len, targets))
        if size >= VECTOR_MIN_CHARS:
            break
    return size


def score_corpus_bound(
    bound: BoundMetric, predictions: Sequence[str], targets_list: Sequence[Any]
) -> CorpusResult:
    """Score a corpus with a bound metric (see :func:`assay.score_corpus`)."""
    preds, checked = check_corpus(bound, predictions, targets_list)
    return corpus_result(bound, [corpus_part(bound, preds, checked)])


Part = tuple[tuple[float, ...], tuple[Stats, ...] | None]


def check_corpus(
    bound: BoundMetric, predictions: Any, targets_list: Any
) -> tuple[list[str], list[list[str]]]:
    """The predictions as a list and the checked targets of a whole corpus.

    Errors name the item's index in the whole corpus, however it is later cut.
    """
    name = bound.spec.name
    checked = _check_corpus(name, predictions, targets_list)
    return _check_list(name, "predictions", predictions), checked


def corpus_part(
    bound: BoundMetric, predictions: Sequence[str], checked: Sequence[Sequence[str]]
) -> Part:
    """Per-item values and statistics (``None``: the metric has none) of checked items."""
    spec = bound.spec
    settings = bound.settings
    if spec.stats_fn is None or spec.reduce_fn is None:
        if spec.batch_fn is not None:
            return tuple(spec.batch_fn(predictions, checked, settings)), None
        values = tuple(
            bound.score_unchecked(p, t) for p, t in zip(predictions, checked, strict=True)
        )
        return values, None
    reduce_fn = spec.reduce_fn
    rows = item_statistics(spec, predictions, checked, settings)
    memo: dict[Stats, float] = {}  # reduce_fn is pure: equal statistics, equal value
    values = tuple(
        memo[row] if row in memo else memo.setdefault(row, reduce_fn(row, settings)) for row in rows
    )
    return values, rows


def corpus_result(bound: BoundMetric, parts: Sequence[Part]) -> CorpusResult:
    """Reduce the parts of a corpus, in order, to one :class:`CorpusResult`.

    The same reduction serves one part (in process) and many (a Dask run), so the
    corpus value is identical however the items were cut.
    """
    spec = bound.spec
    values = tuple(value for part_values, _ in parts for value in part_values)
    if spec.stats_fn is None or spec.reduce_fn is None:
        return CorpusResult(
            spec.name, sum(values) / len(values), values, None, (), bound.signature, True,
            len(values),
        )  # fmt: skip
    rows = tuple(row for _, part_rows in parts for row in part_rows or ())
    settings = bound.settings
    if spec.corpus_from_stats:
        value, is_mean = spec.reduce_fn(sum_statistics(rows), settings), False
    else:
        value, is_mean = sum(values) / len(values), True
    names = spec.stats_names(settings.params) if spec.stats_names is not None else ()
    named = spec.corpus_aggregate(values, settings)
    if named is None:
        return CorpusResult(
            spec.name, value, values, rows, names, bound.signature, is_mean, len(values)
        )
    aggregate, value, details = named
    return CorpusResult(
        spec.name, value, values, rows, names, bound.signature, False, len(values), details,
        aggregate,
    )  # fmt: skip

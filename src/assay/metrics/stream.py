"""Score a corpus chunk by chunk, holding only what the corpus value needs.

:func:`score_chunk` scores one chunk of checked pairs with several metrics: per
metric, the per-item values and statistics of :func:`~assay.metrics.corpus.corpus_part`
(a pure function of the chunk, so it can run on a Dask worker). A :class:`Tally`
per metric takes the chunks in order and keeps

* the per-item values as 8-byte floats (``array('d')``), for the mean and for a
  bootstrap interval: 8 MB per metric for a million pairs;
* for metrics whose corpus value comes from summed statistics (corpus BLEU, chrF,
  GLEU, TER, WER/CER) only the running sums, added row by row in input order, so
  the sums are those of :func:`~assay.metrics.corpus.sum_statistics` over the whole
  corpus; the per-item statistics are kept only when asked (``keep_statistics``,
  for a bootstrap interval that resamples them: 8 bytes per statistic per item).

:meth:`Tally.result` then gives the value :func:`assay.score_corpus` gives on the
same pairs: the mean is ``sum(values) / n`` over the values in input order, and the
corpus value the metric's reducer of the summed statistics.

:class:`NoAnswerTally` does the same for SQuAD v2.0's no-answer threshold search
(``no_answer_probability`` rows): a few bytes per item instead of every pair.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from assay.errors import InputFileError, InvalidInputError
from assay.io.blocks import Block, read_block_pairs
from assay.metrics.base import BoundMetric
from assay.metrics.corpus import Part, corpus_part
from assay.metrics.registry import get_metric
from assay.metrics.squad_v2_thresh import squad_v2_evaluation
from assay.parallel import working_directory
from assay.stats.poisson_bootstrap import PoissonSums

CHUNK = 4096
"""Pairs per chunk when streaming a file in this process."""

SQUAD_V2 = ("squad_v2.em", "squad_v2.f1")
"""The metrics that take no-answer probabilities."""


def score_chunk(
    metrics: Sequence[BoundMetric], predictions: Sequence[str], targets: Sequence[Sequence[str]]
) -> list[Part]:
    """Score one chunk of checked pairs with each metric: its values and statistics.

    Args:
        metrics: the bound metrics, in the order the parts are returned.
        predictions: the chunk's predictions.
        targets: the chunk's target lists (checked: non-empty lists of strings).

    Returns:
        One ``(values, statistics)`` part per metric (``statistics`` is ``None`` for a
        metric without them), as :func:`~assay.metrics.corpus.corpus_part` returns.
    """
    return [corpus_part(metric, predictions, targets) for metric in metrics]


class ChunkTask:
    """:func:`score_chunk` with its metrics bound: ``task((predictions, targets))``.

    Picklable (the bound metrics are), so an executor can run it on workers.
    """

    def __init__(self, metrics: Sequence[BoundMetric]) -> None:
        """Keep the metrics each chunk is scored with."""
        self.metrics = list(metrics)

    def __call__(self, chunk: tuple[Sequence[str], Sequence[Sequence[str]]]) -> list[Part]:
        """Score one ``(predictions, targets)`` chunk."""
        return score_chunk(self.metrics, *chunk)


@dataclass(frozen=True, slots=True)
class ScoredBlock:
    """One byte-range block of a pairs file, read and scored on a worker.

    Attributes:
        ids: the pairs' ids, in file order (checked for repeats by the client).
        lines: each pair's line.
        chances: each pair's ``no_answer_probability`` (``None`` where not given).
        parts: one part per metric, as :func:`score_chunk` returns them.
        flags: what :class:`NoAnswerTally` keeps (``None`` when the block's first
            pair has no probability).
        error: the input error that ended the block (raised by the client in order).
        pending: ``(id, line)`` of the bad row when its id was read before the error.
        poisson: per asked metric, the block's Poisson bootstrap sums (or ``None``).
    """

    ids: list[str]
    lines: list[int]
    chances: list[float | None]
    parts: list[Part]
    flags: NoAnswerFlags | None
    error: InputFileError | None
    pending: tuple[str, int] | None
    poisson: list[PoissonSums] | None = None


def poisson_sums(
    metrics: Sequence[BoundMetric], lines: Sequence[int], parts: Sequence[Part], interval: Any
) -> list[PoissonSums]:
    """Each metric's Poisson bootstrap sums over one partition (items keyed by their line).

    A metric whose corpus value comes from summed statistics sums its statistics;
    any other sums its per-item values. ``interval`` gives ``seed`` and ``resamples``.
    """
    out = []
    for metric, (values, statistics) in zip(metrics, parts, strict=False):
        sums = PoissonSums(interval.seed, interval.resamples)
        if _from_stats(metric):
            sums.add_statistics(lines, statistics)
        else:
            sums.add_values(lines, values)
        out.append(sums)
    return out


def _from_stats(bound: BoundMetric) -> bool:
    spec = bound.spec
    return bool(spec.corpus_from_stats and spec.stats_fn is not None and spec.reduce_fn is not None)


def poisson_scores(bound: BoundMetric, sums: PoissonSums) -> Any:
    """Each resample's corpus value.

    The metric's reducer of the resample's weighted statistic sums, or the weighted
    mean of its values.
    """
    reduce_fn = bound.spec.reduce_fn
    if not _from_stats(bound) or reduce_fn is None:
        return sums.mean_scores()
    settings = bound.settings
    return sums.reduced_scores(lambda totals: reduce_fn(totals, settings))


@dataclass(frozen=True, slots=True)
class _Resampling:
    seed: int
    resamples: int


class BlockTask:
    """Read one block of a pairs file and score it: ``task(block)`` gives a :class:`ScoredBlock`.

    The block's pairs are scored with ``metrics``, or with ``with_chances`` when its
    first pair carries a ``no_answer_probability`` (the SQuAD v2 companions too). The
    worker holds one block's pairs at a time and sends back no text.
    """

    def __init__(
        self, metrics: Sequence[BoundMetric], with_chances: Sequence[BoundMetric], cwd: str,
        poisson: tuple[int, int] | None = None,
    ) -> None:  # fmt: skip
        """Keep both metric lists and the client's working directory.

        ``poisson``: the Poisson bootstrap's ``(seed, resamples)`` (``None``: no sums).
        """
        self.metrics, self.with_chances, self.cwd = list(metrics), list(with_chances), cwd
        self.poisson = poisson

    def __call__(self, block: Block) -> ScoredBlock:
        """Read, check and score one block."""
        with working_directory(self.cwd):
            pairs, error, pending = read_block_pairs(block)
        chances = [p.no_answer_probability for p in pairs]
        predictions = [p.prediction for p in pairs]
        targets = [list(p.targets) for p in pairs]
        flags = None
        metrics = self.metrics
        if chances and chances[0] is not None:
            metrics = self.with_chances
            if all(c is not None for c in chances):
                flags = no_answer_flags(predictions, targets, chances)  # type: ignore[arg-type]
        parts = score_chunk(metrics, predictions, targets) if pairs else []
        lines = [p.line for p in pairs]
        sums = None
        if self.poisson is not None and pairs:
            sums = poisson_sums(self.metrics, lines, parts, _Resampling(*self.poisson))
        return ScoredBlock([p.id for p in pairs], lines, chances, parts, flags, error, pending,
                           sums)  # fmt: skip


@dataclass(frozen=True, slots=True)
class StreamResult:
    """One metric's value over a streamed corpus (no per-item tuple held).

    Attributes:
        metric: the registry name.
        value: the corpus value (from summed statistics) or the mean of the values.
        is_mean: whether ``value`` is the mean of the per-item values.
        n: the number of items.
        signature: the metric's canonical signature.
        details: extra named figures (the SQuAD v2.0 script's), or ``None``.
    """

    metric: str
    value: float
    is_mean: bool
    n: int
    signature: str
    details: dict[str, float] | None = None
    aggregate: str | None = None

    @property
    def aggregation(self) -> str:
        """``"mean"``, ``"corpus"`` or a named aggregate (as ``CorpusResult.aggregation``)."""
        if self.aggregate is not None:
            return self.aggregate
        return "mean" if self.is_mean else "corpus"


class Tally:
    """One metric's running totals over the chunks of a corpus, taken in order."""

    def __init__(self, bound: BoundMetric, *, keep_statistics: bool = False) -> None:
        """Start empty; ``keep_statistics`` keeps per-item statistics (corpus metrics)."""
        self.bound = bound
        self.values: array[float] = array("d")
        spec = bound.spec
        self.from_stats = (
            spec.corpus_from_stats and spec.stats_fn is not None and spec.reduce_fn is not None
        )
        self.totals: list[Any] | None = None
        self._rows: list[np.ndarray[Any, Any]] | None = (
            [] if keep_statistics and self.from_stats else None
        )

    def add(self, part: Part) -> None:
        """Take the next chunk's values and statistics."""
        values, rows = part
        self.values.extend(values)
        if not self.from_stats or not rows:
            return
        columns = list(zip(*rows, strict=True))
        if self.totals is None:
            self.totals = [0] * len(columns)
        # sum() adds in order from the running total: the whole corpus's sum, row by row.
        totals = zip(columns, self.totals, strict=True)
        self.totals = [sum(column, total) for column, total in totals]
        if self._rows is not None:
            self._rows.append(np.asarray(rows, dtype=float))

    def statistics(self) -> np.ndarray[Any, Any] | None:
        """The kept per-item statistics as one float array (``None`` if not kept)."""
        if not self._rows:
            return None
        return np.concatenate(self._rows)

    def result(self, details: dict[str, float] | None = None) -> StreamResult:
        """The corpus value, as :func:`assay.score_corpus` computes it.

        Raises:
            InvalidInputError: no items were added.
        """
        bound, n = self.bound, len(self.values)
        if not n:
            raise InvalidInputError(
                f"metric {bound.spec.name!r}: the corpus is empty; give at least one item."
            )
        named = bound.spec.corpus_aggregate(self.values, bound.settings)
        if named is not None:  # ROUGE's aggregate="bootstrap": rouge-score's mid
            aggregate, value, figures = named
            merged = {**figures, **(details or {})}
            sig = bound.signature
            return StreamResult(bound.spec.name, value, False, n, sig, merged, aggregate)
        if self.from_stats and self.totals is not None:
            assert bound.spec.reduce_fn is not None
            value = bound.spec.reduce_fn(self.totals, bound.settings)
            return StreamResult(bound.spec.name, value, False, n, bound.signature, details)
        mean = sum(self.values) / n
        return StreamResult(bound.spec.name, mean, True, n, bound.signature, details)


def squad_v2_companion(bound: BoundMetric) -> BoundMetric:
    """The other SQuAD v2 metric (EM for F1, F1 for EM) with the same text options."""
    name = bound.spec.name
    other = get_metric("squad_v2.f1" if name == "squad_v2.em" else "squad_v2.em")
    if other.fixed_text:
        return other.bind()
    return other.bind(tokenizer=bound.tokenizer, normalizer=bound.normalizer)


NoAnswerFlags = tuple[list[float], bytes, bytes]
"""Per item: the no-answer probability, whether gold has an answer, whether one was given."""


def no_answer_flags(
    predictions: Sequence[str], targets: Sequence[Sequence[str]], probabilities: Sequence[float]
) -> NoAnswerFlags:
    """What :class:`NoAnswerTally` keeps of a chunk: a few bytes per item."""
    has_answer = bytes(any(t != "" for t in item) for item in targets)
    answered = bytes(p != "" for p in predictions)
    return list(probabilities), has_answer, answered


class NoAnswerTally:
    """What SQuAD v2.0's threshold search needs of each item, a few bytes each."""

    def __init__(self) -> None:
        """Start empty."""
        self.probabilities: array[float] = array("d")
        self.has_answer = bytearray()
        self.answered = bytearray()

    def add(
        self,
        predictions: Sequence[str],
        targets: Sequence[Sequence[str]],
        probabilities: Sequence[float],
    ) -> None:
        """Take the next chunk's predictions, targets and no-answer probabilities."""
        self.add_flags(no_answer_flags(predictions, targets, probabilities))

    def add_flags(self, flags: NoAnswerFlags) -> None:
        """Take the next chunk's :func:`no_answer_flags`."""
        probabilities, has_answer, answered = flags
        self.probabilities.extend(probabilities)
        self.has_answer.extend(has_answer)
        self.answered.extend(answered)

    def details(self, exact: Sequence[float], f1: Sequence[float]) -> dict[str, float]:
        """The official script's figures from the items' exact-match and F1 values.

        The ids are unique and the probabilities were given in file order, so the
        script's tie order (its dict's order) is the input order.
        """
        order = range(len(self.probabilities))
        return squad_v2_evaluation(
            exact,
            f1,
            [bool(h) for h in self.has_answer],
            [bool(a) for a in self.answered],
            self.probabilities,
            order,
        )

"""``assay score --file``: a pairs file scored in chunks, never held whole.

In this process the file is read and scored :data:`~assay.metrics.stream.CHUNK`
pairs at a time: each chunk is scored with every metric by
:func:`~assay.metrics.stream.score_chunk`, its per-item JSONL rows are written at
once (``--per-item``), and one :class:`~assay.metrics.stream.Tally` per metric keeps
what the corpus value needs (8-byte values; running sums of statistics, and the
per-item statistics only for ``--confidence`` on a corpus metric). Pair ids are
checked for repeats with 8 bytes each (:class:`assay.io.idset.HashedIds`).

With ``--dask`` the pairs are read first, cut into chunks of
:data:`~assay.api.CHUNK_ITEMS`, scored on the cluster by
:class:`~assay.metrics.stream.ChunkTask` and taken back in order by the same
tallies: the numbers and files are the same as in process.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import assay.api
from assay.cli.score_output import Interval, score_entry
from assay.errors import InputFileError
from assay.io.jsonl import Pair, read_pairs
from assay.io.output import Sink
from assay.metrics.base import BoundMetric
from assay.metrics.corpus import Part
from assay.metrics.interval import interval_of
from assay.metrics.stream import (
    CHUNK,
    SQUAD_V2,
    ChunkTask,
    NoAnswerTally,
    StreamResult,
    Tally,
    score_chunk,
    squad_v2_companion,
)
from assay.parallel import executor_for
from assay.stats.bootstrap import BootstrapEstimate


@dataclass(frozen=True, slots=True)
class PairChunk:
    """Consecutive pairs of a file: ids, predictions, targets (and no-answer chances)."""

    ids: list[str]
    predictions: list[str]
    targets: list[list[str]]
    probabilities: list[float] | None


def pair_chunks(pairs: Iterable[Pair], size: int) -> Iterator[PairChunk]:
    """The pairs in chunks of ``size``, checked as they go.

    ``no_answer_probability`` must be given on every row or on none.

    Raises:
        InputFileError: a row without it while another has it (naming the first row
            without it), or the reader's own errors.
    """
    first: Pair | None = None
    chunk: list[Pair] = []
    for pair in pairs:
        if first is None:
            first = pair
        elif (pair.no_answer_probability is None) != (first.no_answer_probability is None):
            missing = pair if pair.no_answer_probability is None else first
            raise InputFileError(
                missing.path,
                "missing while other rows give one; give every row a no_answer_probability "
                "or none",
                line=missing.line,
                field="no_answer_probability",
            )
        chunk.append(pair)
        if len(chunk) == size:
            yield _chunk(chunk)
            chunk = []
    if chunk:
        yield _chunk(chunk)


def _chunk(pairs: list[Pair]) -> PairChunk:
    chances = [p.no_answer_probability for p in pairs]
    return PairChunk(
        [p.id for p in pairs],
        [p.prediction for p in pairs],
        [list(p.targets) for p in pairs],
        None if chances[0] is None else [c for c in chances if c is not None],
    )


def per_item_text(ids: list[str], metrics: list[BoundMetric], parts: list[Part]) -> str:
    """One JSONL row per pair: ``id``, then each metric's value (in ``metrics`` order).

    ``parts`` holds one part per metric, first, as :func:`score_chunk` returns them.
    """
    lines = []
    for index, pair_id in enumerate(ids):
        row: dict[str, Any] = {"id": pair_id}
        for metric, (values, _) in zip(metrics, parts, strict=False):
            row[metric.spec.name] = values[index]
        lines.append(json.dumps(row, ensure_ascii=False) + "\n")
    return "".join(lines)


class FileScoring:
    """The tallies of one ``score --file`` run, fed chunk by chunk in file order.

    SQuAD v2 metrics also score their companion (EM for F1, F1 for EM) when the rows
    carry no-answer probabilities: the official script's figures need both.
    """

    def __init__(self, metrics: list[BoundMetric], interval: Interval, rows: Sink | None) -> None:
        """Start empty: one tally per metric (per-item statistics kept for an interval)."""
        keep = interval.confidence is not None
        self.metrics, self.interval, self.rows = metrics, interval, rows
        self.tallies = [Tally(m, keep_statistics=keep) for m in metrics]
        self.companions: dict[str, Tally] = {}  # by signature
        self.no_answer: NoAnswerTally | None = None

    def scored(self, first: PairChunk) -> list[BoundMetric]:
        """The metrics every chunk is scored with, decided by the file's first chunk.

        The asked metrics first, then the SQuAD v2 companions the threshold search needs.
        """
        if first.probabilities is not None and self.no_answer is None:
            self.no_answer = NoAnswerTally()
            asked = {m.signature for m in self.metrics}
            for metric in self.metrics:
                if metric.spec.name in SQUAD_V2:
                    other = squad_v2_companion(metric)
                    if other.signature not in asked:
                        self.companions.setdefault(other.signature, Tally(other))
        return self.metrics + [t.bound for t in self.companions.values()]

    def take(self, chunk: PairChunk, parts: list[Part]) -> None:
        """Add one scored chunk (its parts in the order of :meth:`scored`)."""
        for tally, part in zip([*self.tallies, *self.companions.values()], parts, strict=True):
            tally.add(part)
        if self.no_answer is not None and chunk.probabilities is not None:
            self.no_answer.add(chunk.predictions, chunk.targets, chunk.probabilities)
        if self.rows is not None:
            text = per_item_text(chunk.ids, self.metrics, parts)
            self.rows.write(text.encode("utf-8", "backslashreplace"))

    def entries(self) -> list[dict[str, Any]]:
        """Each asked metric's entry: value, SQuAD v2.0 details, interval.

        Raises:
            InvalidInputError: no pairs were taken.
        """
        tallies = {t.bound.signature: t for t in [*self.tallies, *self.companions.values()]}
        entries = []
        for metric, tally in zip(self.metrics, self.tallies, strict=True):
            details = None
            if self.no_answer is not None and metric.spec.name in SQUAD_V2:
                other = tallies[squad_v2_companion(metric).signature].values
                own = tally.values
                exact, f1 = (own, other) if metric.spec.name == "squad_v2.em" else (other, own)
                details = self.no_answer.details(exact, f1)
            result = tally.result(details)
            entries.append(score_entry(metric, result.value, result, self._interval(tally, result)))
        return entries

    def _interval(self, tally: Tally, result: StreamResult) -> BootstrapEstimate | None:
        interval = self.interval
        if interval.confidence is None:
            return None
        values = np.frombuffer(tally.values, dtype=float)
        return interval_of(
            tally.bound, values, None if result.is_mean else tally.statistics(),
            confidence=interval.confidence, seed=interval.seed, n_resamples=interval.resamples,
        )  # fmt: skip


def score_file(
    metrics: list[BoundMetric],
    pairs_file: Path,
    interval: Interval,
    *,
    rows: Sink | None = None,
    executor: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """Score every pair of the file with each metric; one JSON entry per metric.

    Args:
        metrics: the bound metrics, in output order.
        pairs_file: the pairs file (``-``: standard input).
        interval: ``--confidence``, ``--seed``, ``--resamples``.
        rows: where the per-item JSONL rows go as they are scored (``None``: nowhere).
        executor: a Dask executor (see :mod:`assay.parallel`) or ``None``.
        progress: ``(done, total)`` partitions, for ``executor`` runs.

    Raises:
        InputFileError: a bad row (file, line, field) or an empty file.
    """
    scoring = FileScoring(metrics, interval, rows)
    if executor is None:
        for chunk in pair_chunks(read_pairs(pairs_file, hashed_ids=True), CHUNK):
            scored = scoring.scored(chunk)
            scoring.take(chunk, score_chunk(scored, chunk.predictions, chunk.targets))
        return scoring.entries()
    # raises on an empty file; the partition size is read now, so a set CHUNK_ITEMS counts
    every = list(pair_chunks(read_pairs(pairs_file), assay.api.CHUNK_ITEMS))
    task = ChunkTask(scoring.scored(every[0]))
    with executor_for(executor) as runner:
        parts = runner.map(task, [(c.predictions, c.targets) for c in every], progress=progress)
    for chunk, chunk_parts in zip(every, parts, strict=True):
        scoring.take(chunk, chunk_parts)
    return scoring.entries()

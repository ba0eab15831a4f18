"""``assay score --file``: a pairs file scored in chunks, never held whole.

In this process the file is read and scored :data:`~assay.metrics.stream.CHUNK`
pairs at a time: each chunk is scored with every metric by
:func:`~assay.metrics.stream.score_chunk`, its per-item JSONL rows are written at
once (``--per-item``), and one :class:`~assay.metrics.stream.Tally` per metric keeps
what the corpus value needs (8-byte values; running sums of statistics, and the
per-item statistics only for ``--confidence`` on a corpus metric). Pair ids are
checked for repeats with 8 bytes each (:class:`assay.io.idset.HashedIds`).

With ``--dask`` the client never holds all pairs:

* a plain ``.jsonl`` file larger than :data:`~assay.io.blocks.BLOCK_BYTES` is cut
  into byte-range blocks (:mod:`assay.io.blocks`; a first pass numbers their
  lines), and each block is read, checked and scored on a worker by
  :class:`~assay.metrics.stream.BlockTask`, which sends back ids, lines and
  per-item values, no text;
* any other input (a smaller file, CSV/TSV, compressed, standard input) is read on
  the client in chunks of :data:`~assay.api.CHUNK_ITEMS`, scored on the cluster by
  :class:`~assay.metrics.stream.ChunkTask`, a few chunks in flight at a time.

Either way the results come back in file order, and the client checks ids and
no-answer probabilities row by row and feeds the same tallies
(:meth:`FileScoring.take_rows`) as in process: the numbers, files and the first
error (file, line, field) are the same as in process.
"""

from __future__ import annotations

import itertools
import json
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import assay.api
from assay.cli.score_output import Interval, score_entry
from assay.errors import InputFileError
from assay.io import blocks
from assay.io.idset import HashedIds
from assay.io.output import Sink
from assay.io.pairs import Pair, read_pairs, refuse_repeat
from assay.metrics.base import BoundMetric
from assay.metrics.corpus import Part
from assay.metrics.interval import interval_of
from assay.metrics.stream import (
    CHUNK,
    SQUAD_V2,
    BlockTask,
    ChunkTask,
    NoAnswerFlags,
    NoAnswerTally,
    StreamResult,
    Tally,
    no_answer_flags,
    poisson_scores,
    poisson_sums,
    score_chunk,
    squad_v2_companion,
)
from assay.parallel import Executor, executor_for, seen_from_client
from assay.stats.bootstrap import BootstrapEstimate
from assay.stats.poisson_bootstrap import PoissonSums, poisson_interval


@dataclass(frozen=True, slots=True)
class PairChunk:
    """Consecutive pairs of a file: ids, predictions, targets (and no-answer chances)."""

    ids: list[str]
    predictions: list[str]
    targets: list[list[str]]
    probabilities: list[float] | None
    lines: list[int]


Place = tuple[str, int, bool]
"""A row's file, line and whether it gives a ``no_answer_probability``."""


def check_chance(first: Place, row: Place) -> None:
    """Refuse ``row`` if it gives a no-answer probability and the first row not, or back.

    Raises:
        InputFileError: naming the first of the two rows without one.
    """
    if first[2] != row[2]:
        path, line, _ = row if not row[2] else first
        raise InputFileError(
            path,
            "missing while other rows give one; give every row a no_answer_probability or none",
            line=line,
            field="no_answer_probability",
        )


def pair_chunks(pairs: Iterable[Pair], size: int) -> Iterator[PairChunk]:
    """The pairs in chunks of ``size``, checked as they go.

    ``no_answer_probability`` must be given on every row or on none.

    Raises:
        InputFileError: a row without it while another has it (naming the first row
            without it), or the reader's own errors.
    """
    first: Place | None = None
    chunk: list[Pair] = []
    for pair in pairs:
        place = (pair.path, pair.line, pair.no_answer_probability is not None)
        if first is None:
            first = place
        else:
            check_chance(first, place)
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
        [p.line for p in pairs],
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
        """Start empty: one tally per metric (per-item statistics kept for an interval).

        With ``--bootstrap poisson`` no per-item statistics are kept: each metric has
        a :class:`~assay.stats.poisson_bootstrap.PoissonSums` instead, fed per partition.
        """
        poisson = interval.confidence is not None and interval.bootstrap == "poisson"
        keep = interval.confidence is not None and not poisson
        self.metrics, self.interval, self.rows = metrics, interval, rows
        self.tallies = [Tally(m, keep_statistics=keep) for m in metrics]
        self.companions: dict[str, Tally] = {}  # by signature
        self.no_answer: NoAnswerTally | None = None
        self.poisson = [PoissonSums(interval.seed, interval.resamples) for _ in metrics] if (
            poisson
        ) else None  # fmt: skip

    def with_chances(self) -> list[BoundMetric]:
        """The metrics of rows with no-answer probabilities.

        The asked ones first, then the SQuAD v2 companions the threshold search needs.
        """
        asked = {m.signature for m in self.metrics}
        extra: dict[str, BoundMetric] = {}
        for metric in self.metrics:
            if metric.spec.name in SQUAD_V2:
                other = squad_v2_companion(metric)
                if other.signature not in asked:
                    extra.setdefault(other.signature, other)
        return self.metrics + list(extra.values())

    def scored(self, chances: bool) -> list[BoundMetric]:
        """The metrics every chunk is scored with, decided by the file's first row.

        ``chances``: whether it gives a no-answer probability (see :meth:`with_chances`).
        """
        if chances and self.no_answer is None:
            self.no_answer = NoAnswerTally()
            for other in self.with_chances()[len(self.metrics) :]:
                self.companions[other.signature] = Tally(other)
        return self.metrics + [t.bound for t in self.companions.values()]

    def take(self, chunk: PairChunk, parts: list[Part]) -> None:
        """Add one scored chunk (its parts in the order of :meth:`scored`)."""
        flags = None
        if chunk.probabilities is not None:
            flags = no_answer_flags(chunk.predictions, chunk.targets, chunk.probabilities)
        if self.poisson is not None:
            sums = poisson_sums(self.metrics, chunk.lines, parts, self.interval)
            for total, part_sums in zip(self.poisson, sums, strict=True):
                total.merge(part_sums)
        self.take_rows(chunk.ids, parts, flags)

    def take_rows(self, ids: list[str], parts: list[Part], flags: NoAnswerFlags | None,
                  poisson: list[PoissonSums] | None = None) -> None:  # fmt: skip
        """Add the next scored rows: ids, parts, no-answer flags (and Poisson sums)."""
        for tally, part in zip([*self.tallies, *self.companions.values()], parts, strict=True):
            tally.add(part)
        if self.poisson is not None and poisson is not None:
            for total, part_sums in zip(self.poisson, poisson, strict=True):
                total.merge(part_sums)
        if self.no_answer is not None and flags is not None:
            self.no_answer.add_flags(flags)
        if self.rows is not None:
            text = per_item_text(ids, self.metrics, parts)
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
        if self.poisson is not None:
            sums = self.poisson[self.tallies.index(tally)]
            return poisson_interval(sums, result.value, poisson_scores(tally.bound, sums),
                                    interval.confidence)  # fmt: skip
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
    counted: Callable[[int], None] | None = None,
) -> list[dict[str, Any]]:
    """Score every pair of the file with each metric; one JSON entry per metric.

    Args:
        metrics: the bound metrics, in output order.
        pairs_file: the pairs file (``-``: standard input).
        interval: ``--confidence``, ``--seed``, ``--resamples``.
        rows: where the per-item JSONL rows go as they are scored (``None``: nowhere).
        executor: a Dask executor (see :mod:`assay.parallel`) or ``None``.
        progress: ``(done, total)`` partitions, for ``executor`` runs.
        counted: called with the number of pairs scored so far after each chunk
            (local runs).

    Raises:
        InputFileError: a bad row (file, line, field) or an empty file.
    """
    scoring = FileScoring(metrics, interval, rows)
    if executor is None:
        done = 0
        for chunk in pair_chunks(read_pairs(pairs_file, hashed_ids=True), CHUNK):
            scored = scoring.scored(chunk.probabilities is not None)
            scoring.take(chunk, score_chunk(scored, chunk.predictions, chunk.targets))
            done += len(chunk.ids)
            if counted is not None:
                counted(done)
        return scoring.entries()
    with executor_for(executor) as runner:
        name = str(pairs_file)
        if runner.distributed and blocks.splittable(name):
            size = os.path.getsize(name)
            if size > blocks.BLOCK_BYTES:  # read at call time, so a set BLOCK_BYTES counts
                _score_blocks(scoring, runner, name, size, progress)
                return scoring.entries()
        _score_chunks(scoring, runner, pairs_file, progress)
    return scoring.entries()


def _score_chunks(
    scoring: FileScoring, runner: Executor, pairs_file: Path,
    progress: Callable[[int, int], None] | None,
) -> None:  # fmt: skip
    """Read the pairs here, a chunk at a time; score the chunks on the cluster, in order.

    The total in ``progress`` counts the chunks read so far (the file is not read ahead).
    """
    # the partition size is read now, so a set CHUNK_ITEMS counts
    chunks = pair_chunks(read_pairs(pairs_file, hashed_ids=True), assay.api.CHUNK_ITEMS)
    first = next(chunks)  # an empty file raises the local error here
    task = ChunkTask(scoring.scored(first.probabilities is not None))  # the first row decides
    kept: deque[PairChunk] = deque()

    def sent() -> Iterator[tuple[list[str], list[list[str]]]]:
        for chunk in itertools.chain([first], chunks):
            kept.append(chunk)
            yield chunk.predictions, chunk.targets

    for done, parts in enumerate(runner.stream(task, sent()), 1):
        scoring.take(kept.popleft(), parts)
        if progress is not None:
            progress(done, done + len(kept))


def _score_blocks(
    scoring: FileScoring, runner: Executor, path: str, size: int,
    progress: Callable[[int, int], None] | None,
) -> None:  # fmt: skip
    """Read and score the file's blocks on the workers; check and take them here, in order."""
    cwd = os.getcwd()
    plan = blocks.plan_blocks(path, size, blocks.BLOCK_BYTES)
    plan = blocks.numbered(plan, runner.map(blocks.CountTask(cwd), plan))
    interval = scoring.interval
    poisson = None if scoring.poisson is None else (interval.seed, interval.resamples)
    task = BlockTask(scoring.metrics, scoring.with_chances(), cwd, poisson)
    ids, first = HashedIds(), None
    for done, block in enumerate(runner.stream(task, plan), 1):
        for pair_id, line, chance in zip(block.ids, block.lines, block.chances, strict=True):
            if not ids.add(pair_id):
                refuse_repeat(path, path, pair_id, line)
            place = (path, line, chance is not None)
            first = first or place
            check_chance(first, place)
        if block.error is not None:
            if block.pending is not None and not ids.add(block.pending[0]):
                refuse_repeat(path, path, *block.pending)
            raise seen_from_client(block.error)
        if block.ids:
            scoring.scored(first is not None and first[2])
            scoring.take_rows(block.ids, block.parts, block.flags, block.poisson)
        if progress is not None:
            progress(done, len(plan))
    if first is None:
        list(read_pairs(path))  # raises the local run's error for a file without rows

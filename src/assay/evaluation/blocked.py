"""Large prediction files on a Dask cluster: read in byte-range blocks, aligned exactly.

A system whose plain ``.jsonl`` prediction file is larger than
:data:`~assay.io.blocks.BLOCK_BYTES` is not one partition but one per block
(:mod:`assay.io.blocks`): many workers parse one file at once, and each holds
one block's rows at a time. Line numbers stay exact (a first pass counts each
block's line ends). A block sends back its rows in file order, with the text of
a row whose id is not a gold id dropped (only its id and place are needed); the
client streams those rows, block by block, through the same :func:`align` as a
local run, so duplicates across blocks, extra-id counts, ``--duplicates reject``
and every error (raised where the whole-file read would raise it) are
identical. The alignment (one row per gold id) is then scored on a worker.

The client never holds the predictions: one block's rows of gold ids and ids at
a time, plus the alignment. The blocks are read a few at a time, once per pass of
the aligner (a second pass only when extra ids repeat a 32-bit hash), so a
worker holds a few blocks' rows, whatever the file's size.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from assay.errors import InputFileError
from assay.evaluation.align import align
from assay.evaluation.benchmark import SystemResult, evaluate_alignment
from assay.evaluation.coverage import check_coverage
from assay.evaluation.profiles import Prepared, get_profile
from assay.io import blocks
from assay.io.blocks import Block
from assay.io.gold import GoldQuestion
from assay.io.oddities import Oddities
from assay.io.predictions import PredictionRow, field_checked, iter_predictions
from assay.io.sources import display_name
from assay.parallel import Executor, seen_from_client, working_directory

Context = tuple[Sequence[GoldQuestion], Sequence[Prepared], Any]


@dataclass(frozen=True, slots=True)
class FilePart:
    """One partition of a system's predictions: a block of a file, or a whole file."""

    path: str
    block: Block | None = None


def plan_parts(files: Sequence[str], block_bytes: int) -> list[list[FilePart]] | None:
    """Each file's parts, or ``None`` when no file is large enough to be cut."""
    sizes = [os.path.getsize(f) if blocks.splittable(f) else 0 for f in files]
    if not any(size > block_bytes for size in sizes):
        return None
    return [
        [FilePart(f, b) for b in blocks.plan_blocks(f, size, block_bytes)]
        if size > block_bytes
        else [FilePart(f)]
        for f, size in zip(files, sizes, strict=True)
    ]


Scan = tuple[Iterable[PredictionRow], Exception | None, Oddities]


@dataclass(frozen=True, slots=True)
class _ReadTask:
    """Read one part on a worker: its rows (extra-id text dropped), its error, its oddities."""

    profile: str
    field: str | None
    cwd: str

    def __call__(self, part: FilePart, gold_ids: frozenset[str]) -> Scan:
        seen = Oddities()
        released = seen if get_profile(self.profile).reads_as_released else None
        with working_directory(self.cwd):
            if part.block is not None:
                cut, failed = blocks.read_block_rows(part.block, self.field, gold_ids, released)
                return cut, failed, seen
            rows: list[PredictionRow] = []
            try:
                for row in iter_predictions(part.path, self.field, released=released):
                    rows.append(row if row.id in gold_ids else _bare(row))
            except InputFileError as error:  # raised again where the local read raises it
                return rows, error, seen
        return rows, None, seen


def _bare(row: PredictionRow) -> PredictionRow:
    return PredictionRow(row.id, "", row.status, row.field, row.path, row.line, row.key)


@dataclass(frozen=True, slots=True)
class _ScoreTask:
    profile: str
    ignore_missing: bool

    def __call__(self, name: str, files: tuple[str, ...], alignment: Any, context: Context) -> Any:
        _, prepared, layout = context
        return evaluate_alignment(
            get_profile(self.profile), prepared, alignment, system=name,
            prediction_files=files, ignore_missing=self.ignore_missing, layout=layout,
        )  # fmt: skip


def number_blocks(runner: Executor, plans: Iterable[list[list[FilePart]]], cwd: str) -> None:
    """Give every block its first line numbers (the first, cheap pass), in place."""
    for plan in plans:
        for parts in plan:
            cut = [p.block for p in parts if p.block is not None]
            if not cut:
                continue
            counts = runner.map(blocks.CountTask(cwd), cut)
            parts[:] = [
                FilePart(p.path, b)
                for p, b in zip(parts, blocks.numbered(cut, counts), strict=True)
            ]


@dataclass
class BlockedSystem:
    """A system read in parts: its plan, then its scoring handle."""

    name: str
    files: tuple[str, ...]
    plan: list[list[FilePart]]
    score: Any = None


@dataclass(frozen=True, slots=True)
class _Reading:
    """How a system's parts are read: the task, the shared gold ids, the progress callback."""

    task: _ReadTask
    gold_ids: Any
    done: Callable[[], None]


def align_and_score(
    runner: Executor,
    system: BlockedSystem,
    gold: Sequence[GoldQuestion],
    context: Any,
    options: tuple[str, str | None, str, bool],
    reading: _Reading,
) -> tuple[Oddities, list[str]]:
    """Align a system from its parts on the client, then submit its scoring.

    The parts are read on the workers a few at a time (:meth:`Executor.stream`), once
    per pass of :func:`align` (a second pass only when extra ids repeat a hash), so a
    worker holds a few blocks' rows, whatever the file's size. Returns the system's
    oddities (released reading) and coverage warnings; the scoring handle is left on
    ``system.score``.

    Raises:
        InputFileError: the first input error of the stream, as a local run raises it.
    """
    profile, field, policy, ignore_missing = options
    chosen = get_profile(profile)
    seen = Oddities()
    released = seen if chosen.reads_as_released else None
    passes = [0]

    def rows() -> Iterator[PredictionRow]:
        passes[0] += 1
        done = reading.done if passes[0] == 1 else None  # each part counted once
        for parts in system.plan:
            scans = runner.stream(reading.task, parts, reading.gold_ids)
            try:
                stream = _part_rows(scans, seen, done)
                if parts[0].block is not None:  # whole-file parts check their own field
                    stream = field_checked(stream, display_name(parts[0].path), field, released)
                yield from stream
            finally:  # cancel the reads in flight now, not when a raised error is collected
                scans.close()

    alignment = align(gold, system.files, prediction_field=field, duplicate_policy=policy,
                      released=released, reread=rows)  # fmt: skip
    coverage = check_coverage(system.name, system.files, gold, alignment,
                              strict=not chosen.reads_as_released,
                              prediction_field=field,
                              ignore_missing=ignore_missing)  # fmt: skip
    system.score = runner.submit(
        _ScoreTask(profile, ignore_missing), system.name, system.files, alignment, context
    )
    return seen, coverage


def _part_rows(
    scans: Iterable[Scan], seen: Oddities, done: Callable[[], None] | None
) -> Iterator[PredictionRow]:
    """The rows of one file's parts in order; a part's error is raised after its rows."""
    for rows, error, notes in scans:
        seen.merge(notes)  # as a second local pass notes again, so does this one
        if done is not None:
            done()
        yield from rows
        if error is not None:
            raise seen_from_client(error)


def result_of(system: BlockedSystem) -> SystemResult:
    """The scored system (waits for its scoring task)."""
    result: SystemResult = system.score.result()
    return result


def score_systems(
    runner: Executor,
    task: Any,
    systems: Sequence[Any],
    context: Any,
    gold: Sequence[GoldQuestion],
    progress: Callable[[int, int], None],
) -> list[tuple[SystemResult, Oddities, list[str]]]:
    """Score every system on ``runner``: a system with a large file in blocks, others whole.

    ``task`` is the whole-system task (``runs._SystemTask``); its options serve the
    blocked systems too. Results and the first error come in system order.
    """
    plans = [
        plan_parts(s.files, blocks.BLOCK_BYTES) if runner.distributed and s.records is None
        else None
        for s in systems
    ]  # fmt: skip
    if not any(plans):
        return runner.map(task, list(systems), context, progress=progress)
    number_blocks(runner, (p for p in plans if p is not None), task.cwd)
    gold_ids = runner.share(frozenset(q.id for q in gold))
    reader = _ReadTask(task.profile, task.prediction_field, task.cwd)
    total = sum(1 if p is None else sum(map(len, p)) for p in plans)
    finished = [0]

    def done() -> None:
        finished[0] += 1
        progress(finished[0], total)

    started = [
        runner.submit(task, s, context) if p is None else BlockedSystem(s.name, s.files, p)
        for s, p in zip(systems, plans, strict=True)
    ]  # fmt: skip
    options = (task.profile, task.prediction_field, task.duplicate_policy, task.ignore_missing)
    try:
        return _collect(runner, started, gold, context, options, _Reading(reader, gold_ids, done))
    finally:
        runner.cancel([h for h in started if not isinstance(h, BlockedSystem)])


def _collect(
    runner: Executor, started: list[Any], gold: Sequence[GoldQuestion], context: Any,
    options: tuple[str, str | None, str, bool], reading: _Reading,
) -> list[tuple[SystemResult, Oddities, list[str]]]:  # fmt: skip
    """Wait for each system in order (aligning blocked ones here), then gather the scores."""
    found: list[Any] = []
    for handle in started:
        if isinstance(handle, BlockedSystem):
            aligned = align_and_score(runner, handle, gold, context, options, reading)
            found.append((handle, *aligned))
        else:
            try:
                found.append(handle.result())
            except Exception as error:  # the worker's error, as the client states it
                raise seen_from_client(error) from None
            reading.done()
    return [
        (result_of(item[0]), item[1], item[2]) if isinstance(item[0], BlockedSystem) else item
        for item in found
    ]

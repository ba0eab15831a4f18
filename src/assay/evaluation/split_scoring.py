"""Score a run's systems in two processes: this one and a background one (the second core).

``assay eval`` scores many systems one after another in one process while the machine's
second core idles. :func:`score_split` cuts the systems in two (by prediction file size,
so each side reads about half the bytes); a background process (the CLI's forked child,
:func:`assay.cli.forked.in_child`) scores the later part while this process scores the
earlier one. The background part comes back packed (:func:`pack`): each system's result
without its questions, plus the per-prediction values of its questions as plain columns;
every gold-side field is taken again from this process's own prepared gold
(:func:`unpack`), so a few lists of strings and floats cross the pipe instead of one
object per question (pickling those costs about as much as scoring them). The rebuilt
results equal those of scoring every system here, and the first error in system order is
raised, as in one process.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Sequence
from typing import Any

from assay.evaluation.benchmark import QuestionResult, SystemResult, question_of
from assay.evaluation.profiles import Prepared
from assay.io.oddities import Oddities

Scored = tuple[SystemResult, Oddities, list[str]]
Background = Callable[[Callable[[], Any]], Callable[[], Any]]
"""Starts a task elsewhere; the function it returns waits for the task's return value."""

MIN_QUESTIONS = 4000
"""Fewer scored questions in all (gold x systems) than this: no split (a fork costs more)."""


def cut_point(sizes: Sequence[int], lead: int = 0) -> int:
    """Where to cut systems of these sizes: the first index of the later part (1..n-1).

    The earlier part is the shortest prefix holding at least half of the total size
    less ``lead`` (this process's other work while the later part is scored, in
    prediction bytes' worth of scoring).
    """
    total = sum(sizes) - lead
    held = 0
    for index, size in enumerate(sizes[:-1], 1):
        held += size
        if 2 * held >= total:
            return index
    return len(sizes) - 1


def system_sizes(systems: Sequence[Any]) -> list[int]:
    """Each system's prediction bytes (its files' sizes; 1 for in-memory records)."""
    sizes = []
    for system in systems:
        try:
            size = sum(os.path.getsize(f) for f in system.files) if system.records is None else 1
        except OSError:  # an unreadable file fails in scoring, with its own message
            size = 1
        sizes.append(max(size, 1))
    return sizes


def score_split(
    score: Callable[[Sequence[Any], bool], list[Scored]],
    systems: Sequence[Any],
    prepared: Sequence[Prepared],
    background: Background,
    finished: Callable[[int], None],
    lead: int = 0,
) -> list[Scored]:
    """``score(systems, True)``, with the later systems scored by ``background``.

    ``score(part, here)`` scores a list of systems in order (raising the first error);
    ``here`` is false for the background part (it reports no progress). The
    background part's error is raised only after the earlier part is scored here
    (its own first error wins, as in one process). ``finished(done)`` is called with
    the 1-based position of each background system once it is back. ``lead``: see
    :func:`cut_point`.
    """
    cut = cut_point(system_sizes(systems), lead)
    later = systems[cut:]

    def task() -> tuple[bool, Any]:
        try:
            return True, [pack(item, prepared) for item in score(later, False)]
        except Exception as error:  # raised by this process after the earlier part
            return False, error

    wait = background(task)
    try:
        earlier = score(systems[:cut], True)
    finally:
        ok, value = wait()  # always reap the background process
    if not ok:
        raise value
    for done in range(cut + 1, len(systems) + 1):
        finished(done)
    return earlier + [unpack(item, prepared) for item in value]


Packed = tuple[SystemResult, tuple[list[Any], ...], Oddities, list[str]]


def pack(item: Scored, prepared: Sequence[Prepared]) -> Packed:
    """One scored system as its question-less result plus its questions' own columns.

    The columns are, per question: the index of its gold question in ``prepared``,
    the scored text, status, raw text, released status, bucket and the three scores.
    """
    result, seen, coverage = item
    index: list[int] = []
    at = 0
    for question in result.questions:  # in gold order, some gold questions maybe skipped
        while prepared[at].question.id is not question.question_id:
            at += 1
        index.append(at)
        at += 1
    questions = result.questions
    released = [q.released_row[1] if q.released_row is not None else None for q in questions]
    columns = (
        index,
        [q.prediction for q in questions],
        [q.status for q in questions],
        [q.raw_prediction for q in questions],
        released,
        [q.bucket for q in questions],
        [q.accuracy for q in questions],
        [q.token_f1 for q in questions],
        [q.anls for q in questions],
    )
    return dataclasses.replace(result, questions=()), columns, seen, coverage


def unpack(item: Packed, prepared: Sequence[Prepared]) -> Scored:
    """The scored system :func:`pack` packed, its questions rebuilt from ``prepared``."""
    result, columns, seen, coverage = item
    index, *values = columns
    questions: tuple[QuestionResult, ...] = tuple(
        question_of(prepared[at], *row) for at, *row in zip(index, *values, strict=True)
    )
    return dataclasses.replace(result, questions=questions), seen, coverage

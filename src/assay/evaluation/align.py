"""Join gold questions and one system's predictions by id; every question in one bucket.

Buckets (each gold question lands in exactly one):

=====================  ==========================================================
``scored``             a prediction with non-blank text and a normal status
``empty``              a prediction whose text is empty or blank (scored as "")
``status_substituted`` status ``context_overflow``/``vision_unsupported``: scored
                       as ``CONTEXT_OVERFLOW``
``missing``            no prediction: scored as "" (status ``missing``), or skipped
                       under ``ignore_missing`` (still counted here)
=====================  ==========================================================

Prediction files are streamed; only rows whose id is a gold id are kept, and an id
not in gold leaves only a 4-byte hash, so memory grows with the gold set, not
with the prediction files. Prediction ids not
in gold are counted as extra. Duplicates follow an explicit policy: ``last-wins``
(a later row replaces an earlier one; reported) or ``reject`` (an error naming
both places).
"""

from __future__ import annotations

import heapq
from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from assay.errors import AccountingError, InputFileError, InvalidOptionError
from assay.evaluation.profiles import DUPLICATE_POLICIES, SUBSTITUTED_STATUSES
from assay.io.gold import GoldQuestion
from assay.io.oddities import Oddities
from assay.io.predictions import PredictionRow, iter_predictions

BUCKETS = ("scored", "empty", "status_substituted", "missing")


@dataclass(frozen=True, slots=True)
class Duplicate:
    """A prediction id seen more than once, with every place it was seen."""

    id: str
    locations: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        """The canonical JSON form."""
        return {"id": self.id, "locations": list(self.locations)}


@dataclass(frozen=True, slots=True)
class Alignment:
    """Gold questions paired with their (last) prediction, plus the counts around them."""

    pairs: tuple[tuple[GoldQuestion, PredictionRow | None], ...]
    prediction_count: int
    extra_count: int
    duplicates: tuple[Duplicate, ...]
    extra_examples: tuple[str, ...] = ()

    @property
    def matched_count(self) -> int:
        """Gold questions that have a prediction row."""
        return sum(1 for _, row in self.pairs if row is not None)


def bucket_of(row: PredictionRow | None) -> str:
    """The accounting bucket of a gold question given its prediction row."""
    if row is None:
        return "missing"
    if row.status in SUBSTITUTED_STATUSES:
        return "status_substituted"
    return "scored" if row.text.strip() else "empty"


def _stream(
    files: Sequence[str | Path], field: str | None, released: Oddities | None
) -> Iterable[PredictionRow]:
    for path in files:
        yield from iter_predictions(path, field, released=released)


def align(
    gold: Sequence[GoldQuestion],
    prediction_files: Sequence[str | Path],
    *,
    prediction_field: str | None = None,
    duplicate_policy: str = "last-wins",
    released: Oddities | None = None,
    rows: Iterable[PredictionRow] | None = None,
    reread: Callable[[], Iterable[PredictionRow]] | None = None,
) -> Alignment:
    """Stream prediction files and pair each gold question with its prediction.

    ``released``: read the files as the released XL-DocBench evaluator does, noting
    oddities there (see :func:`assay.io.predictions.iter_predictions`). ``rows``:
    prediction rows already read (in-memory records), used instead of the files.
    ``reread``: a function giving the files' rows afresh each call (blocks read on
    Dask workers, :mod:`assay.evaluation.blocked`), used instead of the files.

    Memory is flat in the number of prediction rows: one entry per gold id, and for
    an id not in gold only a 32-bit hash (4 bytes), enough to count distinct extra
    ids. If two extra ids share a hash (a repeated extra id, or a hash collision)
    the files are read a second time, recording the exact ids of those hashes only,
    so counts, duplicates and errors never depend on hashing. That second read notes
    nothing in ``released``: each oddity is counted once, as read once.

    Raises:
        InvalidOptionError: an unknown duplicate policy.
        InputFileError: unreadable predictions, or a duplicate id under ``reject``.
    """
    if duplicate_policy not in DUPLICATE_POLICIES:
        raise InvalidOptionError(
            f"unknown duplicate policy {duplicate_policy!r}; use one of "
            f"{', '.join(DUPLICATE_POLICIES)}"
        )
    gold_ids = {q.id for q in gold}
    records = None if rows is None else list(rows)  # in memory already; may be read twice

    def source() -> Iterable[PredictionRow]:
        if records is not None:
            return records
        if reread is not None:
            return reread()
        return _stream(prediction_files, prediction_field, released)

    kept, repeats, count, extra, examples = _read(gold_ids, source, duplicate_policy, released)
    duplicates = tuple(Duplicate(k, tuple(v)) for k, v in repeats.items())
    pairs = tuple((q, kept.get(q.id)) for q in gold)
    return Alignment(pairs, count, extra, duplicates, examples)


_HASH_MASK = 0xFFFFFFFF
_SORT_CHUNK = 1 << 15


def _duplicate_error(row: PredictionRow, first: str) -> InputFileError:
    return InputFileError(
        row.path,
        f"duplicate prediction id {row.id!r} (first at {first}); remove one, "
        "or pass --duplicates last-wins to keep the later row",
        line=row.line,
        field="id",
    )


def _read(
    gold_ids: set[str],
    rows: Callable[[], Iterable[PredictionRow]],
    policy: str,
    released: Oddities | None = None,
) -> tuple[dict[str, PredictionRow], dict[str, list[str]], int, int, tuple[str, ...]]:
    """``(kept rows, repeated ids with places, distinct ids, distinct extras, 3 extra ids)``.

    First pass: gold ids exactly; an extra id leaves a 32-bit hash (4 bytes). Extra
    hashes that occur twice (a repeated id or a collision) are resolved by a second
    pass that records exact ids for those hashes only; what that pass notes in
    ``released`` is taken back (the first pass noted it already).
    """
    kept: dict[str, PredictionRow] = {}
    first_rows: dict[str, PredictionRow] = {}  # gold id -> its first row
    repeats: dict[str, tuple[int, list[str]]] = {}  # id -> (row index of first repeat, places)
    hashes = array("I")
    examples: list[str] = []
    stop = stopped = None
    mask, add_hash = _HASH_MASK, hashes.append
    for index, row in enumerate(rows()):
        qid = row.id
        if qid not in gold_ids:
            add_hash(hash(qid) & mask)
            if len(examples) < 3 and qid not in examples:
                examples.append(qid)  # the first distinct extra ids, in file order
            continue
        first = first_rows.setdefault(qid, row)
        if first is not row:
            if policy == "reject":
                if not _repeated(hashes):
                    raise _duplicate_error(row, first.location)
                stop, stopped = index, row  # an earlier extra id may repeat first: the
                break  # second pass decides
            if qid in repeats:
                repeats[qid][1].append(row.location)
            else:
                repeats[qid] = (index, [first.location, row.location])
        kept[qid] = row
    colliding = _repeated(hashes)
    extra = len(hashes)
    if colliding:
        noted = None if released is None else released.snapshot()
        try:
            extra += _resolve(colliding, gold_ids, rows, policy, stop, repeats)
        finally:
            if released is not None and noted is not None:
                released.restore(noted)
    if stopped is not None:  # no extra id repeated before the gold duplicate
        raise _duplicate_error(stopped, first_rows[stopped.id].location)
    ordered = sorted(repeats.items(), key=lambda item: item[1][0])
    places = {k: v for k, (_, v) in ordered}
    return kept, places, len(first_rows) + extra, extra, tuple(examples)


def _resolve(
    colliding: set[int],
    gold_ids: set[str],
    rows: Callable[[], Iterable[PredictionRow]],
    policy: str,
    stop: int | None,
    repeats: dict[str, tuple[int, list[str]]],
) -> int:
    """Second pass over extra ids whose hash repeats; return the correction to the count.

    Adds the repeated extra ids to ``repeats`` (raising under ``reject``); the count
    correction is (distinct ids) - (rows) among the rows with a colliding hash.
    """
    first_seen: dict[str, str] = {}
    rows_seen = 0
    for index, row in enumerate(rows()):
        if stop is not None and index >= stop:
            break
        if row.id in gold_ids or hash(row.id) & _HASH_MASK not in colliding:
            continue
        rows_seen += 1
        location = row.location
        first = first_seen.setdefault(row.id, location)
        if first is location:
            continue
        if policy == "reject":
            raise _duplicate_error(row, first)
        if row.id in repeats:
            repeats[row.id][1].append(location)
        else:
            repeats[row.id] = (index, [first, location])
    return len(first_seen) - rows_seen


def _repeated(hashes: array[int]) -> set[int]:
    """The values that occur more than once, found without a second copy of the array.

    Sorts chunks in place, then merges the sorted chunks (memory: one chunk).
    """
    if len(hashes) < 2:
        return set()
    starts = range(0, len(hashes), _SORT_CHUNK)
    for start in starts:
        stop = start + _SORT_CHUNK
        hashes[start:stop] = array("I", sorted(hashes[start:stop]))
    view = memoryview(hashes)
    merged = heapq.merge(*(view[start : start + _SORT_CHUNK] for start in starts))
    found: set[int] = set()
    previous = None
    for value in merged:
        if value == previous:
            found.add(value)
        previous = value
    return found


def check_accounting(buckets: dict[str, int], total: int) -> None:
    """Enforce ``total = Σ buckets``.

    Raises:
        AccountingError: the buckets do not sum to the total.
    """
    if sum(buckets.values()) != total:
        raise AccountingError(
            f"accounting identity failed: buckets {buckets} sum to {sum(buckets.values())}, "
            f"not to the {total} gold questions; this is a bug in assay, please report it"
        )

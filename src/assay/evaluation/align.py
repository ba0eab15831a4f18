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

Prediction files are streamed; only rows whose id is a gold id are kept, so
memory grows with the gold set, not with the prediction files. Prediction ids not
in gold are counted as extra. Duplicates follow an explicit policy: ``last-wins``
(a later row replaces an earlier one; reported) or ``reject`` (an error naming
both places).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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
) -> Alignment:
    """Stream prediction files and pair each gold question with its prediction.

    ``released``: read the files as the released XL-DocBench evaluator does, noting
    oddities there (see :func:`assay.io.predictions.iter_predictions`). ``rows``:
    prediction rows already read (in-memory records), used instead of the files.

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
    kept: dict[str, PredictionRow] = {}
    first_seen: dict[str, str] = {}
    repeats: dict[str, list[str]] = {}
    if rows is None:
        rows = _stream(prediction_files, prediction_field, released)
    for row in rows:
        location = row.location
        first = first_seen.setdefault(row.id, location)
        if first is not location:
            if duplicate_policy == "reject":
                raise InputFileError(
                    row.path,
                    f"duplicate prediction id {row.id!r} (first at {first}); remove one, "
                    "or pass --duplicates last-wins to keep the later row",
                    line=row.line,
                    field="id",
                )
            repeats.setdefault(row.id, [first]).append(location)
        if row.id in gold_ids:
            kept[row.id] = row
    duplicates = tuple(Duplicate(k, tuple(v)) for k, v in repeats.items())
    extras = [i for i in first_seen if i not in gold_ids]  # file order
    pairs = tuple((q, kept.get(q.id)) for q in gold)
    return Alignment(pairs, len(first_seen), len(extras), duplicates, tuple(extras[:3]))


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

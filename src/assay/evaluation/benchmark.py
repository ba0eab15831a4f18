"""Benchmark evaluation of one system: align, score, aggregate, account.

The :class:`SystemResult` is the single source of truth every renderer reads.
Aggregates are means of unrounded per-question values (an empty bucket gives 0.0);
rounding happens only in renderers. Breakdown labels are sorted by plain string
order; one question counts once in each evidence source it lists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter
from pathlib import Path
from typing import Any

from assay.evaluation.align import BUCKETS, Alignment, Duplicate, bucket_of, check_accounting
from assay.evaluation.profiles import SUBSTITUTE_TEXT, Prepared, Profile
from assay.io.gold import GoldQuestion
from assay.io.predictions import PredictionRow
from assay.records import builder

DIMENSIONS = (
    "split",
    "domain",
    "reasoning_type",
    "answer_format",
    "difficulty",
    "doc_type",
    "evidence_source",
)
PER_QUESTION_FIELDS = (
    "question_id",
    "prediction",
    "gold_answer",
    "answer_format",
    "status",
    "accuracy",
    "token_f1",
    "anls",
    "split",
    "domain",
    "reasoning_type",
)


RELEASED_ROW_FIELDS = ("answer_format", "status", "split", "domain", "reasoning_type")


@dataclass(frozen=True, slots=True)
class Aggregate:
    """Means over a set of questions (unrounded)."""

    count: int
    accuracy: float
    token_f1: float
    anls: float

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form (unrounded)."""
        return {
            "count": self.count,
            "accuracy": self.accuracy,
            "token_f1": self.token_f1,
            "anls": self.anls,
        }


@dataclass(frozen=True, slots=True)
class QuestionResult:
    """One scored question: the scored text, the three numbers, its labels and bucket.

    ``documents`` are the gold question's document ids (the cluster key of clustered
    standard errors); they are not part of the released per-question row.
    ``released_row`` holds, when read as released, the per-question row's
    ``answer_format, status, split, domain, reasoning_type`` exactly as the
    released evaluator writes them (raw JSON values); the string fields above are
    then the breakdown labels.
    """

    question_id: str
    prediction: str
    gold_answer: str
    answer_format: str
    status: str
    accuracy: float
    token_f1: float
    anls: float
    split: str
    domain: str
    reasoning_type: str
    difficulty: str
    doc_type: str
    evidence_sources: tuple[str, ...]
    answer_type: str
    bucket: str
    raw_prediction: str | None
    documents: tuple[str, ...] = ()
    released_row: tuple[Any, Any, Any, Any, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The released per-question row (unrounded), in the released key order."""
        row = {name: getattr(self, name) for name in PER_QUESTION_FIELDS}
        if self.released_row is not None:
            row.update(zip(RELEASED_ROW_FIELDS, self.released_row, strict=True))
        return row


_new_question = builder(QuestionResult)  # QuestionResult(...), built with plain stores


@dataclass(frozen=True, slots=True, repr=False)
class SystemResult:
    """Everything about one system's evaluation."""

    system: str
    prediction_files: tuple[str, ...]
    gold_count: int
    prediction_count: int
    evaluated_count: int
    missing_prediction_count: int
    extra_prediction_count: int
    overall: Aggregate
    breakdowns: tuple[tuple[str, tuple[tuple[str, Aggregate], ...]], ...]
    questions: tuple[QuestionResult, ...]
    accounting: tuple[tuple[str, int], ...]
    duplicates: tuple[Duplicate, ...]

    def __repr__(self) -> str:
        """One line, not every question."""
        o = self.overall
        return (
            f"<SystemResult {self.system!r}: accuracy {o.accuracy:.3f}, token_f1 "
            f"{o.token_f1:.3f}, anls {o.anls:.3f}, evaluated {self.evaluated_count}/"
            f"{self.gold_count}>"
        )

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form (unrounded)."""
        return {
            "system": self.system,
            "prediction_files": list(self.prediction_files),
            "gold_count": self.gold_count,
            "prediction_count": self.prediction_count,
            "evaluated_count": self.evaluated_count,
            "missing_prediction_count": self.missing_prediction_count,
            "extra_prediction_count": self.extra_prediction_count,
            "overall": self.overall.to_dict(),
            "breakdowns": {
                dim: {lab: agg.to_dict() for lab, agg in labels} for dim, labels in self.breakdowns
            },
            "accounting": dict(self.accounting),
            "duplicates": [d.to_dict() for d in self.duplicates],
            "per_question": [q.to_dict() for q in self.questions],
        }


def mean_aggregate(questions: Sequence[QuestionResult]) -> Aggregate:
    """Means of the unrounded per-question values; no questions → zeros."""
    return _aggregate(
        [q.accuracy for q in questions],
        [q.token_f1 for q in questions],
        [q.anls for q in questions],
    )


def _aggregate(accuracy: list[float], token_f1: list[float], anls: list[float]) -> Aggregate:
    n = len(accuracy)
    if n == 0:
        return Aggregate(0, 0.0, 0.0, 0.0)
    return Aggregate(n, sum(accuracy) / n, sum(token_f1) / n, sum(anls) / n)


def label_sets(q: QuestionResult) -> tuple[tuple[str, ...], ...]:
    """The labels of a question along each of :data:`DIMENSIONS`, in that order."""
    return (
        (q.split,), (q.domain,), (q.reasoning_type,), (q.answer_format,), (q.difficulty,),
        (q.doc_type,), q.evidence_sources,
    )  # fmt: skip


Breakdowns = tuple[tuple[str, tuple[tuple[str, Aggregate], ...]], ...]


def gold_label_sets(question: GoldQuestion) -> tuple[tuple[str, ...], ...]:
    """:func:`label_sets` of any system's result for this gold question."""
    q = question
    return (
        (q.split,), (q.domain,), (q.reasoning_type,), (q.answer_format_label,), (q.difficulty,),
        (q.doc_type,), q.evidence_sources,
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class LabelLayout:
    """Which questions carry each label, per dimension (labels in plain string order).

    Labels are gold-side, so one layout built from the gold set serves every system
    that scored every gold question, in gold order.
    """

    groups: tuple[tuple[tuple[str, tuple[int, ...]], ...], ...]
    size: int

    @classmethod
    def of(cls, label_rows: Sequence[tuple[tuple[str, ...], ...]]) -> LabelLayout:
        """The layout of questions whose labels (as :func:`label_sets`) are ``label_rows``."""
        per_dim: list[dict[str, list[int]]] = [{} for _ in DIMENSIONS]
        for index, labels in enumerate(label_rows):
            for group, names in zip(per_dim, labels, strict=True):
                for name in names:
                    rows = group.get(name)
                    if rows is None:
                        group[name] = [index]
                    else:
                        rows.append(index)
        ordered = (tuple((name, tuple(g[name])) for name in sorted(g)) for g in per_dim)
        return cls(tuple(ordered), len(label_rows))

    def aggregate(self, columns: tuple[list[float], list[float], list[float]]) -> Breakdowns:
        """Per-dimension, per-label means of the three columns (one value per question).

        Each label's values are summed in question order, as a list of them would be.
        """
        return tuple(
            (dim, tuple((name, _mean_of(rows, columns)) for name, rows in groups))
            for dim, groups in zip(DIMENSIONS, self.groups, strict=True)
        )


def _mean_of(rows: tuple[int, ...], columns: tuple[list[float], ...]) -> Aggregate:
    n = len(rows)
    if n == 1:
        sums = [sum((column[rows[0]],)) for column in columns]
    else:
        pick = itemgetter(*rows)
        sums = [sum(pick(column)) for column in columns]
    return Aggregate(n, sums[0] / n, sums[1] / n, sums[2] / n)


def _columns(questions: Sequence[QuestionResult]) -> tuple[list[float], list[float], list[float]]:
    return (
        [q.accuracy for q in questions],
        [q.token_f1 for q in questions],
        [q.anls for q in questions],
    )


def breakdowns(
    questions: Sequence[QuestionResult], layout: LabelLayout | None = None
) -> Breakdowns:
    """Per-dimension, per-label aggregates with labels in plain string order.

    ``layout``: the questions' :class:`LabelLayout` when already known (built from them
    otherwise).
    """
    if layout is None:
        layout = LabelLayout.of([label_sets(q) for q in questions])
    return layout.aggregate(_columns(questions))


def score_pair(profile: Profile, gold: Prepared, row: PredictionRow | None) -> QuestionResult:
    """Score one gold question with its prediction row (``None`` when missing)."""
    return score_rows(profile, [gold], [row], [bucket_of(row)])[0]


def score_rows(
    profile: Profile,
    golds: Sequence[Prepared],
    rows: Sequence[PredictionRow | None],
    buckets: Sequence[str],
) -> list[QuestionResult]:
    """Score gold questions with their rows and buckets, all at once (see :func:`score_pair`)."""
    substituted = [bucket == "status_substituted" for bucket in buckets]
    texts = [
        SUBSTITUTE_TEXT if sub else ("" if row is None else row.text)
        for row, sub in zip(rows, substituted, strict=True)
    ]
    accuracy, token_f1, anls = profile.score_many(golds, texts, substituted)
    return [
        _question(*args)
        for args in zip(golds, rows, texts, buckets, accuracy, token_f1, anls, strict=True)
    ]


def _question(
    gold: Prepared, row: PredictionRow | None, text: str, bucket: str,
    accuracy: float, token_f1: float, anls: float,
) -> QuestionResult:  # fmt: skip
    if row is None:
        return question_of(gold, text, "missing", None, "missing", bucket, accuracy, token_f1, anls)
    return question_of(
        gold, text, row.status, row.text, row.row_status, bucket, accuracy, token_f1, anls
    )


def question_of(
    gold: Prepared, text: str, status: str, raw: str | None, written: Any, bucket: str,
    accuracy: float, token_f1: float, anls: float,
) -> QuestionResult:  # fmt: skip
    """The :class:`QuestionResult` of ``gold`` from the prediction's own values.

    ``status`` and ``raw`` are the prediction row's status and text (``"missing"`` and
    ``None`` without a row); ``written`` is the released row's status, used when the gold
    question carries released row labels.
    """
    q = gold.question
    released = None
    if q.row_labels is not None:
        fmt, split, domain, reasoning = q.row_labels
        released = (fmt, written, split, domain, reasoning)
    return _new_question(
        q.id, text, q.answer, q.answer_format_label, status, accuracy, token_f1, anls,
        q.split, q.domain, q.reasoning_type, q.difficulty, q.doc_type,
        q.evidence_sources, gold.kind, bucket, raw, gold.document_ids, released,
    )  # fmt: skip


def evaluate_alignment(
    profile: Profile,
    prepared: Sequence[Prepared],
    alignment: Alignment,
    *,
    system: str,
    prediction_files: Sequence[str | Path],
    ignore_missing: bool = False,
    layout: LabelLayout | None = None,
) -> SystemResult:
    """Score an alignment and aggregate it into a :class:`SystemResult`.

    ``layout``: the gold set's :class:`LabelLayout` (``LabelLayout.of`` of
    :func:`gold_label_sets`), used when every question is scored.
    """
    counts = dict.fromkeys(BUCKETS, 0)
    golds: list[Prepared] = []
    rows: list[PredictionRow | None] = []
    buckets: list[str] = []
    for gold, (_, row) in zip(prepared, alignment.pairs, strict=True):
        bucket = bucket_of(row)
        counts[bucket] += 1
        if row is None and ignore_missing:
            continue
        golds.append(gold)
        rows.append(row)
        buckets.append(bucket)
    check_accounting(counts, len(prepared))
    questions = score_rows(profile, golds, rows, buckets)
    return SystemResult(
        system=system,
        prediction_files=tuple(str(p) for p in prediction_files),
        gold_count=len(prepared),
        prediction_count=alignment.prediction_count,
        evaluated_count=len(questions),
        missing_prediction_count=counts["missing"],
        extra_prediction_count=alignment.extra_count,
        overall=mean_aggregate(questions),
        breakdowns=breakdowns(questions, layout if len(questions) == len(prepared) else None),
        questions=tuple(questions),
        accounting=tuple(counts.items()),
        duplicates=alignment.duplicates,
    )

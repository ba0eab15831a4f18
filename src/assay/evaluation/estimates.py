"""The result document's mean estimates: per system and per slice, every metric at once.

Each system's scores are one float64 matrix (metrics x questions, a contiguous row
per metric) and each group (the whole system, or one slice label) is an index array
into it, built once per question list with its cluster ids. A group's means,
standard deviations and clustered residual sums are NumPy reductions along the
rows of ``values[:, group]``: the same reductions, in the same order, as
:func:`~assay.stats.mean_interval` and :func:`~assay.stats.clustered_mean_interval`
run on each metric's list, so every number is the one :func:`mean_estimate` gives
(pinned by ``tests/test_evaluation_estimates.py``). Groups the fast path does not
cover (fewer than two items or clusters, a non-finite score) go through
:func:`mean_estimate` itself.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from assay.evaluation.benchmark import DIMENSIONS, QuestionResult, SystemResult, label_sets

METRICS = ("accuracy", "token_f1", "anls")

IntArray = NDArray[np.intp]
FloatArray = NDArray[np.float64]


def cluster_key(question: QuestionResult) -> str:
    """The clustering key of a question: its sorted document ids joined by ``+``."""
    return "+".join(sorted(set(question.documents))) or question.question_id


def is_clustered(questions: Sequence[QuestionResult]) -> bool:
    """Whether at least one cluster (document) holds several of ``questions``."""
    keys = [cluster_key(q) for q in questions]
    return len(set(keys)) < len(keys)


def is_binary(values: Sequence[float]) -> bool:
    """Whether every value is 0 or 1."""
    return all(v in (0.0, 1.0) for v in values)


def mean_estimate(
    values: Sequence[float], clusters: Sequence[Hashable] | None, confidence: float
) -> dict[str, Any]:
    """A mean with SE and t interval: clustered when ``clusters`` is given, else iid.

    Every score lies in [0, 1], so the interval is cut to [0, 1]; ``clipped`` says
    whether the cut changed a bound (the unclipped bounds follow from mean ± t·SE).
    A 0/1 sample with no spread (all 0 or all 1) has SE 0, which would claim a
    zero-width interval; it gets the Wilson interval of k/n instead, and
    ``interval_method`` says which interval the bounds are.
    """
    from assay.stats import clustered_mean_interval, mean_interval, wilson_interval

    if clusters is None:
        estimate = mean_interval(values, confidence=confidence).to_dict()
    else:
        estimate = clustered_mean_interval(values, clusters, confidence=confidence).to_dict()
    estimate = {**clip_to_unit(estimate), "interval_method": "t"}
    if estimate["se"] == 0.0 and is_binary(values):
        rate = wilson_interval(int(sum(values)), len(values), confidence)
        estimate.update(lower=rate.lower, upper=rate.upper, interval_method="wilson")
    return estimate


def clip_to_unit(estimate: dict[str, Any]) -> dict[str, Any]:
    """Cut an estimate's interval to [0, 1], recording whether a bound moved."""
    lower, upper = estimate["lower"], estimate["upper"]
    if lower is None or upper is None:
        return {**estimate, "clipped": False}
    clipped = lower < 0.0 or upper > 1.0
    return {**estimate, "lower": max(lower, 0.0), "upper": min(upper, 1.0), "clipped": clipped}


@dataclass(frozen=True, slots=True)
class Layout:
    """Gold-side structure of a question list, shared by every system that has it.

    Attributes:
        keys: each question's cluster key.
        cluster_ids: dense cluster ids in order of first appearance.
        groups: per dimension, per label (first-seen order), the question positions.
    """

    keys: tuple[str, ...]
    cluster_ids: IntArray
    groups: tuple[dict[str, IntArray], ...]


def layout(questions: Sequence[QuestionResult]) -> Layout:
    """Cluster ids and slice groups of a question list (a question in each of its labels)."""
    keys = tuple(cluster_key(q) for q in questions)
    dense: dict[str, int] = {}
    ids = np.fromiter((dense.setdefault(k, len(dense)) for k in keys), np.intp, len(keys))
    found: list[dict[str, list[int]]] = [{} for _ in DIMENSIONS]
    for position, q in enumerate(questions):
        for group, labels in zip(found, label_sets(q), strict=True):
            for label in labels:
                members = group.get(label)
                if members is None:
                    members = group[label] = []
                members.append(position)
    groups = tuple({k: np.asarray(v, dtype=np.intp) for k, v in g.items()} for g in found)
    return Layout(keys, ids, groups)


class SystemEstimates:
    """Mean estimates of one system's groups of questions, every metric at once."""

    def __init__(
        self, questions: Sequence[QuestionResult], shape: Layout, clustered: bool,
        confidence: float,
    ) -> None:  # fmt: skip
        """Hold the system's score matrix (metrics x questions) and its layout."""
        from assay.stats._common import check_confidence

        self.questions = questions
        self.layout = shape
        self.clustered = clustered
        self.confidence = check_confidence(confidence)
        self.values: FloatArray = np.array(
            [[getattr(q, m) for q in questions] for m in METRICS], dtype=np.float64
        ).reshape(len(METRICS), len(questions))
        self.finite = bool(np.isfinite(self.values).all())

    def overall(self) -> dict[str, Any]:
        """Each metric's estimate over all of the system's questions."""
        return self.group(np.arange(len(self.questions), dtype=np.intp))

    def accuracy_rate(self) -> dict[str, Any] | None:
        """The Wilson interval of k/n correct, when every accuracy is 0 or 1."""
        from assay.stats import wilson_interval

        values = self.values[METRICS.index("accuracy")]
        if not bool(np.all((values == 0.0) | (values == 1.0))):
            return None
        return wilson_interval(int(values.sum()), int(values.size), self.confidence).to_dict()

    def group(self, positions: IntArray) -> dict[str, Any]:
        """Each metric's estimate over the questions at ``positions``."""
        k = int(positions.size)
        sub = np.ascontiguousarray(self.values.take(positions, axis=1))
        if k >= 2 and self.finite:
            if not self.clustered:
                return self._iid(sub)
            fast = self._clustered(sub, self.layout.cluster_ids[positions])
            if fast is not None:
                return fast
        clusters = [self.layout.keys[p] for p in positions] if self.clustered else None
        return {
            m: mean_estimate(sub[row].tolist(), clusters, self.confidence)
            for row, m in enumerate(METRICS)
        }

    def _iid(self, sub: FloatArray) -> dict[str, Any]:
        k = sub.shape[1]
        means, spreads = sub.mean(axis=1), sub.std(axis=1, ddof=1)
        root = math.sqrt(k)
        return {
            m: self._estimate(sub[row], float(means[row]), float(spreads[row]) / root, k - 1)
            for row, m in enumerate(METRICS)
        }

    def _clustered(self, sub: FloatArray, ids: IntArray) -> dict[str, Any] | None:
        dense, count = _first_seen_dense(ids)
        if count < 2:
            return None
        k = sub.shape[1]
        means = sub.mean(axis=1)
        residual = sub - means[:, None]
        offsets = (dense + count * np.arange(len(METRICS))[:, None]).ravel()
        sums = np.bincount(offsets, weights=residual.ravel(), minlength=len(METRICS) * count)
        squares = np.sum(sums.reshape(len(METRICS), count) ** 2, axis=1)
        out = {}
        for row, m in enumerate(METRICS):
            variance = count / (count - 1) * float(squares[row]) / (k * k)
            se = math.sqrt(variance)
            out[m] = self._estimate(sub[row], float(means[row]), se, count - 1, count)
        return out

    def _estimate(
        self, row: FloatArray, mean: float, se: float, df: int, n_clusters: int | None = None
    ) -> dict[str, Any]:
        """The estimate dict :func:`mean_estimate` builds from these numbers."""
        from assay.stats import wilson_interval
        from assay.stats.intervals import interval_quantile

        half = interval_quantile(self.confidence, "t", df) * se
        lower, upper = mean - half, mean + half
        estimate = {
            "confidence": self.confidence, "df": df, "lower": max(lower, 0.0), "mean": mean,
            "method": "t", "n": int(row.size), "n_clusters": n_clusters, "reason": None,
            "se": se, "se_method": "clustered" if n_clusters is not None else "iid",
            "status": "ok", "upper": min(upper, 1.0), "clipped": lower < 0.0 or upper > 1.0,
            "interval_method": "t",
        }  # fmt: skip
        if se == 0.0 and bool(np.all((row == 0.0) | (row == 1.0))):
            rate = wilson_interval(int(row.sum()), int(row.size), self.confidence)
            estimate.update(lower=rate.lower, upper=rate.upper, interval_method="wilson")
        return estimate


def _first_seen_dense(ids: IntArray) -> tuple[IntArray, int]:
    """Renumber ``ids`` densely in order of first appearance (as the interval code does)."""
    unique, first, inverse = np.unique(ids, return_index=True, return_inverse=True)
    rank = np.empty(unique.size, dtype=np.intp)
    rank[np.argsort(first, kind="stable")] = np.arange(unique.size, dtype=np.intp)
    return rank[inverse.reshape(-1)], int(unique.size)


def system_estimates(
    systems: Sequence[SystemResult], clustered: bool, confidence: float
) -> list[SystemEstimates]:
    """One :class:`SystemEstimates` per system; systems with the same questions share a layout."""
    shapes: dict[tuple[str, ...], Layout] = {}
    out = []
    for system in systems:
        ids = tuple(q.question_id for q in system.questions)
        shape = shapes.get(ids)
        if shape is None:
            shape = shapes[ids] = layout(system.questions)
        out.append(SystemEstimates(system.questions, shape, clustered, confidence))
    return out


def slices(systems: Sequence[SystemResult], estimates: Sequence[SystemEstimates]) -> dict[str, Any]:
    """Per dimension, per label (sorted), per system: n and each metric's estimate."""
    found: list[dict[str, dict[str, Any]]] = [{} for _ in DIMENSIONS]
    for system, estimate in zip(systems, estimates, strict=True):
        for labels_found, groups in zip(found, estimate.layout.groups, strict=True):
            for label, positions in groups.items():
                entry = estimate.group(positions)
                entry["n"] = int(positions.size)
                labels_found.setdefault(label, {})[system.system] = entry
    return {
        dimension: {label: labels[label] for label in sorted(labels)}
        for dimension, labels in zip(DIMENSIONS, found, strict=True)
    }

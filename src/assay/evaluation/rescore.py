"""Re-score other harnesses' logs with assay metrics and profiles (``assay rescore``).

Each task log read by :mod:`assay.io.harness` (lm-evaluation-harness samples,
inspect_ai ``.json``/``.eval`` logs) is mapped to gold + predictions and scored
with every metric asked for, exactly as :func:`assay.score_corpus` scores pairs,
and with a scoring profile's three numbers when one is asked for. Samples that
ended in an error in the harness have no prediction: they are counted in the
``error`` bucket and not scored (``total = scored + error``), never scored as empty.

A profile (``assay`` or ``xldocbench``) scores each item as a gold question whose
answer is the target and whose format is ``answer_format`` (default ``Str``); with
several targets each number is the maximum over them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assay._version import __version__
from assay.api import bind, score_corpus
from assay.errors import AccountingError, InvalidInputError
from assay.evaluation.profiles import Profile, get_profile, metric_signatures
from assay.io.gold import GoldQuestion
from assay.io.harness import HarnessLog, HarnessSample, read_harness_logs
from assay.metrics.base import BoundMetric
from assay.metrics.corpus import CorpusResult
from assay.metrics.interval import corpus_interval
from assay.parallel import executor_for
from assay.stats._common import DEFAULT_SEED
from assay.stats.bootstrap import DEFAULT_RESAMPLES, BootstrapEstimate, bootstrap

PROFILE_NUMBERS = ("accuracy", "token_f1", "anls")


@dataclass(frozen=True, slots=True)
class MetricScores:
    """One metric's scores over one log's scored samples."""

    name: str
    signature: str
    value: float
    aggregation: str
    values: tuple[float, ...]
    interval: BootstrapEstimate | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON entry ``assay score --json`` writes (per-item values are in the rows)."""
        return {
            "aggregation": self.aggregation,
            "interval": None if self.interval is None else self.interval.to_dict(),
            "metric": self.name,
            "n": len(self.values),
            "signature": self.signature,
            "value": self.value,
        }


@dataclass(frozen=True, slots=True)
class Interval:
    """A seeded percentile bootstrap interval: level (``None``: none), seed, resamples."""

    confidence: float | None = None
    seed: int = DEFAULT_SEED
    resamples: int = DEFAULT_RESAMPLES


@dataclass(frozen=True, slots=True)
class RescoredLog:
    """One task log and its scores."""

    log: HarnessLog
    scored: tuple[HarnessSample, ...]
    errors: tuple[HarnessSample, ...]
    metrics: tuple[MetricScores, ...]

    def accounting(self) -> dict[str, int]:
        """``total = scored + error`` over the log's samples."""
        counts = {"error": len(self.errors), "scored": len(self.scored),
                  "total": len(self.log.samples)}  # fmt: skip
        if counts["error"] + counts["scored"] != counts["total"]:
            raise AccountingError(f"{self.log.path}: buckets do not sum to the total")
        return counts

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form: provenance, accounting, each metric's value."""
        return {
            "accounting": self.accounting(),
            "error_ids": [s.key for s in self.errors],
            "metrics": [m.to_dict() for m in self.metrics],
            "source": self.log.provenance(),
        }


@dataclass(frozen=True, slots=True)
class RescoreResult:
    """Every log re-scored (``to_dict`` is the JSON document ``--json`` prints)."""

    logs: tuple[RescoredLog, ...]
    options: dict[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        """One line per log: path, task, accounting and each metric's value (no samples)."""
        lines = [f"RescoreResult: {len(self.logs)} log(s)"]
        for rescored in self.logs:
            counts = rescored.accounting()
            values = ", ".join(f"{m.name}={m.value:.6f}" for m in rescored.metrics)
            lines.append(
                f"  {rescored.log.path} task {rescored.log.task}: {counts['scored']}/"
                f"{counts['total']} scored" + (f"; {values}" if values else "")
            )
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """The result document (kind ``assay.rescore``)."""
        return {
            "assay_version": __version__,
            "kind": "assay.rescore",
            "logs": [log.to_dict() for log in self.logs],
            "options": dict(sorted(self.options.items())),
        }

    def per_item_rows(self) -> list[dict[str, Any]]:
        """One row per sample: its log, id, epoch, status and each metric's value."""
        rows = []
        for index, rescored in enumerate(self.logs):
            values = {id(s): i for i, s in enumerate(rescored.scored)}  # each sample itself
            for sample in rescored.log.samples:
                position = values.get(id(sample))
                row: dict[str, Any] = {
                    "log": index, "task": rescored.log.task, "id": sample.id,
                    "epoch": sample.epoch,
                    "status": "scored" if position is not None else "error",
                }  # fmt: skip
                for metric in rescored.metrics:
                    row[metric.name] = None if position is None else metric.values[position]
                rows.append(row)
        return rows


def rescore(
    paths: str | Path | Iterable[str | Path],
    metrics: Sequence[str] = (),
    *,
    profile: str | None = None,
    answer_format: str = "Str",
    filter_name: str | None = None,
    prediction_from: str = "completion",
    confidence: float | None = None,
    seed: int = DEFAULT_SEED,
    resamples: int = DEFAULT_RESAMPLES,
    executor: Any = None,
    progress: Callable[[int, int], None] | None = None,
    **options: Any,
) -> RescoreResult:
    """Re-score lm-evaluation-harness and inspect_ai logs with assay metrics.

    Args:
        paths: log files or folders (see :func:`assay.io.harness.read_harness_logs`).
        metrics: registry metric names, e.g. ``["f1", "rouge_l"]``.
        profile: a scoring profile (``assay`` or ``xldocbench``): adds its
            ``PROFILE.accuracy``, ``PROFILE.token_f1`` and ``PROFILE.anls``.
        answer_format: the gold answer format the profile types answers by.
        filter_name: lm-eval only: score this filter's responses (default: each).
        prediction_from: inspect_ai only: ``completion``, ``scorer`` or ``scorer:NAME``.
        confidence: add a percentile bootstrap interval at this level (e.g. 0.95) to
            each value, as ``assay score --confidence`` does (corpus metrics resample
            their statistics); ``seed`` and ``resamples`` are recorded.
        seed: the bootstrap seed.
        resamples: the bootstrap resample count.
        executor: where each metric's items are scored: ``None`` (this process),
            ``"local:N"``, a scheduler address or a ``dask.distributed.Client`` (see
            :mod:`assay.parallel`; one cluster serves every log and metric). The
            logs are read, and profile numbers computed, in this process; the
            result is identical for every executor.
        progress: called with ``(done, total)`` partitions of each metric (Dask runs).
        **options: metric options, applied to every metric (as for ``score_corpus``).

    Returns:
        A :class:`RescoreResult`, one :class:`RescoredLog` per task log.

    Raises:
        InputFileError: a file that is not a harness log, or a bad record in one.
        InvalidInputError: neither a metric nor a profile, or a log with no sample
            left to score.
        UnknownMetricError, InvalidOptionError: as for :func:`assay.score_corpus`.
    """
    if not metrics and profile is None:
        raise InvalidInputError("give at least one metric or a profile to rescore with")
    bound = _bind_all(metrics, options)
    chosen = get_profile(profile) if profile is not None else None
    if isinstance(paths, str | Path):
        paths = [paths]
    logs = read_harness_logs(paths, filter_name=filter_name, prediction_from=prediction_from)
    interval = Interval(confidence, seed, resamples)
    with executor_for(executor) as runner:
        on = Scoring(runner.client, progress, options)  # a live client, or None: in process
        rescored = tuple(_rescore_log(log, bound, chosen, answer_format, interval, on)
                         for log in logs)  # fmt: skip
    recorded = {"answer_format": answer_format if chosen else None, "filter": filter_name,
                "metric_options": dict(sorted(options.items())), "prediction_from":
                prediction_from, "profile": profile, "confidence": confidence,
                "n_resamples": resamples, "seed": seed}  # fmt: skip
    return RescoreResult(rescored, recorded)


def _bind_all(names: Sequence[str], options: dict[str, Any]) -> list[BoundMetric]:
    bound: dict[str, BoundMetric] = {}
    for name in names:
        metric = bind(name, **options)
        bound.setdefault(metric.spec.name, metric)
    return list(bound.values())


@dataclass(frozen=True, slots=True)
class Scoring:
    """Where and how each metric's corpus is scored: ``score_corpus``'s other arguments."""

    client: Any
    progress: Callable[[int, int], None] | None
    options: dict[str, Any]

    def score(self, name: str, predictions: list[str], targets: list[list[str]]) -> CorpusResult:
        """:func:`assay.score_corpus` of one metric, on the client's cluster when there is one."""
        if self.client is None:
            return score_corpus(name, predictions, targets, **self.options)
        return score_corpus(name, predictions, targets, executor=self.client,
                            progress=self.progress, **self.options)  # fmt: skip


def _rescore_log(
    log: HarnessLog,
    metrics: list[BoundMetric],
    profile: Profile | None,
    answer_format: str,
    interval: Interval,
    on: Scoring,
) -> RescoredLog:
    scored = tuple(s for s in log.samples if s.prediction is not None)
    errors = tuple(s for s in log.samples if s.prediction is None)
    if not scored:
        raise InvalidInputError(
            f"{log.path}: every sample of task {log.task!r} ended in an error; nothing to score"
        )
    predictions = [str(s.prediction) for s in scored]
    targets = [list(s.targets) for s in scored]
    results = [
        _metric_scores(m, on.score(m.spec.name, predictions, targets), interval) for m in metrics
    ]
    if profile is not None:
        results += _profile_scores(profile, scored, answer_format, interval)
    return RescoredLog(log, scored, errors, tuple(results))


def _metric_scores(metric: BoundMetric, result: CorpusResult, interval: Interval) -> MetricScores:
    estimate = None
    if interval.confidence is not None:
        estimate = corpus_interval(metric, result, confidence=interval.confidence,
                                   seed=interval.seed, n_resamples=interval.resamples)  # fmt: skip
    return MetricScores(
        metric.spec.name, result.signature, result.value, result.aggregation, result.values,
        estimate,
    )  # fmt: skip


def _mean_interval(values: list[float], interval: Interval) -> BootstrapEstimate | None:
    if interval.confidence is None:
        return None
    return bootstrap(values, n_resamples=interval.resamples, seed=interval.seed,
                     confidence=interval.confidence)  # fmt: skip


def _profile_scores(
    profile: Profile, samples: tuple[HarnessSample, ...], answer_format: str, interval: Interval
) -> list[MetricScores]:
    table = [[0.0] * len(samples) for _ in PROFILE_NUMBERS]
    for index, sample in enumerate(samples):
        text = str(sample.prediction)
        best = [0.0] * len(PROFILE_NUMBERS)
        for target in sample.targets:
            gold = profile.prepare(_question(sample, target, answer_format))
            numbers = profile.score(gold, text, False)
            values = (numbers.accuracy, numbers.token_f1, numbers.anls)
            best = [max(b, v) for b, v in zip(best, values, strict=True)]
        for row, value in zip(table, best, strict=True):
            row[index] = value
    signatures = metric_signatures(profile.name)
    return [
        MetricScores(
            f"{profile.name}.{name}", signatures[name], sum(row) / len(row), "mean", tuple(row),
            _mean_interval(row, interval),
        )  # fmt: skip
        for name, row in zip(PROFILE_NUMBERS, table, strict=True)
    ]


def _question(sample: HarnessSample, target: str, answer_format: str) -> GoldQuestion:
    return GoldQuestion(
        id=sample.key, value=target, answer=target, format=answer_format,
        verification_rule="", split="", domain="", reasoning_type="", difficulty="",
        doc_type="", evidence_sources=(), is_unanswerable=answer_format == "None",
        documents=(), path="", line=None,
    )  # fmt: skip

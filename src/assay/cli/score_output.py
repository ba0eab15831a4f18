"""``assay score``: one or several metrics over one pair or a file of pairs.

Text output is one ``METRIC: VALUE`` line and one ``signature:`` line per metric;
``--json`` prints the same as one JSON document instead. ``--per-item FILE`` writes
one JSONL row per pair (``id`` then each metric's value, in the order given);
``--confidence`` adds a seeded percentile bootstrap interval (see
:mod:`assay.metrics.interval`), its seed and resample count recorded.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from assay._version import __version__
from assay.api import bind, score_corpus
from assay.errors import InputFileError
from assay.io.jsonl import Pair, read_pairs
from assay.metrics.base import BoundMetric
from assay.metrics.corpus import CorpusResult
from assay.metrics.interval import corpus_interval
from assay.stats.bootstrap import BootstrapEstimate


@dataclass(frozen=True, slots=True)
class Interval:
    """``--confidence``, ``--seed`` and ``--resamples``: ``None`` confidence means no interval."""

    confidence: float | None
    seed: int
    resamples: int


def metric_names(positional: str | None, repeated: tuple[str, ...]) -> list[str]:
    """The metrics asked for: ``METRIC`` and each ``-m``, commas split, repeats dropped."""
    names = [positional] if positional else []
    names += list(repeated)
    split = [part.strip() for name in names for part in name.split(",")]
    if not split or not all(split):
        raise click.UsageError("give a METRIC (or -m METRIC, repeatable; -m f1,rouge_l)")
    return list(dict.fromkeys(split))


def bind_all(names: list[str], options: dict[str, Any]) -> list[BoundMetric]:
    """Bind each metric with the options (each must take them); repeats by alias dropped."""
    bound: dict[str, BoundMetric] = {}
    for name in names:
        metric = bind(name, **options)
        bound.setdefault(metric.spec.name, metric)
    return list(bound.values())


def _interval_text(interval: dict[str, Any]) -> str:
    level = f"{interval['confidence']:.0%}"
    if interval["lower"] is None or interval["upper"] is None:
        return f" {level} CI n/a ({interval['reason']})"
    return (
        f" {level} CI [{interval['lower']:.6f}, {interval['upper']:.6f}] "
        f"(bootstrap, {interval['n_resamples']} resamples, seed {interval['seed']})"
    )


SQUAD_V2 = ("squad_v2.em", "squad_v2.f1")  # the metrics that take no-answer probabilities


def no_answer_options(pairs: list[Pair]) -> dict[str, Any]:
    """``no_answer_probabilities`` and ``ids`` when the rows carry ``no_answer_probability``.

    Raises:
        InputFileError: some rows have the field and others do not (naming the first).
    """
    given = [p for p in pairs if p.no_answer_probability is not None]
    if not given:
        return {}
    for pair in pairs:
        if pair.no_answer_probability is None:
            raise InputFileError(
                pair.path,
                "missing while other rows give one; give every row a no_answer_probability "
                "or none",
                line=pair.line,
                field="no_answer_probability",
            )
    return {
        "no_answer_probabilities": {p.id: p.no_answer_probability for p in pairs},
        "ids": [p.id for p in pairs],
    }


def score_entry(
    metric: BoundMetric,
    value: float,
    result: CorpusResult | None,
    interval: BootstrapEstimate | None,
) -> dict[str, Any]:
    """One metric's JSON entry: value, aggregation, n, signature and interval (or null).

    ``details`` (the SQuAD v2.0 script's figures) is present when the result has them.
    """
    entry: dict[str, Any] = {
        "aggregation": None if result is None else result.aggregation,
        "interval": None if interval is None else interval.to_dict(),
        "metric": metric.spec.name,
        "n": 1 if result is None else result.n,
        "signature": metric.signature,
        "value": value,
    }
    if result is not None and result.details is not None:
        entry["details"] = dict(result.details)
    return entry


def score_file(
    metrics: list[BoundMetric],
    pairs_file: Path,
    interval: Interval,
    options: dict[str, Any],
    *,
    executor: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[Pair], list[tuple[dict[str, Any], CorpusResult]]]:
    """Score every pair of the file with each metric (and its interval when asked).

    ``executor`` / ``progress``: as for :func:`assay.score_corpus` (``--dask``). Rows
    with ``no_answer_probability`` give the SQuAD v2 metrics their threshold search.
    """
    pairs = list(read_pairs(pairs_file))  # raises on an empty file
    no_answer = no_answer_options(pairs)
    predictions = [p.prediction for p in pairs]
    targets = [list(p.targets) for p in pairs]
    scored = []
    for metric in metrics:
        extra = no_answer if metric.spec.name in SQUAD_V2 else {}
        result = score_corpus(metric.spec.name, predictions, targets, executor=executor,
                              progress=progress, **extra, **options)  # fmt: skip
        estimate = None
        if interval.confidence is not None:
            estimate = corpus_interval(
                metric, result, confidence=interval.confidence, seed=interval.seed,
                n_resamples=interval.resamples,
            )  # fmt: skip
        scored.append((score_entry(metric, result.value, result, estimate), result))
    return pairs, scored


def per_item_text(pairs: list[Pair], scored: list[tuple[dict[str, Any], CorpusResult]]) -> str:
    """One JSONL row per pair: ``id``, then each metric's value."""
    lines = []
    for index, pair in enumerate(pairs):
        row: dict[str, Any] = {"id": pair.id}
        row.update({entry["metric"]: result.values[index] for entry, result in scored})
        lines.append(json.dumps(row, ensure_ascii=False))
    return "\n".join(lines) + "\n"


def render_text(entries: list[dict[str, Any]]) -> str:
    """Per metric: ``METRIC: VALUE (KIND over n=N)[ interval]``, details, ``signature: ...``."""
    lines = []
    for entry in entries:
        kind = entry["aggregation"]
        over = f" ({kind} over n={entry['n']})" if kind else ""
        extra = _interval_text(entry["interval"]) if entry["interval"] is not None else ""
        lines.append(f"{entry['metric']}: {entry['value']:.6f}{over}{extra}")
        lines += [f"{key}: {value!r}" for key, value in entry.get("details", {}).items()]
        lines.append(f"signature: {entry['signature']}")
    return "\n".join(lines)


def render_json(entries: list[dict[str, Any]], source: str | None, interval: Interval) -> str:
    """The scores as one JSON document (sorted keys)."""
    document = {
        "assay_version": __version__,
        "input": source,
        "kind": "assay.score",
        "metrics": entries,
        "options": {"confidence": interval.confidence, "n_resamples": interval.resamples,
                    "seed": interval.seed},  # fmt: skip
    }
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False)

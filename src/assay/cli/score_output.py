"""``assay score``: one or several metrics over one pair or a file of pairs.

Text output is one ``METRIC: VALUE`` line (then any SQuAD v2.0 details) and one
``signature:`` line per metric; ``--json`` prints the same as one JSON document
instead. ``--confidence`` adds a seeded percentile bootstrap interval (see
:mod:`assay.metrics.interval`), its seed and resample count recorded. The file
itself is scored by :mod:`assay.cli.score_file`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import click

from assay._version import __version__
from assay.api import bind
from assay.metrics.base import BoundMetric
from assay.metrics.stream import StreamResult
from assay.stats.bootstrap import BootstrapEstimate


@dataclass(frozen=True, slots=True)
class Interval:
    """``--confidence``, ``--seed``, ``--resamples`` and ``--bootstrap``.

    ``None`` confidence means no interval; ``bootstrap`` is ``"percentile"`` (items
    resampled with replacement) or ``"poisson"`` (mergeable Poisson weights, see
    :mod:`assay.stats.poisson_bootstrap`).
    """

    confidence: float | None
    seed: int
    resamples: int
    bootstrap: str = "percentile"


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
    kind = "Poisson bootstrap" if interval["method"] == "poisson" else "bootstrap"
    return (
        f" {level} CI [{interval['lower']:.6f}, {interval['upper']:.6f}] "
        f"({kind}, {interval['n_resamples']} resamples, seed {interval['seed']})"
    )


def score_entry(
    metric: BoundMetric,
    value: float,
    result: StreamResult | None,
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


# Metrics whose best-known tool prints them on 0-100 where assay gives 0-1.
PERCENT_PEERS = {
    **dict.fromkeys(("bleu", "bleu_4", "corpus_bleu", "chrf", "chrf++", "ter"), "sacrebleu"),
    **dict.fromkeys(("squad_v1.em", "squad_v1.f1", "squad_v2.em", "squad_v2.f1"),
                    "the official SQuAD script"),
}  # fmt: skip
ROUGE_NOTE = (
    "note: tok:word; rouge-score's own tokenizer (lowercase, ASCII letters and digits only) "
    "gives other numbers on other text: --tokenizer rouge-score for its numbers"
)


def notes(entry: dict[str, Any]) -> list[str]:
    """The lines that say where a same-named peer's number differs: scale, tokenizer."""
    name, value = entry["metric"], entry["value"]
    if name in PERCENT_PEERS:
        return [f"scale: 0-1 ({PERCENT_PEERS[name]} prints it x 100: {value * 100:.2f})"]
    if name.startswith("rouge_") and "|tok:word|" in entry["signature"]:
        return [ROUGE_NOTE]
    return []


def render_text(entries: list[dict[str, Any]]) -> str:
    """Per metric: ``METRIC: VALUE (KIND over n=N)[ interval]``, details, notes, signature.

    A note says the scale of a metric its best-known tool prints on 0-100 (BLEU,
    chrF, TER, SQuAD), or that ROUGE's default tokenizer is not rouge-score's.
    """
    lines = []
    for entry in entries:
        kind = entry["aggregation"]
        over = f" ({kind} over n={entry['n']})" if kind else ""
        extra = _interval_text(entry["interval"]) if entry["interval"] is not None else ""
        lines.append(f"{entry['metric']}: {entry['value']:.6f}{over}{extra}")
        lines += [f"{key}: {value!r}" for key, value in entry.get("details", {}).items()]
        lines += notes(entry)
        lines.append(f"signature: {entry['signature']}")
    return "\n".join(lines)


def render_json(entries: list[dict[str, Any]], source: str | None, interval: Interval) -> str:
    """The scores as one JSON document (sorted keys)."""
    options: dict[str, Any] = {
        "confidence": interval.confidence, "n_resamples": interval.resamples, "seed": interval.seed,
    }  # fmt: skip
    if interval.bootstrap != "percentile":  # the default's document is unchanged
        options["bootstrap"] = interval.bootstrap
    document = {
        "assay_version": __version__,
        "input": source,
        "kind": "assay.score",
        "metrics": entries,
        "options": options,
    }
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False)

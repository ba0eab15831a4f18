"""The assay result document: one self-describing JSON object per multi-system run.

:func:`result_document` turns an :class:`~assay.evaluation.runs.EvaluationResult`
into the plain, JSON-ready dict that every comparison renderer (terminal,
Markdown, CSV, HTML, ``assay diff``) reads; ``assay report`` re-renders it without
the raw inputs. It holds the systems, per-item scores (every metric, status,
bucket, prediction, gold, slice labels), aggregates, accounting, signatures,
fingerprint and profile, and the statistics:

* per system and metric, the mean with a 95 % t interval. Its standard error is
  **clustered by document** (the question's document ids, sorted and joined by
  ``+``, so a cross-document question forms its own cluster; finite-cluster
  correction C/(C - 1), C - 1 degrees of freedom) when at least one document holds
  several questions, else the iid SE (n - 1). Each estimate names its ``se_method``;
* for 0/1 accuracy, the Wilson score interval of k/n correct;
* all pairs on the ranking metric (``--rank-by``): paired mean difference with SE,
  t interval, correlation and minimum detectable difference (alpha 0.05, 80 %
  power), a paired approximate-randomisation (default) or bootstrap p-value with
  its seed and trial count (ties with the observed difference count towards p:
  with 0/1 scores sacrebleu's strict ``>`` would call a single discordant item
  significant), Holm-adjusted p-values, McNemar's exact test when
  both systems' scores are 0/1, and tie groups (Holm-adjusted ``p <= alpha``
  against the next-better system starts a new group).

Paired statistics use the questions every system evaluated (all of them unless
``--ignore-missing`` dropped some); that count is recorded as ``n_paired``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from assay.errors import InvalidOptionError
from assay.evaluation import counts
from assay.evaluation.benchmark import QuestionResult, SystemResult
from assay.evaluation.estimates import (
    METRICS,
    SystemEstimates,
    clip_to_unit,
    cluster_key,
    is_binary,
    is_clustered,
    mean_estimate,
    slices,
    system_estimates,
)
from assay.evaluation.runs import EvaluationResult

__all__ = [
    "METRICS", "POWER", "RESULT_KIND", "RESULT_VERSION", "TESTS", "CompareOptions",
    "accounting_identity", "clip_to_unit", "cluster_key", "comparison", "mean_estimate",
    "result_document", "statistics_settings",
]  # fmt: skip

RESULT_KIND = "assay.result"
RESULT_VERSION = 1
TESTS = ("approximate_randomization", "paired_bootstrap", "exact_sign_flip")
POWER = 0.80


@dataclass(frozen=True, slots=True)
class CompareOptions:
    """Settings of the statistics in a result document.

    Attributes:
        metric: the metric that ranks systems and is tested pairwise.
        method: ``approximate_randomization``, ``paired_bootstrap`` or
            ``exact_sign_flip`` (0/1 scores only: the exact randomisation p-value).
        n_resamples: trials/resamples per pair (``None``: 10000 AR, 1000 bootstrap,
            raised by the power guard when too few to reach alpha after Holm).
        seed: seed of every random procedure.
        alpha: family-wise significance level (Holm, tie groups).
        confidence: interval coverage.
        ties_count: count resampled statistics ``>=`` the observed one (default; the
            valid rule for 0/1 scores, where ties are common). ``False`` gives
            sacrebleu's strict ``>``.
    """

    metric: str = "accuracy"
    method: str = "approximate_randomization"
    n_resamples: int | None = None
    seed: int = 12345
    alpha: float = 0.05
    confidence: float = 0.95
    ties_count: bool = True

    def validate(self) -> None:
        """Raise :class:`InvalidOptionError` for an unknown metric or test."""
        if self.metric not in METRICS:
            raise InvalidOptionError(
                f"--rank-by {self.metric!r}: choose one of {', '.join(METRICS)}"
            )
        if self.method not in TESTS:
            raise InvalidOptionError(f"--test {self.method!r}: choose one of {', '.join(TESTS)}")


def accounting_identity(system: SystemResult) -> dict[str, Any]:
    """Total, buckets, the identity as text and whether it holds."""
    buckets = dict(system.accounting)
    parts = " + ".join(f"{count} {name}" for name, count in system.accounting)
    return {
        "total": system.gold_count,
        "buckets": buckets,
        "equation": f"{system.gold_count} = {parts}",
        "holds": sum(buckets.values()) == system.gold_count,
    }


def _system_entry(system: SystemResult, estimate: SystemEstimates) -> dict[str, Any]:
    return {
        "system": system.system,
        "prediction_files": list(system.prediction_files),
        "gold_count": system.gold_count,
        "prediction_count": system.prediction_count,
        "evaluated_count": system.evaluated_count,
        "evaluated": counts.evaluated(system),
        "n": counts.questions_over(system),
        "missing_prediction_count": system.missing_prediction_count,
        "extra_prediction_count": system.extra_prediction_count,
        "accounting": accounting_identity(system),
        "duplicates": [d.to_dict() for d in system.duplicates],
        "overall": estimate.overall(),
        "accuracy_rate": estimate.accuracy_rate(),
    }


def _items(systems: Sequence[SystemResult]) -> list[dict[str, Any]]:
    """One row per question (gold order), with every system's result beside it.

    Built directly in canonical form (sorted keys, lists, plain floats): the
    largest part of the document needs no JSON round trip.
    """
    rows: dict[str, dict[str, Any]] = {}
    for system in systems:  # row order: first seen, systems in the given order
        for q in system.questions:
            if q.question_id not in rows:
                rows[q.question_id] = _item_row(q)
    for system in sorted(systems, key=lambda s: s.system):  # results keyed in sorted order
        for q in system.questions:
            rows[q.question_id]["results"][system.system] = {
                "accuracy": float(q.accuracy),
                "anls": float(q.anls),
                "bucket": q.bucket,
                "prediction": q.prediction,
                "raw_prediction": q.raw_prediction,
                "status": q.status,
                "token_f1": float(q.token_f1),
            }
    return list(rows.values())


def _item_row(q: QuestionResult) -> dict[str, Any]:
    """The gold-side fields of an item row, keys sorted (``results`` filled in later)."""
    row: dict[str, Any] = {
        "answer_format": q.answer_format,
        "answer_type": q.answer_type,
        "cluster": cluster_key(q),
        "difficulty": q.difficulty,
        "doc_type": q.doc_type,
        "documents": list(q.documents),
        "domain": q.domain,
        "evidence_sources": list(q.evidence_sources),
        "gold_answer": q.gold_answer,
        "question_id": q.question_id,
        "reasoning_type": q.reasoning_type,
        "results": {},
        "split": q.split,
    }
    return row


def _paired_values(
    systems: Sequence[SystemResult], metric: str
) -> tuple[list[str], dict[str, list[float]]]:
    """Question ids every system evaluated (gold order) and each system's values on them."""
    common = set.intersection(*({q.question_id for q in s.questions} for s in systems))
    order = [q.question_id for q in systems[0].questions if q.question_id in common]
    values = {}
    for s in systems:
        by_id = {q.question_id: getattr(q, metric) for q in s.questions}
        values[s.system] = [by_id[i] for i in order]
    return order, values


def comparison(systems: Sequence[SystemResult], options: CompareOptions) -> dict[str, Any]:
    """All-pairs paired statistics on the ranking metric, Holm and tie groups."""
    from assay.stats import compare_systems
    from assay.stats.exact import mcnemar_pairs

    order, values = _paired_values(systems, options.metric)
    compared = compare_systems(
        values, method=options.method, n_resamples=options.n_resamples,
        seed=options.seed, alpha=options.alpha, ties_count=options.ties_count,
    )  # fmt: skip
    binary_system = {name: is_binary(v) for name, v in values.items()}  # once per system
    both_binary = [(p.a, p.b) for p in compared.pairs if binary_system[p.a] and binary_system[p.b]]
    mcnemar = dict(zip(both_binary, mcnemar_pairs(values, both_binary), strict=True))
    pairs = []
    for pair in compared.pairs:
        entry = pair.to_dict()
        table = mcnemar.get((pair.a, pair.b))
        entry["mcnemar"] = None if table is None else table.to_dict()
        entry["significant"] = pair.p_holm is not None and pair.p_holm <= options.alpha
        pairs.append(entry)
    return {
        "metric": options.metric,
        "method": compared.method,
        "n_resamples": compared.n_resamples,
        "n_resamples_requested": compared.n_resamples_requested,
        "min_trials": compared.min_trials,
        "power_guard": compared.power_guard,
        "seed": compared.seed,
        "alpha": compared.alpha,
        "power": POWER,
        "n_paired": len(order),
        "systems": list(compared.systems),
        "scores": list(compared.scores),
        "tie_groups": compared.ties.to_dict(),
        "pairs": pairs,
    }


def statistics_settings(options: CompareOptions, clustered: bool) -> dict[str, Any]:
    """What the statistics are, in words and numbers."""
    se = (
        "clustered by document (sorted document ids joined by '+'), C/(C-1) correction, t on C-1 df"
        if clustered
        else "iid (n-1), t on n-1 df"
    )
    return {
        "confidence": options.confidence,
        "alpha": options.alpha,
        "power": POWER,
        "ranking_metric": options.metric,
        "mean_interval": "t interval cut to [0, 1] (Wilson for a 0/1 group with no spread); "
        f"standard error {se}",
        "se_method": "clustered" if clustered else "iid",
        "rate_interval": "wilson (accuracy, when every score is 0 or 1)",
        "paired_test": options.method,
        "p_value": _p_value_rule(options),
        "power_guard": "a default trial count too small to reach alpha after Holm is "
        "raised to the minimum; an explicit one is refused",
        "multiple_comparisons": "holm",
        "tie_groups": "Holm-adjusted p <= alpha against the next-better system starts a new group",
        "unresolved_ties": "an adjacent pair whose test could not have reached alpha after "
        "Holm at all is listed in tie_groups.unresolved and starts a new group: no evidence, "
        "not a measured tie",
    }


def _p_value_rule(options: CompareOptions) -> str:
    """How the paired test's p-value is computed, in words."""
    if options.method == "exact_sign_flip":
        return (
            "exact: P(|2K - D| >= |a_only - b_only|), K ~ Binomial(D, 1/2) over the "
            "D discordant items (no trials)"
        )
    return "(count + 1) / (trials + 1), count = resampled |difference| " + (
        ">= observed (ties count)" if options.ties_count else "> observed (sacrebleu)"
    )


def result_document(
    result: EvaluationResult,
    options: CompareOptions | None = None,
    *,
    structured: dict[str, Any] | None = None,
    source: str = "evaluation",
) -> dict[str, Any]:
    """The full assay result document of a run (see the module docstring).

    Args:
        result: an evaluation of one or more systems.
        options: statistics settings (defaults: accuracy, AR with 10000 trials, seed 12345).
        structured: an optional structured-output report dict to carry alongside.
        source: where the per-item scores came from (recorded as ``source``).
    """
    options = options or CompareOptions()
    options.validate()
    clustered = is_clustered(result.systems[0].questions) if result.systems else False
    estimates = system_estimates(result.systems, clustered, options.confidence)
    entries = {
        s.system: _system_entry(s, e) for s, e in zip(result.systems, estimates, strict=True)
    }
    compared = comparison(result.systems, options)
    groups = dict(zip(compared["systems"], compared["tie_groups"]["groups"], strict=True))
    ranked = []
    for rank, name in enumerate(compared["systems"], start=1):
        ranked.append({**entries[name], "rank": rank, "tie_group": groups[name]})
    document = {
        "kind": RESULT_KIND,
        "result_version": RESULT_VERSION,
        **result.provenance(),
        "metrics": list(METRICS),
        "source": source,
        "statistics": statistics_settings(options, clustered),
        "systems": ranked,
        "comparison": compared,
        "slices": slices(result.systems, estimates),
        "items": [],
        "structured": structured,
    }
    # The canonical (saved) form: sorted keys, lists for tuples. Renderers given this
    # dict or the same document re-read from disk produce the same bytes.
    canonical: dict[str, Any] = json.loads(json.dumps(document, sort_keys=True))
    canonical["items"] = _items(result.systems)  # built canonical: no round trip
    return canonical

"""Terminal output: the released plain-text summary, the accounting and provenance lines.

Numbers are formatted from the result record; nothing is recomputed here.
"""

from __future__ import annotations

from assay.evaluation import counts
from assay.evaluation.benchmark import SystemResult
from assay.evaluation.coverage import coverage_note
from assay.evaluation.runs import EvaluationResult


def release_summary(system: SystemResult, *, released: bool = True) -> str:
    """The released evaluator's stdout summary for one system.

    ``released=False`` (the ``assay`` profile): ``Evaluated`` is the questions with a
    prediction (:mod:`assay.evaluation.counts`; the released line is ``n``, the questions
    the means are over), and when nothing was evaluated the three means are ``n/a``,
    not the released ``0.000000``.
    """
    o = system.overall
    if not released and system.evaluated_count == 0:
        means = [f"{name}: n/a" for name in ("Accuracy", "Token F1", "ANLS")]
    else:
        means = [f"Accuracy: {o.accuracy:.6f}", f"Token F1: {o.token_f1:.6f}",
                 f"ANLS: {o.anls:.6f}"]  # fmt: skip
    return "\n".join(
        [
            f"Gold questions: {system.gold_count}",
            f"Predictions: {system.prediction_count}",
            f"Evaluated: {system.evaluated_count if released else counts.evaluated(system)}",
            f"Missing predictions: {system.missing_prediction_count}",
            f"Extra predictions: {system.extra_prediction_count}",
            *means,
        ]
    )


def accounting_line(system: SystemResult, ignore_missing: bool = False) -> str:
    """``52 questions = 45 scored + 2 empty + 1 status_substituted + 4 missing``.

    Coverage under the partial-match threshold is said here too (the same test as
    the warning on stderr), ``--ignore-missing`` or not.
    """
    parts = " + ".join(f"{count} {name}" for name, count in system.accounting)
    line = f"{system.system}: {system.gold_count} questions = {parts}"
    matched = system.gold_count - system.missing_prediction_count
    note = coverage_note(matched, system.gold_count, ignore_missing)
    if note is not None:
        line += f"; {note}"
    if system.extra_prediction_count:
        line += f"; {system.extra_prediction_count} extra id(s) ignored"
    if system.duplicates:
        line += f"; {len(system.duplicates)} duplicate id(s), later rows kept"
    return line


def provenance_lines(result: EvaluationResult) -> list[str]:
    """Profile, version and fingerprint, one line each."""
    return [
        f"profile: {result.profile} (assay {result.assay_version})",
        f"evaluator sha256: {result.fingerprint}",
    ]

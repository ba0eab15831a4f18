"""Terminal output: the released plain-text summary, the accounting and provenance lines.

Numbers are formatted from the result record; nothing is recomputed here.
"""

from __future__ import annotations

from assay.evaluation import counts
from assay.evaluation.benchmark import SystemResult
from assay.evaluation.coverage import coverage_note
from assay.evaluation.runs import EvaluationResult
from assay.report.release.json import rounded

RELEASED_TITLE = "XL-DocBench evaluation"
RELEASED_WIDTH = 22  # "  missing predictions:  " is the widest label, two spaces after it


def released_summary(system: SystemResult) -> str:
    """The released evaluator's stdout for one system, byte for byte (without the last newline).

    A title line, then two-space-indented counts and the three means in percent with two
    decimals, each mean taken from its 6-decimal report value (``Accuracy:   100.00``).
    """
    o = system.overall
    counts = [
        ("gold questions:", system.gold_count),
        ("predictions:", system.prediction_count),
        ("evaluated:", system.evaluated_count),
        ("missing predictions:", system.missing_prediction_count),
        ("extra predictions:", system.extra_prediction_count),
    ]
    means = [("Accuracy:", o.accuracy), ("Token F1:", o.token_f1), ("ANLS:", o.anls)]
    lines = [RELEASED_TITLE]
    lines += [f"  {name:<{RELEASED_WIDTH}}{count}" for name, count in counts]
    lines += [f"  {name:<{RELEASED_WIDTH}}{rounded(mean) * 100:.2f}" for name, mean in means]
    return "\n".join(lines)


def release_summary(system: SystemResult, *, released: bool = True) -> str:
    """The summary of one system: :func:`released_summary`, or assay's own lines.

    ``released=False`` (the ``assay`` profile): ``Evaluated`` is the questions with a
    prediction (:mod:`assay.evaluation.counts`; the released line is ``n``, the questions
    the means are over), the means to 6 decimals, and when nothing was evaluated they
    are ``n/a``, not the released ``0.00``.
    """
    if released:
        return released_summary(system)
    o = system.overall
    if system.evaluated_count == 0:
        means = [f"{name}: n/a" for name in ("Accuracy", "Token F1", "ANLS")]
    else:
        means = [f"Accuracy: {o.accuracy:.6f}", f"Token F1: {o.token_f1:.6f}",
                 f"ANLS: {o.anls:.6f}"]  # fmt: skip
    return "\n".join(
        [
            f"Gold questions: {system.gold_count}",
            f"Predictions: {system.prediction_count}",
            f"Evaluated: {counts.evaluated(system)}",
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

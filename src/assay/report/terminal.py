"""Terminal output: the released plain-text summary and rich leaderboard/breakdown tables.

Numbers are formatted from the result record; nothing is recomputed here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay.evaluation.benchmark import DIMENSIONS, SystemResult
from assay.evaluation.runs import EvaluationResult

if TYPE_CHECKING:
    from rich.table import Table


def release_summary(system: SystemResult) -> str:
    """The released evaluator's stdout summary for one system."""
    o = system.overall
    return "\n".join(
        [
            f"Gold questions: {system.gold_count}",
            f"Predictions: {system.prediction_count}",
            f"Evaluated: {system.evaluated_count}",
            f"Missing predictions: {system.missing_prediction_count}",
            f"Extra predictions: {system.extra_prediction_count}",
            f"Accuracy: {o.accuracy:.6f}",
            f"Token F1: {o.token_f1:.6f}",
            f"ANLS: {o.anls:.6f}",
        ]
    )


def accounting_line(system: SystemResult) -> str:
    """``52 questions = 45 scored + 2 empty + 1 status_substituted + 4 missing``."""
    parts = " + ".join(f"{count} {name}" for name, count in system.accounting)
    line = f"{system.system}: {system.gold_count} questions = {parts}"
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


def leaderboard_table(result: EvaluationResult) -> Table:
    """Systems ranked by accuracy, with token F1, ANLS and the counts as k/n."""
    from rich.table import Table

    table = Table(title=f"Leaderboard ({result.profile} profile)")
    for name in ("#", "system", "accuracy", "token F1", "ANLS", "evaluated", "missing", "extra"):
        table.add_column(name, justify="left" if name == "system" else "right")
    for rank, s in enumerate(result.leaderboard(), start=1):
        o = s.overall
        table.add_row(
            str(rank), s.system, f"{o.accuracy:.4f}", f"{o.token_f1:.4f}", f"{o.anls:.4f}",
            f"{s.evaluated_count}/{s.gold_count}", str(s.missing_prediction_count),
            str(s.extra_prediction_count),
        )  # fmt: skip
    return table


def breakdown_table(result: EvaluationResult, dimension: str) -> Table:
    """Accuracy per label of one dimension, one column per system (n = questions)."""
    from rich.table import Table

    systems = result.leaderboard()
    table = Table(title=f"Accuracy by {dimension}")
    table.add_column(dimension)
    table.add_column("n", justify="right")
    for s in systems:
        table.add_column(s.system, justify="right")
    per_system = [dict(dict(s.breakdowns)[dimension]) for s in systems]
    labels = sorted({label for table_ in per_system for label in table_})
    for label in labels:
        counts = [t[label].count for t in per_system if label in t]
        cells = [f"{t[label].accuracy:.3f}" if label in t else "-" for t in per_system]
        table.add_row(label, str(max(counts)), *cells)
    return table


def print_run(result: EvaluationResult, *, dimensions: tuple[str, ...] = DIMENSIONS) -> None:
    """Print the leaderboard, the accounting and the per-slice breakdown with rich."""
    from rich.console import Console

    console = Console() if Console().is_terminal else Console(width=100)
    console.print(leaderboard_table(result))
    for system in result.leaderboard():
        console.print(accounting_line(system), highlight=False)
    for dimension in dimensions:
        console.print(breakdown_table(result, dimension))
    for line in provenance_lines(result):
        console.print(line, highlight=False)

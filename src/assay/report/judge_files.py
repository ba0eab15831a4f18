"""Renderers of judge reports and calibrations: JSON (source of truth) and terminal lines.

They read the report dict and compute nothing. JSON is written with sorted keys,
two-space indent and a final newline, so one report always gives the same bytes.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import click

from assay.errors import InputFileError


def render_judge_json(report: dict[str, Any]) -> str:
    """The report as canonical JSON text."""
    return json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


render_calibration_json = render_judge_json


def read_judge_report(path: str | Path) -> dict[str, Any]:
    """Read an ``assay judge`` report back (for calibration).

    Raises:
        InputFileError: unreadable, not UTF-8, not JSON (nested too deeply, a number
            past 4300 digits, ...), or not a judge report with items.
    """
    from assay.io.jsondoc import read_json
    from assay.io.sources import display_name

    document = read_json(path)  # ``-``, compressed, UTF-8 and strict JSON: one-line errors
    path = display_name(path)
    if not isinstance(document, dict) or document.get("kind") != "assay.judge":
        raise InputFileError(path, "not an `assay judge` report (kind 'assay.judge')",
                             field="kind")  # fmt: skip
    items = document.get("items")
    if not isinstance(items, list) or not all(
        isinstance(i, dict) and isinstance(i.get("id"), str) and isinstance(i.get("verdict"), str)
        for i in items
    ):
        raise InputFileError(path, "each item needs a string 'id' and 'verdict'", field="items")
    return document


def _number(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def print_judge_report(report: dict[str, Any], *, err: bool = False) -> None:
    """Score k/n with its interval, accounting, failure reasons, usage and signature.

    ``err``: on standard error (standard output carries the report itself).
    """
    echo = functools.partial(click.echo, err=err)
    score, accounting, usage = report["score"], report["accounting"], report["usage"]
    interval = (
        f" [{_number(score['lower'])}, {_number(score['upper'])}] ({score['interval']})"
        if score["mean"] is not None
        else ""
    )
    echo(f"judge: {_number(score['mean'])}{interval}  pass {score['k']}/{score['n']}")
    echo(f"accounting: {accounting['equation']} (checked)")
    for reason, count in report["judge_failed_reasons"].items():
        echo(f"  judge_failed: {count} × {reason}")
    cost = "" if usage["cost"] is None else f", cost {usage['cost']:.6f}"
    echo(
        f"usage: {usage['prompt_tokens']} prompt + {usage['completion_tokens']} completion = "
        f"{usage['total_tokens']} tokens over {usage['votes']} votes{cost}"
    )
    echo(f"signature: {report['signature']}")


def print_calibration(result: dict[str, Any], *, err: bool = False) -> None:
    """κ with n, observed agreement, base rates and the confusion matrix (``err``: stderr)."""
    echo = functools.partial(click.echo, err=err)
    note = f" ({result['kappa_note']})" if result["kappa_note"] else ""
    kappa = _number(result["kappa"]) + note
    echo(f"Cohen's kappa: {kappa} (n={result['n']})")
    echo(f"observed agreement: {_number(result['observed_agreement'])}")
    labels = result["labels"]
    width = max([len("human \\ judge"), *(len(label) for label in labels)])
    echo("human \\ judge".ljust(width) + "".join(f"  {label:>8}" for label in labels))
    for row in labels:
        cells = "".join(f"  {result['confusion'][row][col]:>8}" for col in labels)
        echo(row.ljust(width) + cells)
    for side in ("human", "judge"):
        rates = ", ".join(
            f"{label} {_number(rate)}" for label, rate in result["base_rates"][side].items()
        )
        echo(f"base rates ({side}): {rates}")
    skipped = result["not_compared"]
    echo(
        f"not compared: {skipped['judge_failed_or_unlabelled']} without a judge label, "
        f"{skipped['judged_without_human_label']} without a human label"
    )

"""Judge against human labels: Cohen's κ, the confusion matrix and base rates.

Human labels are JSONL rows ``{id, label}``; judge labels come from an
``assay judge`` report (each item's ``verdict``) or from a ``judge`` field in the
same rows. Items present in both with a label on both sides are compared; items
where the judge failed or a side is missing are counted, not compared.

Cohen's κ = (p_o − p_e) / (1 − p_e), p_o the observed agreement, p_e the agreement
expected from the two sides' base rates (Cohen 1960). When p_e = 1 (both sides
use one and the same label throughout) κ is undefined: ``None`` with a reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from assay.errors import InputFileError
from assay.io.jsonl import iter_jsonl


def cohen_kappa(human: Sequence[str], judge: Sequence[str]) -> float | None:
    """Cohen's κ of two label sequences of equal length (``None`` when undefined)."""
    n = len(human)
    if n == 0 or n != len(judge):
        return None
    observed = sum(a == b for a, b in zip(human, judge, strict=True)) / n
    h, j = Counter(human), Counter(judge)
    expected = sum(h[label] * j[label] for label in set(h) | set(j)) / (n * n)
    if expected == 1.0:
        return None
    return (observed - expected) / (1.0 - expected)


def read_labels(path: str | Path) -> dict[str, dict[str, Any]]:
    """Human label rows by id.

    Raises:
        InputFileError: bad JSON, a missing id or label, a duplicate id, no rows.
    """
    rows: dict[str, dict[str, Any]] = {}
    for number, row in iter_jsonl(path):
        for name in ("id", "label"):
            if not isinstance(row.get(name), str):
                raise InputFileError(path, "must be a string", line=number, field=name)
        if row["id"] in rows:
            raise InputFileError(path, f"duplicate id {row['id']!r}", line=number, field="id")
        rows[row["id"]] = row
    if not rows:
        raise InputFileError(path, "no labels; expected JSONL rows {id, label}")
    return rows


def calibration(
    human: Mapping[str, dict[str, Any]], judged: Mapping[str, str | None]
) -> dict[str, Any]:
    """κ, confusion matrix (human rows × judge columns), base rates and counts."""
    pairs = [(human[i]["label"], judged[i]) for i in sorted(human) if judged.get(i) is not None]
    h = [a for a, _ in pairs]
    j = [str(b) for _, b in pairs]
    labels = sorted(set(h) | set(j))
    confusion = {a: {b: 0 for b in labels} for a in labels}
    for a, b in zip(h, j, strict=True):
        confusion[a][b] += 1
    kappa = cohen_kappa(h, j)
    n = len(pairs)
    return {
        "n": n,
        "kappa": kappa,
        "kappa_note": "" if kappa is not None or n == 0 else "undefined: p_e = 1",
        "observed_agreement": (sum(a == b for a, b in pairs) / n) if n else None,
        "labels": labels,
        "confusion": confusion,
        "base_rates": {
            "human": {label: h.count(label) / n if n else None for label in labels},
            "judge": {label: j.count(label) / n if n else None for label in labels},
        },
        "not_compared": {
            "judge_failed_or_unlabelled": sum(1 for i in human if judged.get(i) is None),
            "judged_without_human_label": sum(1 for i in judged if i not in human),
        },
    }

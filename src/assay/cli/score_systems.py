"""``assay score METRIC --file A --file B …``: rank systems on any registered metric.

Each file is one system's pairs file (``{id, prediction, targets}`` rows, the system
named by the file stem). The files must hold the same ids with the same targets.
:func:`assay.evaluation.metric_compare.compare_on_metric` scores them, ranks them in
the metric's registered direction (error rates such as ``wer``, ``cer`` and ``ter``
rank the lowest first), groups the ties and runs the paired tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from assay.errors import InputFileError, InvalidOptionError
from assay.io.pairs import Pair, read_pairs
from assay.metrics.base import BoundMetric
from assay.stats import SystemComparison

RANK_TESTS = ("approximate_randomization", "paired_bootstrap")


def system_names(files: Sequence[Path]) -> list[str]:
    """The file stems, or the paths when two files share a stem."""
    stems = [path.stem for path in files]
    return stems if len(set(stems)) == len(stems) else [str(path) for path in files]


def aligned_systems(
    files: Sequence[Path],
) -> tuple[dict[str, list[str]], list[list[str]]]:
    """Each system's predictions in the first file's id order, and the shared targets.

    Raises:
        InputFileError: a file lacks an id of the first file, has an extra one, or gives
            an id other targets than the first file (naming file, line and field).
        InvalidOptionError: two files are the same file.
    """
    if len({path.resolve() for path in files}) != len(files):
        raise InvalidOptionError("--file: each system's file may be given only once.")
    first = list(read_pairs(files[0]))
    order = [pair.id for pair in first]
    targets = {pair.id: pair.targets for pair in first}
    predictions: dict[str, list[str]] = {}
    for name, path in zip(system_names(files), files, strict=True):
        rows = first if path == files[0] else list(read_pairs(path))
        predictions[name] = _in_order(rows, order, targets, path)
    return predictions, [list(targets[i]) for i in order]


def _in_order(
    rows: list[Pair], order: list[str], targets: dict[str, tuple[str, ...]], path: Path
) -> list[str]:
    by_id = {}
    for pair in rows:
        if pair.id not in targets:
            raise InputFileError(
                pair.path, f"id {pair.id!r} is not in the first file; every system must "
                "score the same ids", line=pair.line, field="id",
            )  # fmt: skip
        if pair.targets != targets[pair.id]:
            raise InputFileError(
                pair.path, f"targets of id {pair.id!r} differ from the first file's; give "
                "every system the same targets", line=pair.line, field="targets",
            )  # fmt: skip
        by_id[pair.id] = pair.prediction
    missing = [i for i in order if i not in by_id]
    if missing:
        raise InputFileError(
            str(path), f"id {missing[0]!r} of the first file is missing ({len(missing)} "
            "missing); every system must score the same ids", field="id",
        )  # fmt: skip
    return [by_id[i] for i in order]


def leaderboard_lines(bound: BoundMetric, compared: SystemComparison, n: int) -> list[str]:
    """The leaderboard and the pairwise tests as text lines (best system first)."""
    from assay.report.result.markdown import trials_phrase

    name = bound.spec.name
    better = "higher" if compared.higher_is_better else "lower"
    lines = [
        f"{name} ({better} is better): {len(compared.systems)} systems on n={n} items; "
        f"{compared.method}, {trials_phrase(compared.to_dict())}, seed {compared.seed}, "
        f"alpha {compared.alpha}, Holm; ties count towards p",
    ]
    width = max(len("system"), *(len(s) for s in compared.systems))
    lines.append(f"{'rank':<4}  {'system':<{width}}  {name}")
    for system, group, score in zip(
        compared.systems, compared.ties.groups, compared.scores, strict=True
    ):
        value = "n/a" if score is None else f"{score:.6f}"
        lines.append(f"{group:<4}  {system:<{width}}  {value}")
    for pair in compared.pairs:
        p = "n/a" if pair.test.p_value is None else f"{pair.test.p_value:.4f}"
        holm = "n/a" if pair.p_holm is None else f"{pair.p_holm:.4f}"
        verdict = (
            "significant" if pair.p_holm is not None and pair.p_holm <= compared.alpha else "tie"
        )
        lines.append(f"{pair.a} vs {pair.b}: p {p}, holm {holm} ({verdict})")
    lines.append(f"signature: {bound.signature}")
    return lines


def echo_ranking(
    bound: BoundMetric,
    files: Sequence[Path],
    options: dict[str, Any],
    *,
    method: str,
    trials: int | None,
    seed: int,
) -> None:
    """Score, rank and print the systems of ``files`` (multi-file ``assay score``).

    The rank column is the tie group: systems no significant difference separates
    share a number.
    """
    from assay.evaluation.metric_compare import compare_on_metric

    predictions, targets = aligned_systems(files)
    compared = compare_on_metric(
        bound.spec.name, predictions, targets, options=options,
        method=method, n_resamples=trials, seed=seed, ties_count=True,
    )  # fmt: skip
    for line in leaderboard_lines(bound, compared, len(targets)):
        click.echo(line)

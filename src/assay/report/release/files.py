"""Write a run's report files; every byte comes from the renderers in this package.

:func:`planned_outputs` lists every file a run will write (the ``xldocbench``
sidecar, when asked for, and the results files included) so the command can check
them all against its inputs before writing; :func:`stage_outputs` stages exactly those files (each
whole, beside its target) for :func:`assay.io.commit.commit_together` to put in place
with the rest of the run's outputs, holding the results folder's lock; and
:func:`write_outputs` does both at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from assay.evaluation.runs import EvaluationResult
from assay.io.commit import commit_together
from assay.io.output import StagedFile, directory_lock, is_stdout, stage_file, write_file
from assay.report.release.csv import per_question_csv
from assay.report.release.json import (
    dumps,
    provenance_block,
    question_rows,
    report_document,
    sidecar_path,
)
from assay.report.release.results import scores_jsonl, summary_json


@dataclass
class Written:
    """The files a run wrote, for the closing message."""

    paths: list[Path] = field(default_factory=list)


Staged = tuple[list[StagedFile], list[tuple[Path, str]], list[tuple[Path, str, str]]]
"""What :func:`stage_outputs` made: the staged files, the folder locks their commit
takes (``(folder, option)``), and the texts for standard output (``(path, text, option)``,
written when the rest is committed)."""


def _stage(path: Path, text: str, staged: Staged, option: str) -> None:
    if is_stdout(path):
        staged[2].append((path, text, option))
    else:
        staged[0].append(stage_file(path, text, option=option))


def results_folder(results_dir: str | Path) -> Path:
    """Where ``scores.jsonl``/``summary.json`` go: ``DIR/results``, or DIR if it is named so."""
    folder = Path(results_dir)
    return folder if folder.name == "results" else folder / "results"


def writes_sidecar(profile: str, system_count: int) -> bool:
    """Whether a JSON report can get a ``.provenance.json`` sidecar (``xldocbench``, one system).

    Only that report lacks an ``assay`` block; the sidecar is written only when asked for
    (``sidecar=True``, the CLI's ``--provenance-sidecar``): the released evaluator
    writes no such file.
    """
    return profile == "xldocbench" and system_count == 1


def planned_outputs(
    profile: str,
    system_count: int,
    *,
    output: str | Path | None = None,
    per_question_csv_path: str | Path | None = None,
    results_dir: str | Path | None = None,
    sidecar: bool = False,
) -> list[tuple[str, Path]]:
    """Every ``(option, file)`` :func:`write_outputs` would write with these arguments."""
    planned: list[tuple[str, Path]] = []
    if output is not None:
        planned.append(("--output", Path(output)))
        if sidecar and writes_sidecar(profile, system_count):
            planned.append(("--output (provenance sidecar)", sidecar_path(output)))
    if per_question_csv_path is not None:
        planned.append(("--per-question-csv", Path(per_question_csv_path)))
    if results_dir is not None:
        folder = results_folder(results_dir)
        planned.append(("--results-dir", folder / "scores.jsonl"))
        planned.append(("--results-dir", folder / "summary.json"))
    return planned


def write_outputs(
    result: EvaluationResult,
    *,
    output: str | Path | None = None,
    per_question_csv_path: str | Path | None = None,
    per_question_json: bool = True,
    results_dir: str | Path | None = None,
    sidecar: bool = False,
) -> Written:
    """Write the report files that were asked for, all together (:func:`stage_outputs`).

    Raises:
        OutputFileError: a file cannot be written, or another run holds the results
            folder's lock.
    """
    staged = stage_outputs(
        result, output=output, per_question_csv_path=per_question_csv_path,
        per_question_json=per_question_json, results_dir=results_dir, sidecar=sidecar,
    )  # fmt: skip
    return Written(commit_staged(staged))


def commit_staged(staged: Staged, more: list[StagedFile] | None = None) -> list[Path]:
    """Put the staged files (and ``more``) in place together, then write standard output."""
    files, locks, stdout = staged
    paths = commit_together([*files, *(more or [])], locks)
    return paths + [write_file(path, text, option=option) for path, text, option in stdout]


def stage_outputs(
    result: EvaluationResult,
    *,
    output: str | Path | None = None,
    per_question_csv_path: str | Path | None = None,
    per_question_json: bool = True,
    results_dir: str | Path | None = None,
    sidecar: bool = False,
) -> Staged:
    """Stage the report files that were asked for; nothing is in place yet.

    The JSON report (plus, under ``xldocbench`` with ``sidecar``, its ``.provenance.json``
    sidecar), the
    per-question CSV and the release-style results files. An error or an interrupt
    part-way removes what was staged.

    Raises:
        OutputFileError: a file cannot be written, or another run holds the results
            folder's lock.
    """
    staged: Staged = ([], [], [])
    try:
        _stage_all(result, staged, output, per_question_csv_path, per_question_json,
                   results_dir, sidecar)  # fmt: skip
    except BaseException:
        for file in staged[0]:
            file.discard()
        raise
    return staged


def _stage_all(
    result: EvaluationResult,
    staged: Staged,
    output: str | Path | None,
    per_question_csv_path: str | Path | None,
    per_question_json: bool,
    results_dir: str | Path | None,
    sidecar: bool = False,
) -> None:
    rows = {}  # each system's rounded question rows, made once for the JSON and the CSV
    if per_question_csv_path is not None or (output is not None and per_question_json):
        seen: dict[float, float] = {}
        rows = {s.system: question_rows(s, seen) for s in result.systems}
    if output is not None:
        output = Path(output)
        document = report_document(result, per_question=per_question_json, rows=rows)
        released = result.profile == "xldocbench"
        _stage(output, dumps(document, final_newline=not released), staged, "--output")
        if sidecar and writes_sidecar(result.profile, len(result.systems)):
            _stage(sidecar_path(output), dumps(provenance_block(result)), staged, "--output")
    if per_question_csv_path is not None:
        text = per_question_csv(result, rows)
        _stage(Path(per_question_csv_path), text, staged, "--per-question-csv")
    if results_dir is not None:
        scores, summary = scores_jsonl(result, rows), summary_json(result)
        # the lock now: another run writing the folder is refused before anything is
        # staged; the commit takes it again while it renames
        with directory_lock(results_folder(results_dir), option="--results-dir") as folder:
            _stage(folder / "scores.jsonl", scores, staged, "--results-dir")
            _stage(folder / "summary.json", summary, staged, "--results-dir")
        staged[1].append((folder, "--results-dir"))

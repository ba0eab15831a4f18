"""Write a run's report files; every byte comes from the renderers in this package.

:func:`planned_outputs` lists every file a run will write (the ``xldocbench``
sidecar and the results files included) so the command can check them all against
its inputs before writing; :func:`write_outputs` writes exactly those files through
the atomic writer, holding the results folder's lock while its two files are written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from assay.evaluation.runs import EvaluationResult
from assay.io.output import directory_lock, write_file
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


def _write(path: Path, text: str, written: Written, option: str) -> None:
    written.paths.append(write_file(path, text, option=option))


def results_folder(results_dir: str | Path) -> Path:
    """Where ``scores.jsonl``/``summary.json`` go: ``DIR/results``, or DIR if it is named so."""
    folder = Path(results_dir)
    return folder if folder.name == "results" else folder / "results"


def writes_sidecar(profile: str, system_count: int) -> bool:
    """Whether a JSON report gets a ``.provenance.json`` sidecar (``xldocbench``, one system)."""
    return profile == "xldocbench" and system_count == 1


def planned_outputs(
    profile: str,
    system_count: int,
    *,
    output: str | Path | None = None,
    per_question_csv_path: str | Path | None = None,
    results_dir: str | Path | None = None,
) -> list[tuple[str, Path]]:
    """Every ``(option, file)`` :func:`write_outputs` would write with these arguments."""
    planned: list[tuple[str, Path]] = []
    if output is not None:
        planned.append(("--output", Path(output)))
        if writes_sidecar(profile, system_count):
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
) -> Written:
    """Write the report files that were asked for.

    The JSON report (plus, under ``xldocbench``, its ``.provenance.json`` sidecar), the
    per-question CSV and the release-style results files.

    Raises:
        OutputFileError: a file cannot be written, or another run holds the results
            folder's lock.
    """
    written = Written()
    rows = {}  # each system's rounded question rows, made once for the JSON and the CSV
    if per_question_csv_path is not None or (output is not None and per_question_json):
        seen: dict[float, float] = {}
        rows = {s.system: question_rows(s, seen) for s in result.systems}
    if output is not None:
        output = Path(output)
        document = report_document(result, per_question=per_question_json, rows=rows)
        released = result.profile == "xldocbench"
        _write(output, dumps(document, final_newline=not released), written, "--output")
        if writes_sidecar(result.profile, len(result.systems)):
            _write(sidecar_path(output), dumps(provenance_block(result)), written, "--output")
    if per_question_csv_path is not None:
        text = per_question_csv(result, rows)
        _write(Path(per_question_csv_path), text, written, "--per-question-csv")
    if results_dir is not None:
        scores, summary = scores_jsonl(result, rows), summary_json(result)
        with directory_lock(results_folder(results_dir), option="--results-dir") as folder:
            _write(folder / "scores.jsonl", scores, written, "--results-dir")
            _write(folder / "summary.json", summary, written, "--results-dir")
    return written

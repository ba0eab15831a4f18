"""Write a run's report files; every byte comes from the renderers in this package."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from assay.evaluation.runs import EvaluationResult
from assay.io.output import write_file
from assay.report.release.csv import per_question_csv
from assay.report.release.json import dumps, provenance_block, report_document, sidecar_path
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
    """
    written = Written()
    if output is not None:
        output = Path(output)
        document = report_document(result, per_question=per_question_json)
        _write(output, dumps(document), written, "--output")
        if result.profile == "xldocbench" and len(result.systems) == 1:
            _write(sidecar_path(output), dumps(provenance_block(result)), written, "--output")
    if per_question_csv_path is not None:
        _write(Path(per_question_csv_path), per_question_csv(result), written, "--per-question-csv")
    if results_dir is not None:
        folder = results_folder(results_dir)
        _write(folder / "scores.jsonl", scores_jsonl(result), written, "--results-dir")
        _write(folder / "summary.json", summary_json(result), written, "--results-dir")
    return written

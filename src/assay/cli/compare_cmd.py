"""``assay compare``: leaderboard with intervals and tie groups, pairwise tests."""

from __future__ import annotations

from pathlib import Path

import click

from assay.cli.eval_cmd import run_evaluation, write_comparison_files
from assay.cli.options import input_options, stats_options
from assay.evaluation.compare import CompareOptions, result_document
from assay.io.output import refuse_overwriting_inputs


@click.command("compare")
@input_options
@stats_options
def compare_command(
    predictions: tuple[Path, ...],
    named: tuple[str, ...],
    gold_files: tuple[Path, ...],
    more_gold_files: tuple[Path, ...],
    data_dir: Path | None,
    prediction_field: str | None,
    ignore_missing: bool,
    profile: str,
    duplicates: str | None,
    metric: str,
    method: str,
    trials: int | None,
    seed: int,
    result_json: Path | None,
    html_path: Path | None,
    markdown_path: Path | None,
) -> None:
    """Compare systems on the same questions: intervals, paired tests, tie groups.

    Takes the same inputs as `assay eval`, or one saved JSON: an assay result
    (`assay compare assay-result.json`, statistics shown as saved) or a report.json
    with per-question rows (statistics computed from its saved scores), or several
    saved report.json files (`assay compare a.json b.json`, system = file stem).
    """
    from assay.report.result_terminal import print_result

    refuse_overwriting_inputs(
        {"--result-json": result_json, "--html": html_path, "--markdown": markdown_path},
        [*gold_files, *more_gold_files, *predictions, *(n.partition("=")[2] for n in named)],
    )
    saved = (
        len(more_gold_files) > 1
        and not (gold_files or predictions or named or data_dir)
        and all(p.suffix == ".json" for p in more_gold_files)
    )
    if saved:
        from assay.report.result_json import load_reports

        options = CompareOptions(metric=metric, method=method, n_resamples=trials, seed=seed)
        document = load_reports(list(more_gold_files), options)
    elif len(more_gold_files) == 1 and not gold_files and more_gold_files[0].suffix == ".json":
        from assay.report.result_json import load_result

        options = CompareOptions(metric=metric, method=method, n_resamples=trials, seed=seed)
        document = load_result(more_gold_files[0], options)
        if document.get("kind") != "assay.result":
            raise click.UsageError(f"{more_gold_files[0]} is not a multi-system assay result")
    else:
        result = run_evaluation(
            predictions, named, gold_files, more_gold_files, data_dir,
            prediction_field=prediction_field, ignore_missing=ignore_missing,
            profile=profile, duplicates=duplicates,
        )  # fmt: skip
        options = CompareOptions(metric=metric, method=method, n_resamples=trials, seed=seed)
        document = result_document(result, options)
    written = write_comparison_files(document, result_json, html_path, markdown_path)
    print_result(document)
    for path in written:
        click.echo(f"wrote {path}")

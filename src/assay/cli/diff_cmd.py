"""``assay diff``: what changed between two saved reports (definitions checked first)."""

from __future__ import annotations

from pathlib import Path

import click

from assay.cli.stdout import echo_written, stdout_taken

_FILE = click.Path(dir_okay=False, path_type=Path)


@click.command("diff", short_help="Compare two reports: definition changes, then flips.")
@click.argument("old_report", type=_FILE)
@click.argument("new_report", type=_FILE)
@click.option(
    "--pass-threshold",
    type=click.FloatRange(0.0, 1.0),
    default=0.5,
    show_default=True,
    help="A score at or above this passes (0/1 accuracy: correct).",
)
@click.option("--output", "output_path", type=_FILE, default=None,
              help="Also write the diff as JSON to this file.")  # fmt: skip
def diff_command(
    old_report: Path, new_report: Path, pass_threshold: float, output_path: Path | None
) -> None:
    """Per item and metric: flips, score deltas, and whether the definitions match.

    OLD_REPORT and NEW_REPORT are saved reports (report.json with its provenance
    sidecar, or assay-result.json). Systems are matched by name; two single-system
    reports match each other. Profile, fingerprint and signature changes print first.
    """
    from assay.evaluation.diff import diff_reports
    from assay.io.output import refuse_overwriting_inputs
    from assay.report.diff_text import render_diff_text
    from assay.report.release.json import read_report, sidecar_path
    from assay.report.result.json import dumps_result, write_text

    refuse_overwriting_inputs(
        {"--output": output_path},
        [old_report, new_report, sidecar_path(old_report), sidecar_path(new_report)],
    )
    old, new = read_report(old_report), read_report(new_report)
    diff = diff_reports(
        old, new, pass_threshold=pass_threshold, old_name=str(old_report), new_name=str(new_report)
    )
    click.echo(render_diff_text(diff), nl=False, err=stdout_taken([output_path]))
    if output_path is not None:
        echo_written([write_text(output_path, dumps_result(diff), "--output")])

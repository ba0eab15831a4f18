"""``assay report``: re-render a saved result JSON as Markdown, HTML, CSV or Parquet.

No raw inputs are read: everything comes from the saved document.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import click

from assay.cli.stdout import echo_written

_FILE = click.Path(dir_okay=False, path_type=Path)


@click.command("report", short_help="Re-render a saved report as Markdown, HTML, CSV or Parquet.")
@click.argument("report_json", type=_FILE)
@click.option(
    "--format", "fmt", type=click.Choice(["md", "html", "csv", "parquet"]), required=True,
    help="Output format (parquet: the per-item frame; needs pip install 'assay[parquet]').",
)  # fmt: skip
@click.option(
    "--output", type=_FILE, required=True, help="Where to write the file (- for standard output)."
)
@click.option(
    "--timestamp",
    is_flag=True,
    help="HTML only: show the generation time in the footer (off: byte-identical output).",
)
@click.option(
    "--scatter", "scatters", multiple=True, metavar="X:Y",
    help="Add a per-item scatter of metric X against metric Y (Spearman's rho, n) "
    "to the HTML report, e.g. --scatter greedy_match:rouge_l (repeatable).",
)  # fmt: skip
def report_command(
    report_json: Path, fmt: str, output: Path, timestamp: bool, scatters: tuple[str, ...]
) -> None:
    """Render REPORT_JSON (from `assay compare`, `eval --result-json`, `demo` or `structured`)."""
    from assay.io.output import refuse_overwriting_inputs
    from assay.report.release.json import sidecar_path
    from assay.report.result.json import load_result, write_text

    refuse_overwriting_inputs({"--output": output}, [report_json, sidecar_path(report_json)])
    from assay.evaluation.scatter import add_scatters, check_saved_scatters

    document = load_result(report_json)
    check_saved_scatters(document, str(report_json))
    document = add_scatters(document, scatters)
    if fmt == "parquet":
        from assay.io.output import write_bytes
        from assay.report.parquet import render_parquet

        echo_written([write_bytes(output, render_parquet(document), option="--output")])
        return
    if fmt == "md":
        from assay.report.result.markdown import render_result_markdown

        text = render_result_markdown(document)
    elif fmt == "csv":
        from assay.report.result.csv import render_result_csv

        text = render_result_csv(document)
    else:
        from assay.report.result.html import render_html

        stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC") if timestamp else None
        text = render_html(document, timestamp=stamp)
    echo_written([write_text(output, text)])

"""``assay compare``: leaderboard with intervals and tie groups, pairwise tests."""

from __future__ import annotations

import click

from assay.cli.eval_cmd import (
    RENDERING,
    STATISTICS,
    input_files,
    phase,
    run_evaluation,
    write_comparison_files,
)
from assay.cli.options import InputArgs, StatsArgs, input_options, stats_options
from assay.cli.stdout import echo_written, side_console, stdout_taken
from assay.evaluation.compare import result_document
from assay.evaluation.scatter import add_scatters
from assay.io.output import refuse_overwriting_inputs

SCATTER_HELP = (
    "Plot metric X against metric Y per item in the HTML report, with Spearman's rho "
    "and its n, e.g. --scatter greedy_match:rouge_l (repeatable; any registered metric)."
)

@click.command("compare", short_help="Rank systems: intervals, paired tests, tie groups.")
@input_options
@stats_options
@click.option("--scatter", "scatters", multiple=True, metavar="X:Y", help=SCATTER_HELP)
def compare_command(inputs: InputArgs, stats: StatsArgs, scatters: tuple[str, ...]) -> None:
    """Compare systems on the same questions: intervals, paired tests, tie groups.

    Takes the same inputs as `assay eval`, or one saved JSON: an assay result
    (`assay compare assay-result.json`, statistics shown as saved) or a report.json
    with per-question rows (statistics computed from its saved scores), or several
    saved report.json files (`assay compare a.json b.json`, system = file stem).
    """
    from assay.report.result.terminal import print_result

    refuse_overwriting_inputs(
        {"--result-json": stats.result_json, "--html": stats.html_path,
         "--markdown": stats.markdown_path},
        input_files(inputs),
    )  # fmt: skip
    options = stats.compare_options()
    files = inputs.more_gold_files
    other_inputs = inputs.gold_files or inputs.predictions or inputs.named or inputs.data_dir
    if len(files) > 1 and not other_inputs and all(p.suffix == ".json" for p in files):
        from assay.report.result.json import load_reports

        document = load_reports(list(files), options)
    elif len(files) == 1 and not inputs.gold_files and files[0].suffix == ".json":
        from assay.report.result.json import load_result

        document = load_result(files[0], options)
        if document.get("kind") != "assay.result":
            raise click.UsageError(f"{files[0]} is not a multi-system assay result")
    else:
        result = run_evaluation(inputs)
        with phase(STATISTICS):
            document = result_document(result, options)
    document = add_scatters(document, scatters)
    with phase(RENDERING, active=bool(stats.result_json or stats.html_path or stats.markdown_path)):
        written = write_comparison_files(
            document, stats.result_json, stats.html_path, stats.markdown_path
        )
    print_result(document, side_console(stdout_taken(written)))
    echo_written(written)

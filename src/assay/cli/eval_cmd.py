"""``assay eval``: the released evaluator's options, several systems, two profiles."""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from assay.cli.forked import in_child
from assay.cli.options import (
    InputArgs,
    StatsArgs,
    input_options,
    partition_lines,
    stats_options,
)
from assay.cli.progress import is_quiet
from assay.cli.progress import phase as phase  # re-exported (compare, demo)
from assay.cli.progress import progress_bar as progress_bar  # re-exported (code, demo)
from assay.cli.stdout import side_console, stdout_taken
from assay.collector import collector_paused
from assay.errors import CoverageWarning, InvalidOptionError, OutputFileError
from assay.evaluation.profiles import get_profile
from assay.evaluation.runs import (
    DEFAULT_GOLD_NAMES,
    EvaluationResult,
    SystemInput,
    default_gold_files,
    evaluate,
)
from assay.io.commit import plan
from assay.io.output import StagedFile, is_stdout, refuse_overwriting_inputs
from assay.io.sources import STDIN, base_name

PREDICTION_SUFFIXES = (".jsonl", ".json", ".csv", ".tsv", ".parquet", ".pq")


def system_name(path: Path) -> str:
    """A system's name from its file: ``stdin`` for ``-``, else the name without suffixes.

    A compression suffix goes too: ``atlas.jsonl.gz`` → ``atlas``.
    """
    return "stdin" if str(path) == STDIN else Path(base_name(path)).stem


def is_prediction_file(path: Path) -> bool:
    """A file in a ``--predictions`` folder that is read: by suffix, compressed or not."""
    return path.is_file() and Path(base_name(path)).suffix in PREDICTION_SUFFIXES


def systems_from_options(
    predictions: tuple[Path, ...], named: tuple[str, ...]
) -> list[SystemInput]:
    """Systems from ``--predictions`` (files, or directories of files) and ``--system N=F``."""
    systems: list[SystemInput] = []
    for path in predictions:
        if path.is_dir():
            files = sorted(p for p in path.iterdir() if is_prediction_file(p))
            if not files:
                raise InvalidOptionError(
                    f"--predictions {path}: no .jsonl or .json files "
                    "(nor .csv, .tsv, .parquet) in it"
                )
            systems += [SystemInput(system_name(f), (str(f),)) for f in files]
        else:
            systems.append(SystemInput(system_name(path), (str(path),)))
    for item in named:
        name, sep, file = item.partition("=")
        if not sep or not name or not file:
            raise InvalidOptionError(f"--system {item!r}: expected NAME=FILE")
        systems.append(SystemInput(name, (file,)))
    if not systems:
        raise InvalidOptionError("give --predictions FILE|DIR (repeatable) or --system NAME=FILE")
    return systems


STATISTICS = "statistics: intervals, paired tests, tie groups"
RENDERING = "writing reports"


@click.command("eval", short_help="Score prediction files against QA gold files.")
@input_options
@click.option(
    "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write the JSON report here."
)
@click.option(
    "--per-question-csv",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the per-question CSV here.",
)
@click.option("--no-per-question-json", is_flag=True, help="Leave per_question out of the JSON.")
@click.option(
    "--results-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write results/scores.jsonl and results/summary.json under DIR.",
)
@click.option(
    "--provenance-sidecar",
    is_flag=True,
    help="With --profile xldocbench and --output REPORT: also write the provenance "
    "(profile, fingerprint, signatures, options) to REPORT.provenance.json. "
    "Without it the provenance goes to stderr only.",
)
@stats_options
@collector_paused()  # the run's records stay alive to the end: collector passes free nothing
def eval_command(
    inputs: InputArgs,
    stats: StatsArgs,
    output: Path | None,
    per_question_csv: Path | None,
    no_per_question_json: bool,
    results_dir: Path | None,
    provenance_sidecar: bool,
) -> None:
    """Score prediction files against a long-document QA benchmark's gold files.

    Gold comes from --data-dir or --gold-files (more gold files may follow as
    arguments: --gold-files A.jsonl B.jsonl); one system per prediction file.
    Under --profile xldocbench with one prediction file, stdout is the released
    summary alone and only the files the released evaluator writes are written;
    input warnings, the provenance and the "wrote FILE" lines go to stderr.
    """
    from assay.report.release.files import planned_outputs, stage_outputs, writes_sidecar
    from assay.report.release.terminal import accounting_line, provenance_lines, release_summary

    gold, systems = resolve_inputs(inputs)
    if provenance_sidecar and (output is None or not writes_sidecar(inputs.profile, len(systems))):
        raise click.UsageError(
            "--provenance-sidecar needs --output and --profile xldocbench with one system "
            "(other reports carry the provenance in their 'assay' block)"
        )
    planned: list[tuple[str, Path | None]] = []
    planned += planned_outputs(
        inputs.profile, len(systems), output=output, per_question_csv_path=per_question_csv,
        results_dir=results_dir, sidecar=provenance_sidecar,
    )  # fmt: skip
    planned += [("--result-json", stats.result_json), ("--html", stats.html_path),
                ("--markdown", stats.markdown_path)]  # fmt: skip
    refuse_overwriting_inputs(planned, [*gold, *(f for s in systems for f in s.files)])
    plan(path for _, path in planned if path is not None and not is_stdout(path))
    result = evaluate_inputs(inputs, gold, systems)
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    several = len(result.systems) > 1
    released_layout = result.profile == "xldocbench" and not several
    to_err = stdout_taken(path for _, path in planned)
    compared = several or bool(stats.result_json or stats.html_path or stats.markdown_path)
    forking = compared and not any(is_stdout(path) for _, path in planned)
    release_files = in_child(
        lambda: stage_outputs(
            result,
            output=output,
            per_question_csv_path=per_question_csv,
            per_question_json=not no_per_question_json,
            results_dir=results_dir,
            sidecar=provenance_sidecar,
        ),
        # the release files staged by a second process while this one computes the
        # statistics; every output is put in place together at the end
        enabled=forking,
    )
    document = None
    rendered: list[Rendered] = []
    try:
        if compared:
            from assay.evaluation.compare import result_document  # preloaded (numpy)

            with phase(STATISTICS):
                document = result_document(result, stats.compare_options())
            with phase(RENDERING):
                rendered = render_comparison_files(
                    document, stats.result_json, stats.html_path, stats.markdown_path,
                    forked=forking,
                )  # fmt: skip
    finally:
        try:
            staged = release_files()  # its error first, as when it ran before the statistics
        except BaseException:
            discard_rendered(rendered)
            raise
    written = write_rendered(rendered, staged)  # every output in place in one step
    if document is None or not several:
        released = result.profile == "xldocbench"
        click.echo(release_summary(result.systems[0], released=released), err=to_err)
        if not released:
            ignoring = bool(dict(result.options).get("ignore_missing"))
            click.echo(accounting_line(result.systems[0], ignoring), err=to_err)
        # the released stdout is the summary alone: the provenance goes to stderr there
        if not (released and is_quiet()):
            click.echo("\n".join(provenance_lines(result)), err=to_err or released)
    else:
        from assay.report.result.terminal import print_result

        print_result(document, side_console(to_err))
    for path in written:  # the released stdout is the summary alone
        if not is_stdout(path) and not is_quiet():
            click.echo(f"wrote {path}", err=released_layout or to_err)


def input_files(inputs: InputArgs) -> list[Path]:
    """Every file the input options may read: directories expanded, report sidecars added."""
    from assay.report.release.json import sidecar_path

    files = [*inputs.gold_files, *inputs.more_gold_files]
    files += [sidecar_path(p) for p in inputs.more_gold_files]
    for path in inputs.predictions:
        files += sorted(path.iterdir()) if path.is_dir() else [path]
    files += [Path(n.partition("=")[2]) for n in inputs.named]
    if inputs.data_dir is not None:
        files += [inputs.data_dir / name for name in DEFAULT_GOLD_NAMES]
    return files


def resolve_inputs(inputs: InputArgs) -> tuple[list[Path], list[SystemInput]]:
    """The gold files and the systems the input options name (directories expanded)."""
    gold = list(inputs.gold_files) + list(inputs.more_gold_files)
    if inputs.more_gold_files and not inputs.gold_files:
        raise click.UsageError(f"unexpected argument(s) {[str(p) for p in inputs.more_gold_files]}")
    if not gold:
        data_dir = inputs.data_dir
        keep_empty = get_profile(inputs.profile).reads_as_released  # as released: no questions
        gold = default_gold_files(
            data_dir if data_dir is not None else Path("."), keep_empty=keep_empty
        )
    return gold, systems_from_options(inputs.predictions, inputs.named)


def evaluate_inputs(
    inputs: InputArgs, gold: list[Path], systems: list[SystemInput]
) -> EvaluationResult:
    """Evaluate resolved gold files and systems under the input options.

    The coverage warnings are the result's (printed by the command), not Python's.
    """
    with progress_bar(len(systems)) as progress, warnings.catch_warnings():
        warnings.simplefilter("ignore", CoverageWarning)
        return evaluate(
            gold,
            systems,
            profile=inputs.profile,
            prediction_field=inputs.prediction_field,
            ignore_missing=inputs.ignore_missing,
            duplicate_policy=inputs.duplicates,
            progress=progress,
            executor=inputs.dask,
            partition_progress=partition_lines(inputs.dask),
            # the later systems scored by a forked child on the second core
            background=scoring_child if inputs.dask is None else None,
            background_lead=PRELOAD_BYTES,
        )


PRELOAD_BYTES = 2_000_000
"""What :func:`preload` costs, in prediction bytes' worth of scoring (~0.13 s here)."""


def scoring_child(task: Callable[[], Any]) -> Callable[[], Any]:
    """Start ``task`` in a forked child, then :func:`preload` here while it runs."""
    wait = in_child(task)
    try:
        preload()
    except BaseException:
        wait()  # reap the child
        raise
    return wait


PRELOADED = (
    "assay.evaluation.compare",
    "assay.report.result.terminal",
    "rich.console",
    "rich.table",
    "rich.text",
)


def preload() -> None:
    """Import what the statistics and the terminal view use (numpy, rich) ahead of need.

    Called while a child scores systems: the imports take no time of their own then.
    """
    for name in PRELOADED:
        importlib.import_module(name)


def run_evaluation(inputs: InputArgs) -> EvaluationResult:
    """Resolve gold files and systems from the input options and evaluate them.

    The result's warnings (input oddities, systems matching few gold ids) go to stderr.
    """
    result = evaluate_inputs(inputs, *resolve_inputs(inputs))
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    return result


def write_comparison_files(
    document: dict[str, Any],
    result_json: Path | None,
    html_path: Path | None,
    markdown_path: Path | None,
) -> list[Path]:
    """Write the result JSON, HTML and Markdown that were asked for; return their paths."""
    texts = render_comparison_files(document, result_json, html_path, markdown_path)
    return write_rendered(texts)


if TYPE_CHECKING:
    from assay.report.release.files import Staged

Rendered = tuple[Path, str | StagedFile | OutputFileError, str]
"""A file to write: its path, its text (or its staged content, or the error staging
it met, raised when its turn to be written comes) and the option naming it."""


def render_comparison_files(
    document: dict[str, Any],
    result_json: Path | None,
    html_path: Path | None,
    markdown_path: Path | None,
    *,
    forked: bool = False,
) -> list[Rendered]:
    """The ``(path, text, option)`` of each result JSON, HTML and Markdown asked for.

    ``forked``: the result JSON is made by a forked child while this process renders
    the HTML and Markdown (see :mod:`assay.cli.forked`), and the child also writes it
    to a temporary file beside its target (:func:`assay.io.output.stage_file`): the
    entry holds that staged file, put in place by :func:`write_rendered` in its turn
    (the same bytes), so the text never crosses the pipe.
    """
    from assay.report.result.json import dumps_result

    json_text: Callable[[], str | StagedFile | OutputFileError] | None = None
    if result_json is not None:
        json_text = (
            in_child(lambda: _staged(result_json, dumps_result(document)))
            if forked
            else in_child(lambda: dumps_result(document), enabled=False)
        )
    texts: list[Rendered] = []
    try:
        if html_path is not None:
            from assay.report.result.html import render_html

            texts.append((html_path, render_html(document), "--html"))
        if markdown_path is not None:
            from assay.report.result.markdown import render_result_markdown

            texts.append((markdown_path, render_result_markdown(document), "--markdown"))
    except BaseException:
        if json_text is not None:
            discard_rendered([(Path(), json_text(), "")])
        raise
    text = None if json_text is None else json_text()
    if result_json is not None and text is not None:
        texts.insert(0, (result_json, text, "--result-json"))
    return texts


def _staged(path: Path, text: str) -> StagedFile | OutputFileError:
    """``text`` staged for ``path`` (see :func:`render_comparison_files`), or the error met."""
    from assay.io.output import stage_file

    try:
        return stage_file(path, text, option="--result-json")
    except OutputFileError as error:  # raised where writing the file in line would raise it
        return error


def write_rendered(texts: list[Rendered], release: Staged | None = None) -> list[Path]:
    """Write rendered files (see :func:`render_comparison_files`) with ``release``'s; paths.

    Every file is staged first, then all are put in place together
    (:func:`assay.report.release.files.commit_staged`): an error or an interrupt
    before that leaves every target as it was, and no temporary file.
    """
    from assay.io.output import stage_file
    from assay.report.release.files import commit_staged

    staged: Staged = release or ([], [], [])
    files: list[StagedFile] = []
    try:
        for path, text, option in texts:
            if isinstance(text, OutputFileError):
                raise text
            if isinstance(text, StagedFile):
                files.append(text)
            elif is_stdout(path):
                staged[2].append((path, text, option))
            else:
                files.append(stage_file(path, text, option=option))
    except BaseException:
        discard_rendered(texts)
        for file in (*staged[0], *files):
            file.discard()
        raise
    return commit_staged(staged, files)


def discard_rendered(texts: list[Rendered]) -> None:
    """Remove the staged files among ``texts`` (they will not be written)."""
    for _, text, _ in texts:
        if isinstance(text, StagedFile):
            text.discard()

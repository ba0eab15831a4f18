"""``assay eval``: the released evaluator's options, several systems, two profiles."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from assay.errors import InvalidOptionError
from assay.evaluation.profiles import DUPLICATE_POLICIES, PROFILES
from assay.evaluation.runs import SystemInput, default_gold_files, evaluate

PREDICTION_SUFFIXES = (".jsonl", ".json")


def systems_from_options(
    predictions: tuple[Path, ...], named: tuple[str, ...]
) -> list[SystemInput]:
    """Systems from ``--predictions`` (files, or directories of files) and ``--system N=F``."""
    systems: list[SystemInput] = []
    for path in predictions:
        if path.is_dir():
            files = sorted(p for p in path.iterdir() if p.suffix in PREDICTION_SUFFIXES)
            if not files:
                raise InvalidOptionError(f"--predictions {path}: no .jsonl or .json files in it")
            systems += [SystemInput(f.stem, (str(f),)) for f in files]
        else:
            systems.append(SystemInput(path.stem, (str(path),)))
    for item in named:
        name, sep, file = item.partition("=")
        if not sep or not name or not file:
            raise InvalidOptionError(f"--system {item!r}: expected NAME=FILE")
        systems.append(SystemInput(name, (file,)))
    if not systems:
        raise InvalidOptionError("give --predictions FILE|DIR (repeatable) or --system NAME=FILE")
    return systems


@contextmanager
def progress_bar(total: int) -> Iterator[Callable[[str], None] | None]:
    """A rich progress bar on a terminal with several systems; nothing otherwise."""
    if total < 2 or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("scoring systems", total=total)
        yield lambda _name: bar.advance(task)


@click.command("eval")
@click.option(
    "--predictions",
    type=click.Path(path_type=Path),
    multiple=True,
    help="Prediction file, or a directory of them (repeatable; system = file stem).",
)
@click.option(
    "--system",
    "named",
    multiple=True,
    metavar="NAME=FILE",
    help="A prediction file under an explicit system name (repeatable).",
)
@click.option(
    "--gold-files",
    type=click.Path(path_type=Path),
    multiple=True,
    help="Gold JSONL file(s): --gold-files A.jsonl B.jsonl.",
)
@click.argument("more_gold_files", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Use DIR/qa_single_doc.jsonl and DIR/qa_cross_doc.jsonl as gold.",
)
@click.option("--prediction-field", default=None, help="Read the prediction text from this field.")
@click.option("--ignore-missing", is_flag=True, help="Skip questions without a prediction.")
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
    "--profile",
    type=click.Choice(sorted(PROFILES)),
    default="assay",
    show_default=True,
    help="xldocbench: the released evaluator bit-for-bit; assay: traps fixed.",
)
@click.option(
    "--duplicates",
    type=click.Choice(DUPLICATE_POLICIES),
    default=None,
    help="Duplicate prediction ids: keep the later row, or reject the file "
    "(default: the profile's policy).",
)
@click.option(
    "--results-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write results/scores.jsonl and results/summary.json under DIR.",
)
def eval_command(
    predictions: tuple[Path, ...],
    named: tuple[str, ...],
    gold_files: tuple[Path, ...],
    more_gold_files: tuple[Path, ...],
    data_dir: Path | None,
    prediction_field: str | None,
    ignore_missing: bool,
    output: Path | None,
    per_question_csv: Path | None,
    no_per_question_json: bool,
    profile: str,
    duplicates: str | None,
    results_dir: Path | None,
) -> None:
    """Score prediction files against a long-document QA benchmark's gold files."""
    from assay.report.files import write_outputs
    from assay.report.terminal import accounting_line, print_run, provenance_lines, release_summary

    gold = list(gold_files) + list(more_gold_files)
    if more_gold_files and not gold_files:
        raise click.UsageError(f"unexpected argument(s) {[str(p) for p in more_gold_files]}")
    if not gold:
        gold = default_gold_files(data_dir if data_dir is not None else Path("."))
    systems = systems_from_options(predictions, named)
    with progress_bar(len(systems)) as progress:
        result = evaluate(
            gold,
            systems,
            profile=profile,
            prediction_field=prediction_field,
            ignore_missing=ignore_missing,
            duplicate_policy=duplicates,
            progress=progress,
        )
    written = write_outputs(
        result,
        output=output,
        per_question_csv_path=per_question_csv,
        per_question_json=not no_per_question_json,
        results_dir=results_dir,
    )
    if len(result.systems) == 1:
        click.echo(release_summary(result.systems[0]))
        if result.profile != "xldocbench":
            click.echo(accounting_line(result.systems[0]))
            click.echo("\n".join(provenance_lines(result)))
    else:
        print_run(result, dimensions=("split",))
    for path in written.paths:
        click.echo(f"wrote {path}")

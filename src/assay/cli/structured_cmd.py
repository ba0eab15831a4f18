"""``assay structured``: score raw responses on the FORMAT and FACT axes."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from assay.cli.dask_flags import dask_option, partition_lines
from assay.cli.forked import ChildFailedError, can_fork, in_child
from assay.cli.judge_cmd import (
    JudgeArgs,
    echo_run_counts,
    judge_options,
    ledger_outputs,
    refuse_unreachable,
)
from assay.cli.stdout import echo_written, side_console, stdout_taken
from assay.collector import collector_paused
from assay.io.bundled import data_path
from assay.io.output import refuse_overwriting_inputs

if TYPE_CHECKING:
    from rich.console import Console

    from assay.report.structured.json_stream import Piece
    from assay.structured.api import PreparedRun, ScoredPart

_FILE = click.Path(dir_okay=False, path_type=Path)


@click.command("structured", short_help="Score JSON answers on FORMAT and FACT separately.")
@click.option(
    "--items",
    "items_path",
    type=_FILE,
    help="JSONL of {id, response, reference?, claims?}; responses kept verbatim.",
)
@click.option(
    "--schema",
    "schema_path",
    type=_FILE,
    help="The contract: a JSON Schema (Draft 2020-12) file.",
)
@click.option(
    "--references",
    "references_path",
    type=_FILE,
    default=None,
    help="JSONL of {id, reference} rows (plain mapping or full form).",
)
@click.option(
    "--read-facts-from-wrapped",
    is_flag=True,
    default=False,
    help="Declare up front: read facts from the inner JSON of fenced/prose "
    "responses (their format failure is kept).",
)
@click.option(
    "--example",
    is_flag=True,
    help="Score the bundled product-catalogue example (its items, schema and references; "
    "`assay data path structured` shows them).",
)
@click.option(
    "--output",
    "output_path",
    type=_FILE,
    help="Where to write the JSON report (the single source of truth; optional with --example).",
)
@click.option(
    "--per-item",
    "per_item_path",
    type=_FILE,
    default=None,
    help="Per-item records: CSV if the name ends in .csv, else JSONL.",
)
@dask_option()
@judge_options
@collector_paused()  # to the return: the report's ~10^6 objects are freed before a pass runs
def structured_command(
    items_path: Path,
    schema_path: Path,
    references_path: Path | None,
    read_facts_from_wrapped: bool,
    example: bool,
    output_path: Path | None,
    per_item_path: Path | None,
    dask: str | None,
    judge: JudgeArgs,
) -> None:
    """Score structured outputs: FORMAT (contract) and FACT (claims) as two axes.

    Give --items and --schema (and --output), or --example for the bundled example.
    Free-text claims are judged by normalised matching, or by an LLM judge when
    --judge-url/--judge-model (or --judge-offline) are given.
    """
    from assay.report.structured.files import write_per_item
    from assay.report.structured.json_stream import write_structured_json
    from assay.report.structured.terminal import render_structured_terminal

    if example:
        if items_path or schema_path or references_path:
            raise click.UsageError("give either --example or --items/--schema/--references")
        base = data_path("structured")
        items_path, schema_path = base / "responses.jsonl", base / "product.schema.json"
        references_path = base / "references.jsonl"
    elif items_path is None or schema_path is None or output_path is None:
        raise click.UsageError("give --items, --schema and --output (or --example)")
    ledger = ledger_outputs(judge.config()) if judge.asked else []
    refuse_overwriting_inputs(
        [*ledger, ("--output", output_path), ("--per-item", per_item_path)],
        [p for p in (items_path, schema_path, references_path) if p is not None],
    )
    report, later = _score(
        items_path, schema_path, references_path, read_facts_from_wrapped, judge, dask,
        records_needed=per_item_path is not None,
    )  # fmt: skip
    written = [p for p in (output_path, per_item_path) if p is not None]
    if output_path is not None:
        write_structured_json(output_path, report, "--output", later)
    if per_item_path is not None:
        write_per_item(report, per_item_path, "--per-item")
    render_structured_terminal(report, side_console(stdout_taken(written)))
    echo_written(written)
    if "llm_judge" in report:
        where = "written" if output_path is None or stdout_taken([output_path]) else output_path
        refuse_unreachable(report["llm_judge"]["claims"], "claims judged", str(where))


def _score(
    items_path: Path, schema_path: Path, references_path: Path | None,
    read_facts_from_wrapped: bool, judge: JudgeArgs, dask: str | None, *, records_needed: bool,
) -> tuple[dict[str, Any], list[Piece]]:  # fmt: skip
    """The structured report, with the LLM judge for free-text claims when asked for.

    And the JSON text of records that follow ``report["items"]``, made by a child
    process (see :func:`_score_in_two`); always empty when ``records_needed``.
    """
    from assay.structured.api import score_structured

    llm = None
    if judge.asked and dask is not None:
        raise click.UsageError("the LLM judge runs in this process; drop --dask to use it")
    if judge.asked:
        from assay.judge.claims import LLMClaimJudge

        llm = LLMClaimJudge(judge.config())
    if llm is None and dask is None:
        return _score_in_two(
            items_path, schema_path, references_path, read_facts_from_wrapped, records_needed
        )
    try:
        report = score_structured(
            items_path, schema_path, references=references_path,
            read_facts_from_wrapped=read_facts_from_wrapped, judge=llm,
            executor=dask, progress=partition_lines(dask),
        ).to_dict()  # fmt: skip
    finally:
        if llm is not None:
            llm.close()
    if llm is not None:
        if llm.fatal is not None:
            raise llm.fatal
        report["llm_judge"] = llm.summary()
        echo_run_counts(llm.run.counts, llm.run.config.ledger_dir())
    return report, []


#: fewer items than this are scored in this process alone (a fork costs more than it saves)
SPLIT_MIN_ITEMS = 2_000
#: the per cent of the items scored here: the child also writes its records' JSON text and
#: sends it (~1/4 of its time); this process parses its share of the references too
PARENT_SHARE = 60


def _score_in_two(
    items_path: Path, schema_path: Path, references_path: Path | None,
    read_facts_from_wrapped: bool, records_needed: bool,
) -> tuple[dict[str, Any], list[Piece]]:  # fmt: skip
    """The report, the later items scored in a forked child (the second core).

    The child sends back its items' counts and per-item records
    (:class:`~assay.structured.api.ScoredPart`), or, unless ``records_needed``, the
    records' JSON text instead (:func:`~assay.report.structured.json_stream.record_pieces`):
    then ``report["items"]`` holds only this process's records, and the text the rest.
    The JSON file is the one scoring in line gives (tests compare the bytes). An error
    is the one scoring in line raises first: this process scores the earlier items.
    """
    from assay.structured.api import prepare_structured

    run = prepare_structured(
        items_path, schema_path, references=references_path,
        read_facts_from_wrapped=read_facts_from_wrapped, defer_references=True,
    )  # fmt: skip
    total = len(run.items)
    if total < SPLIT_MIN_ITEMS or not can_fork():
        return run.report_dict([run.part(0, total)]), []
    cut = total * PARENT_SHARE // 100
    collect = in_child(lambda: _part(run, cut, total, records_needed))
    try:
        first = run.part(0, cut)
        import assay.stats.intervals  # noqa: F401 - the report's numpy, loaded while the child works
        from assay.report.structured.terminal import load_rich

        load_rich()  # the terminal view's imports, also while the child works
    except BaseException:
        with contextlib.suppress(BaseException):
            collect()  # reap the child
        raise
    try:
        second, later = collect()
    except ChildFailedError:  # killed, or an outcome that did not pickle: score it here
        second, later = run.part(cut, total), []
    return run.report_dict([first, second]), later


def _part(
    run: PreparedRun, start: int, stop: int, records_needed: bool
) -> tuple[ScoredPart, list[Piece]]:
    """Score ``items[start:stop]``; unless ``records_needed``, their records as JSON text."""
    from assay.report.structured.json_stream import record_pieces
    from assay.structured.api import ScoredPart

    part = run.part(start, stop)
    pieces = None if records_needed else record_pieces(part.items)
    if pieces is None:
        return part, []
    return ScoredPart(part.tally, []), pieces


def run_structured_demo(
    console: Console | None = None, *, read_facts_from_wrapped: bool = False
) -> dict[str, Any]:
    """Score the bundled product-catalogue example and print its terminal report.

    For ``assay demo``: returns the report dict so the caller can also write it.
    """
    from assay.report.structured.terminal import render_structured_terminal
    from assay.structured.example import score_bundled_example

    report = score_bundled_example(read_facts_from_wrapped=read_facts_from_wrapped).to_dict()
    render_structured_terminal(report, console)
    return report

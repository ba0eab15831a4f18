"""``assay rescore``: re-score lm-evaluation-harness and inspect_ai logs.

Text output gives, per task log, one line naming where it came from (harness,
version, task, model, filter) and its accounting, then one ``METRIC: VALUE`` and
one ``signature:`` line per metric. ``--json`` prints the result document instead
(kind ``assay.rescore``; each metric's entry is the one ``assay score --json``
writes); ``--output FILE`` writes that document to a file; ``--per-item FILE``
writes one JSONL row per sample; ``--confidence`` adds seeded bootstrap intervals;
``--dask`` scores each metric's items on a Dask cluster (the same bytes out).
The metric lines are ``assay score``'s (:func:`assay.cli.score_output.render_text`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from assay.cli.dask_flags import dask_option, partition_lines
from assay.cli.flag_hints import refuse_mistyped_flags
from assay.cli.metric_cmds import parse_extra_options, parse_options
from assay.cli.score_output import render_text as metric_lines
from assay.cli.stdout import echo_written
from assay.evaluation.rescore import RescoredLog, RescoreResult, rescore
from assay.io.output import is_stdout, refuse_overwriting_inputs, write_file
from assay.stats._common import DEFAULT_SEED
from assay.stats.bootstrap import DEFAULT_RESAMPLES


@click.command(
    "rescore",
    short_help="Re-score lm-eval and inspect_ai logs with assay metrics.",
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
)
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--metric", "-m", "metrics", multiple=True, metavar="METRIC",
              help="A metric (repeatable, or comma-separated: -m f1,rouge_l).")  # fmt: skip
@click.option(
    "--profile",
    default=None,
    help="Also score with a profile's accuracy/token_f1/anls (assay, xldocbench).",
)
@click.option(
    "--answer-format",
    default="Str",
    show_default=True,
    help="With --profile: the gold answer format (Str, Int, Float, Bool, ...).",
)
@click.option(
    "--filter",
    "filter_name",
    default=None,
    help="lm-eval: score this filter's responses only (default: each filter).",
)
@click.option("--prediction-from", default="completion", show_default=True,
              help="inspect_ai: completion (output.completion), scorer (the first "
              "scorer's answer) or scorer:NAME.")  # fmt: skip
@click.option("--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the JSON result document here (- for stdout).")  # fmt: skip
@click.option("--per-item", type=click.Path(dir_okay=False, path_type=Path),
              help="Write one JSONL row per sample (log, task, id, epoch, status, each "
              "metric's value); - for stdout.")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print the JSON result document.")
@click.option("--confidence", type=float, default=None,
              help="Add a percentile bootstrap interval at this level, e.g. 0.95.")
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True,
              help="Seed of the bootstrap (recorded).")  # fmt: skip
@click.option("--resamples", type=int, default=DEFAULT_RESAMPLES, show_default=True,
              help="Bootstrap resamples (recorded).")  # fmt: skip
@click.option("--tokenizer", default=None, help="Override every metric's tokenizer.")
@click.option("--normalizer", default=None, help="Override every metric's normalizer.")
@click.option("--option", "-o", "raw_options", multiple=True, metavar="KEY=VALUE",
              help="A metric option (repeatable), as for `assay score`.")  # fmt: skip
@dask_option()
@click.pass_context
def rescore_command(
    ctx: click.Context,
    files: tuple[Path, ...],
    metrics: tuple[str, ...],
    profile: str | None,
    answer_format: str,
    filter_name: str | None,
    prediction_from: str,
    output: Path | None,
    per_item: Path | None,
    as_json: bool,
    confidence: float | None,
    seed: int,
    resamples: int,
    tokenizer: str | None,
    normalizer: str | None,
    raw_options: tuple[str, ...],
    dask: str | None,
) -> None:
    """Re-score FILES (lm-eval samples/results files or folders, inspect_ai .json/.eval logs).

    Each log's gold (target) and predictions (lm-eval: the filtered response;
    inspect_ai: the completion, or a scorer's answer) are scored with every
    -m METRIC and the --profile, recording the harness, version, task and model.
    A FILE of - reads one log from standard input (recognised by its content).
    """
    names = [part.strip() for name in metrics for part in name.split(",") if part.strip()]
    files, ctx.args = split_files(files, ctx.args)
    refuse_mistyped_flags(ctx, names)
    if not names and profile is None:
        raise click.UsageError("give -m METRIC (repeatable; -m f1,rouge_l) or --profile NAME")
    if is_stdout(output) and is_stdout(per_item):
        raise click.UsageError("--output and --per-item cannot both be - (standard output)")
    refuse_overwriting_inputs({"--output": output, "--per-item": per_item},
                              [f for f in files if f.is_file()])  # fmt: skip
    options: dict[str, Any] = parse_options(raw_options)
    options.update(parse_extra_options(ctx.args))
    options.update({k: v for k, v in (("tokenizer", tokenizer), ("normalizer", normalizer)) if v})
    result = rescore(
        list(files), list(dict.fromkeys(names)), profile=profile, answer_format=answer_format,
        filter_name=filter_name, prediction_from=prediction_from, confidence=confidence,
        seed=seed, resamples=resamples, executor=dask, progress=partition_lines(dask), **options,
    )  # fmt: skip
    document = document_text(result)
    written = []
    if output is not None:
        written.append(write_file(output, document, option="--output"))
    if per_item is not None:
        written.append(write_file(per_item, per_item_text(result), option="--per-item"))
    taken = is_stdout(output) or is_stdout(per_item)
    click.echo(document.rstrip("\n") if as_json else render_text(result), err=taken)
    echo_written(written, err=as_json or taken)


def split_files(
    files: tuple[Path, ...], extra: list[str]
) -> tuple[tuple[Path, ...], list[str]]:
    """FILES up to the first ``--flag``; that flag and what follows are metric options.

    FILES takes every leftover argument, so ``rescore log.json -m f1 --max-order 2``
    gives FILES ``log.json --max-order 2``: the metric flags are split off here.
    """
    words = [str(f) for f in files]
    cut = next((k for k, word in enumerate(words) if word.startswith("--")), len(words))
    return files[:cut], [*words[cut:], *extra]


def document_text(result: RescoreResult) -> str:
    """The result document as indented JSON (sorted keys), newline-terminated."""
    return json.dumps(result.to_dict(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def per_item_text(result: RescoreResult) -> str:
    """One JSONL row per sample, in log then file order."""
    rows = result.per_item_rows()
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def render_text(result: RescoreResult) -> str:
    """Per log: a provenance line, then ``METRIC: VALUE`` and ``signature:`` lines."""
    return "\n".join(line for log in result.logs for line in _log_lines(log))


def _log_lines(rescored: RescoredLog) -> list[str]:
    log, counts = rescored.log, rescored.accounting()
    head = [
        f"{log.harness} {log.harness_version or '(version not recorded)'}",
        f"task {log.task}", f"model {log.model or '(not recorded)'}",
    ]  # fmt: skip
    if log.filter is not None:
        head.append(f"filter {log.filter}")
    tally = f"{counts['scored']}/{counts['total']} scored, {counts['error']} error"
    lines = [f"{log.path}: " + " · ".join(head) + f" ({tally})", f"  source: {log.signature}"]
    entries = [metric.to_dict() for metric in rescored.metrics]
    return lines + ["  " + line for line in metric_lines(entries).splitlines()]

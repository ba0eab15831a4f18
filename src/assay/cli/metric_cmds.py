"""``assay metrics`` and ``assay score``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from assay.api import bind, score_corpus
from assay.cli.options import dask_option, partition_lines
from assay.errors import MissingExtraError
from assay.io.jsonl import read_pairs
from assay.metrics.registry import REGISTRY, get_metric


@click.command("metrics", short_help="List the registered metrics and their signatures.")
@click.option("--markdown", is_flag=True, help="Print a Markdown table with edge cases instead.")
def metrics_command(markdown: bool) -> None:
    """List every registered metric with its description and default signature."""
    if markdown:
        click.echo(metrics_markdown(), nl=False)
        return
    click.echo(metrics_text(), nl=False)


def metrics_text() -> str:
    """The registry as aligned plain text, one metric per line (never wrapped).

    Each line is ``name  description  signature``, so a signature can be found
    and copied whole whatever the terminal width.
    """
    rows = [("name", "description", "signature")]
    for name in sorted(REGISTRY):
        spec = get_metric(name)
        rows.append((name, spec.description, _default_signature(name)))
    name_w = max(len(row[0]) for row in rows)
    desc_w = max(len(row[1]) for row in rows)
    return "".join(f"{a:<{name_w}}  {b:<{desc_w}}  {c}\n" for a, b, c in rows)


@click.command(
    "score",
    short_help="Score one prediction or a JSONL file with a metric.",
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
)
@click.argument("metric")
@click.option("--prediction", "-p", help="The prediction text.")
@click.option("--target", "-t", "targets", multiple=True, help="A target text (repeatable).")
@click.option(
    "--file",
    "-f",
    "pairs_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A JSONL file of {id, prediction, targets} rows; prints the mean and count.",
)
@dask_option()
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
    metric: str,
    prediction: str | None,
    targets: tuple[str, ...],
    pairs_file: Path | None,
    tokenizer: str | None,
    normalizer: str | None,
    raw_options: tuple[str, ...],
    dask: str | None,
) -> None:
    """Score one prediction (or a JSONL file of pairs) with METRIC.

    METRIC is a registered name or alias (list them with `assay metrics`).
    """
    if metric == "judge":
        raise click.UsageError(
            "the judge metric asks an LLM endpoint; run it with `assay judge --items FILE "
            "--rubric FILE --judge-url URL --judge-model NAME --output report.json`"
        )
    options: dict[str, Any] = parse_options(raw_options)
    options.update(parse_extra_options(ctx.args))
    options.update({k: v for k, v in (("tokenizer", tokenizer), ("normalizer", normalizer)) if v})
    bound = bind(metric, **options)
    if pairs_file is not None:
        if prediction is not None or targets:
            raise click.UsageError("give either --file or --prediction/--target, not both")
        pairs = list(read_pairs(pairs_file))  # raises on an empty file
        result = score_corpus(
            metric, [p.prediction for p in pairs], [list(p.targets) for p in pairs],
            executor=dask, progress=partition_lines(dask), **options,
        )  # fmt: skip
        kind = "mean" if result.is_mean else "corpus"
        click.echo(f"{bound.spec.name}: {result.value:.6f} ({kind} over n={result.n})")
    else:
        if prediction is None or not targets:
            raise click.UsageError("give --prediction TEXT and at least one --target TEXT")
        click.echo(f"{bound.spec.name}: {bound.score(prediction, list(targets)):.6f}")
    click.echo(f"signature: {bound.signature}")


def _default_signature(name: str) -> str:
    """The default signature, or the install hint of a metric whose extra is absent."""
    try:
        return get_metric(name).bind().signature
    except MissingExtraError as missing:
        return f"(needs: pip install 'assay[{missing.extra}]')"


def parse_value(text: str) -> Any:
    """Convert ``true``/``false``, integers and decimals; anything else stays a string."""
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
    lines = ["| metric | description | default signature | citation |", "|---|---|---|---|"]
    for name in sorted(REGISTRY):
        spec = get_metric(name)
        sig = _default_signature(name).replace("|", "\\|")
        lines.append(f"| `{name}` | {spec.description} | `{sig}` | {spec.citation} |")
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
    return "\n".join(lines) + "\n"

"""Unknown ``--flags`` on commands that take metric options as flags (``score``, ``rescore``).

``assay score f1 --confidance 0.95`` hands ``--confidance`` to the metrics (metric
options may be given as ``--max-order 2``); when no metric named takes it, the
mistake is far more likely a mistyped flag of the command itself. The error then
names the nearest flag of the command first and the metrics' options after.
"""

from __future__ import annotations

import difflib
import sys
from collections.abc import Sequence

import click

from assay.metrics.registry import get_metric


def command_flags(command: click.Command) -> list[str]:
    """Every long flag of ``command`` (``--confidence``, ``--file``, ...), as typed."""
    return [
        opt
        for param in command.params
        for opt in (*param.opts, *param.secondary_opts)
        if opt.startswith("--")
    ]


def flag_words(args: Sequence[str]) -> list[str]:
    """The ``--name`` words among the extra arguments (``--k=v`` cut at ``=``)."""
    return [arg.partition("=")[0] for arg in args if arg.startswith("--") and len(arg) > 2]


def refuse_mistyped_flags(ctx: click.Context, metrics: Sequence[str]) -> None:
    """Refuse an extra ``--flag`` no metric takes that is close to one of the command's.

    A flag close to no command flag is left to the metrics' own refusal (which
    suggests their options). Unknown metric names are left to the binding.

    Raises:
        click.UsageError: ``--confidance``: the nearest flag, then the metric options.
    """
    accepted: dict[str, list[str]] = {}
    for name in metrics:
        try:
            spec = get_metric(name)
        except Exception:  # noqa: BLE001 - the binding reports the unknown name
            continue
        accepted[spec.name] = spec.option_names()
    flags = command_flags(ctx.command)
    for word in flag_words(ctx.args):
        key = word[2:].replace("-", "_")
        if any(key in options for options in accepted.values()):
            continue
        close = difflib.get_close_matches(word, flags, n=1, cutoff=0.75)
        if not close:
            continue
        metric_part = "".join(
            f" Nor does metric {name!r} take option {key!r} "
            f"(its options: {', '.join(options) or 'none'})."
            for name, options in accepted.items()
        )
        raise click.UsageError(
            f"assay {ctx.info_name} has no option {word}: did you mean {close[0]}?{metric_part}"
        )


def stdin_hint() -> str:
    """`` (standard input is read only with --file -: cat pairs.jsonl | ...)`` when piped."""
    try:
        piped = not sys.stdin.isatty()
    except (AttributeError, ValueError):  # closed or replaced stdin
        piped = False
    if not piped:
        return ""
    return (
        "; standard input is read only with --file - "
        "(cat pairs.jsonl | assay score f1 --file -)"
    )

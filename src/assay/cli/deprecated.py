"""Deprecated flag spellings: replaced before a command parses, with one warning each.

A spelling that meant something else on one command than on the others (``eval
--resamples`` was paired-test trials, ``score --resamples`` bootstrap draws) was
renamed on that command; the old spelling still works there, and
:func:`rewrite_deprecated` (called by the command group) says it is deprecated.
"""

from __future__ import annotations

from collections.abc import Sequence

import click

# command → old spelling → (the words it becomes, what the old one meant there)
DEPRECATED: dict[str, dict[str, tuple[tuple[str, ...], str]]] = {
    "eval": {
        "--resamples": (("--trials",), "paired-test trials; --resamples is bootstrap draws"),
        "--metric": (("--rank-by",), "the ranking metric; --metric is a metric to compute"),
    },
    "compare": {
        "--resamples": (("--trials",), "paired-test trials; --resamples is bootstrap draws"),
        "--metric": (("--rank-by",), "the ranking metric; --metric is a metric to compute"),
    },
    "diff": {"--json": (("--output",), "a file; --json prints JSON on standard output")},
    "demo": {"--data-dir": (("--show-data-dir",), "a switch; --data-dir is a gold folder")},
    "metrics": {
        "--markdown": (("--format", "markdown"), "a switch; --markdown FILE writes a report"),
    },
}


def rewrite_deprecated(command: str, args: Sequence[str]) -> list[str]:
    """``args`` with the command's deprecated spellings replaced, one warning each on stderr.

    ``--old=value`` becomes ``--new=value``. Words after ``--`` are left alone.
    """
    table = DEPRECATED.get(command, {})
    out: list[str] = []
    words = list(args)
    for k, word in enumerate(words):
        if word == "--":
            return out + words[k:]
        old, sep, value = word.partition("=")
        if old not in table:
            out.append(word)
            continue
        new, _ = table[old]
        click.echo(
            f"warning: assay {command} {old} is deprecated; use {' '.join(new)}", err=True
        )
        out += [*new[:-1], f"{new[-1]}={value}"] if sep else list(new)
    return out

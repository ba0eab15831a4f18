"""Every flag of every command, one meaning each: the table in ``docs/cli.md``.

A flag means the same on every command that has it (``--trials``: paired-test trials;
``--resamples``: bootstrap draws; ``--output FILE``: the JSON document written there).
Spellings that once meant something else on one command are kept as deprecated
aliases (:mod:`assay.cli.deprecated`).

:func:`render` of the loaded commands is ``docs/cli.md``; ``tests/test_cli_flag_table.py``
checks the file equals it (``python tests/test_cli_flag_table.py > docs/cli.md`` writes
it), and that no flag carries two meanings. The commands and exit codes are handed in:
this module imports nothing of :mod:`assay.cli.main`, which loads the commands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import click

from assay.cli.deprecated import DEPRECATED


def _takes(param: click.Parameter) -> str:
    if isinstance(param, click.Option) and param.is_flag:
        return "switch"
    metavar = param.make_metavar(click.Context(click.Command("x")))
    return metavar + (" (repeatable)" if getattr(param, "multiple", False) else "")


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def flag_rows(commands: Mapping[str, click.Command]) -> list[tuple[str, str, str, str]]:
    """``(command, flags, value, help)`` for every option of every command, sorted."""
    rows = []
    for name in sorted(commands):
        for param in commands[name].params:
            if not isinstance(param, click.Option) or param.hidden:
                continue
            flags = ", ".join(f"`{o}`" for o in (*param.opts, *param.secondary_opts))
            rows.append((name, flags, _cell(_takes(param)), _cell(param.help or "")))
    return rows


def render(
    commands: Mapping[str, click.Command], exit_codes: Sequence[tuple[type, int]]
) -> str:
    """``docs/cli.md``: exit codes, error style, deprecated spellings, every flag."""
    lines = [
        "# Command-line flags",
        "",
        "Generated from the commands themselves (`python tests/test_cli_flag_table.py >",
        "docs/cli.md`); `tests/test_cli_flag_table.py` checks this file equals its output,",
        "and that no flag has two meanings across commands.",
        "",
        "## Errors and exit codes",
        "",
        "Every error is one line on standard error, `error: <what>; <the fix>`, never a",
        "traceback or a usage block. The exit code says what kind of mistake it was:",
        "",
        "| exit | when |",
        "|---|---|",
        "| 0 | the run succeeded |",
        "| 1 | the run itself failed (checks or smoke test failed, other errors) |",
        "| 2 | the command line is wrong: unknown command, flag, metric or name; a bad value |",
        "| 3 | an input or output file is missing, unreadable or malformed |",
        "| 4 | an LLM judge failed every item for one transport reason |",
        "| 130 | interrupted (Ctrl-C) |",
        "",
        "Typed errors map to codes in one table (`assay.cli.main.EXIT_CODES`): "
        + ", ".join(f"`{kind.__name__}` {code}" for kind, code in exit_codes)
        + ".",
        "",
        "## One meaning per flag",
        "",
        "`--trials` is the number of paired-test trials (`eval`, `compare`, `score` with",
        "several files); `--resamples` the number of bootstrap draws (`score`, `rescore`);",
        "`--confidence` an interval's level; `--json` prints JSON on standard output;",
        "`--output FILE` writes a command's document to FILE; `-m/--metric` names a metric",
        "to compute and `--rank-by` the metric that ranks systems.",
        "",
        "## Deprecated spellings",
        "",
        "Each still works, with one `warning:` line on standard error.",
        "",
        "| command | old | use | why |",
        "|---|---|---|---|",
    ]
    for command in sorted(DEPRECATED):
        for old, (new, why) in sorted(DEPRECATED[command].items()):
            lines.append(f"| {command} | `{old}` | `{' '.join(new)}` | it meant {why} |")
    lines += ["", "## Every flag", "", "| command | flag | value | what |", "|---|---|---|---|"]
    lines += [f"| {c} | {f} | {v} | {h} |" for c, f, v, h in flag_rows(commands)]
    lines += [
        "",
        "## Shell completion",
        "",
        "click writes the completion script: add one line to your shell's start-up file.",
        "",
        "```bash",
        'eval "$(_ASSAY_COMPLETE=bash_source assay)"   # ~/.bashrc',
        'eval "$(_ASSAY_COMPLETE=zsh_source assay)"    # ~/.zshrc',
        "_ASSAY_COMPLETE=fish_source assay | source    # ~/.config/fish/completions/assay.fish",
        "```",
    ]
    return "\n".join(lines) + "\n"

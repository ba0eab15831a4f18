"""``assay judge`` (the ``judge`` metric), ``assay judge-calibrate``, and the judge options.

:func:`judge_options` adds the options of an LLM judge to a command (``assay
judge`` and ``assay structured``) and hands it a :class:`JudgeArgs`.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

import click

from assay.cli.stdout import echo_written, stdout_taken
from assay.io.output import refuse_overwriting_inputs

F = TypeVar("F", bound=Callable[..., Any])
_FILE = click.Path(dir_okay=False, path_type=Path)


@dataclass(frozen=True, slots=True)
class JudgeArgs:
    """The values of :func:`judge_options`."""

    judge_url: str | None
    judge_model: str | None
    judge_key_env: str | None
    judge_cache: Path | None
    judge_offline: bool
    judge_votes: int
    judge_temperature: float
    judge_seed: int
    judge_max_tokens: int
    judge_timeout: float
    judge_retries: int
    judge_concurrency: int

    @property
    def asked(self) -> bool:
        """Whether the user asked for an LLM judge at all."""
        return self.judge_url is not None or self.judge_offline or self.judge_model is not None

    def config(self) -> Any:
        """The :class:`~assay.judge.config.JudgeConfig` (``--judge-model`` is required)."""
        from assay.judge.config import JudgeConfig

        if not self.judge_model:
            raise click.UsageError("--judge-model is required with an LLM judge")
        config = JudgeConfig(
            url=self.judge_url, model=self.judge_model, key_env=self.judge_key_env,
            temperature=self.judge_temperature, seed=self.judge_seed, votes=self.judge_votes,
            max_tokens=self.judge_max_tokens, timeout=self.judge_timeout,
            retries=self.judge_retries, concurrency=self.judge_concurrency,
            cache_dir=self.judge_cache, offline=self.judge_offline,
        )  # fmt: skip
        config.validate()  # before any input is read
        if not config.offline:
            config.api_key()  # a key variable named but not set: one line now, not per item
        return config


def judge_options(func: F) -> F:
    """Add the ``--judge-*`` options; the command receives ``judge: JudgeArgs``."""
    names = [f.name for f in dataclasses.fields(JudgeArgs)]

    @functools.wraps(func)
    def wrapper(**kwargs: Any) -> Any:
        values = {name: kwargs.pop(name) for name in names}
        return func(**kwargs, judge=JudgeArgs(**values))

    decorators = [
        click.option("--judge-url", default=None, metavar="URL",
                     help="OpenAI-compatible API base URL (requests go to URL/chat/completions)."),
        click.option("--judge-model", default=None, help="Model name to request."),
        click.option("--judge-key-env", default=None, metavar="VAR",
                     help="Name of the environment variable holding the API key."),
        click.option("--judge-cache", type=click.Path(file_okay=False, path_type=Path),
                     default=None, metavar="DIR",
                     help="Verdict ledger folder [default: ~/.cache/assay/judge]."),
        click.option("--judge-offline", is_flag=True,
                     help="Send no request: replay from the ledger, fail on a miss."),
        click.option("--judge-votes", type=click.IntRange(min=1), default=1, show_default=True,
                     help="Verdicts per item (vote i uses seed + i); majority wins."),
        click.option("--judge-temperature", type=float, default=0.0, show_default=True),
        click.option("--judge-seed", type=click.IntRange(min=0), default=0, show_default=True),
        click.option("--judge-max-tokens", type=click.IntRange(min=1), default=256,
                     show_default=True),
        click.option("--judge-timeout", type=float, default=30.0, show_default=True,
                     help="Seconds per request (finite, above 0, at most 86400)."),
        click.option("--judge-retries", type=click.IntRange(min=0), default=3,
                     show_default=True,
                     help="Retries after a timeout, a lost connection, 408, 409, 429, 5xx."),
        click.option("--judge-concurrency", type=click.IntRange(min=1), default=4,
                     show_default=True, help="Requests in flight at most."),
    ]  # fmt: skip
    result: Any = wrapper
    for decorator in reversed(decorators):
        result = decorator(result)
    return cast(F, result)


def echo_run_counts(counts: Any, ledger: Path) -> None:
    """Votes replayed, fetched and retried, requests sent: on stderr (never in the report)."""
    click.echo(
        f"judge ledger: {counts.replayed} replayed, {counts.fetched} fetched "
        f"({counts.retried} retried from an earlier failure), {counts.requests} requests sent "
        f"({ledger})",
        err=True,
    )


_INPUT = click.Path(dir_okay=False, path_type=Path, allow_dash=True)


def ledger_outputs(config: Any) -> list[tuple[str, Path]]:
    """The ledger file as an output of the command (appended to: no output may be it)."""
    from assay.judge.ledger import LEDGER_FILE

    return [("--judge-cache", config.ledger_dir() / LEDGER_FILE)]


def refuse_two_stdins(options: dict[str, Path | None]) -> None:
    """At most one input may be ``-`` (standard input is read once)."""
    dashes = [name for name, path in options.items() if path is not None and str(path) == "-"]
    if len(dashes) > 1:
        raise click.UsageError(
            f"{' and '.join(dashes)} both read standard input ('-'); give one of them a file"
        )


def read_rubric(path: Path) -> str:
    """The rubric text: a file or ``-``, compressed or not, UTF-8 (a byte-order mark dropped).

    Raises:
        InputFileError: unreadable, or not UTF-8 text.
    """
    from assay.errors import InputFileError
    from assay.io.sources import display_name, open_source

    with open_source(path) as handle:
        data = handle.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputFileError(
            display_name(path), f"not UTF-8 text ({exc.reason} at byte {exc.start + 1}); "
            "re-encode the rubric as UTF-8", field="--rubric",
        ) from None  # fmt: skip
    return text.removeprefix("\ufeff")


def refuse_unreachable(rows: list[dict[str, Any]], what: str, written: str) -> None:
    """Exit 4 (one line) when every judged item failed for one transport reason."""
    from assay.errors import JudgeUnreachableError
    from assay.judge.runner import transport_failure

    reason = transport_failure(rows)
    if reason is not None:
        raise JudgeUnreachableError(
            f"the judge: every one of the {len(rows)} {what} failed with {reason}; check "
            f"--judge-url, --judge-model and --judge-key-env (the report {written} holds "
            "each failure; the next run asks again)"
        )


@click.command("judge", short_help="Judge open answers against a rubric with an LLM judge.")
@click.option("--items", "items_path", required=True, type=_INPUT,
              help="JSONL of {id, answer, question?, reference?, rubric?}; '-': stdin.")
@click.option("--rubric", "rubric_path", type=_INPUT, default=None,
              help="The rubric's text file ('-': stdin); a row's own 'rubric' wins.")
@click.option("--output", "output_path", required=True, type=_FILE,
              help="Where to write the JSON report ('-': stdout, the report alone).")  # fmt: skip
@judge_options
def judge_command(
    items_path: Path, rubric_path: Path | None, output_path: Path, judge: JudgeArgs
) -> None:
    """Score open answers with the `judge` metric: pass/fail by an LLM judge, replayable.

    Exit 4 when every item failed for one transport reason (the report is written).
    """
    from assay.judge.answers import judge_answers, read_answer_items
    from assay.report.judge_files import print_judge_report, render_judge_json

    refuse_two_stdins({"--items": items_path, "--rubric": rubric_path})
    config = judge.config()
    inputs = [p for p in (items_path, rubric_path) if p is not None]
    refuse_overwriting_inputs([*ledger_outputs(config), ("--output", output_path)], inputs)
    rubric = read_rubric(rubric_path) if rubric_path is not None else None
    report, counts = judge_answers(read_answer_items(items_path), rubric, config)
    _write(output_path, render_judge_json(report))
    echo_run_counts(counts, config.ledger_dir())
    taken = stdout_taken([output_path])
    print_judge_report(report, err=taken)
    echo_written([output_path])
    refuse_unreachable(report["items"], "items", "written" if taken else str(output_path))


def _write(path: Path, text: str) -> None:
    from assay.io.output import write_file

    write_file(path, text, option="--output")


@click.command("judge-calibrate", short_help="Judge vs human labels: Cohen's kappa.")
@click.option("--human", "human_path", required=True, type=_INPUT,
              help="JSONL of {id, label} human labels, optional 'judge'; '-': stdin.")
@click.option("--judged", "judged_path", type=_INPUT, default=None,
              help="An `assay judge` report whose verdicts are compared ('-': stdin).")  # fmt: skip
@click.option("--output", "output_path", type=_FILE, default=None,
              help="Write the calibration JSON here ('-': stdout, the JSON alone).")  # fmt: skip
def judge_calibrate_command(
    human_path: Path, judged_path: Path | None, output_path: Path | None
) -> None:
    """Compare judge verdicts with human labels: Cohen's kappa, confusion, base rates."""
    from assay.judge.calibrate import calibration, read_labels
    from assay.report.judge_files import print_calibration, render_calibration_json

    refuse_two_stdins({"--human": human_path, "--judged": judged_path})
    inputs = [p for p in (human_path, judged_path) if p is not None]
    refuse_overwriting_inputs({"--output": output_path}, inputs)
    human = read_labels(human_path)
    judged = _judged_labels(judged_path, human, human_path)
    result = calibration(human, judged)
    if output_path is not None:
        _write(output_path, render_calibration_json(result))
    print_calibration(result, err=stdout_taken([output_path]))
    if output_path is not None:
        echo_written([output_path])


def _judged_labels(
    judged_path: Path | None, human: dict[str, dict[str, Any]], human_path: Path
) -> dict[str, str | None]:
    from assay.errors import InputFileError

    if judged_path is None:
        labels: dict[str, str | None] = {}
        for key, row in human.items():
            value = row.get("judge")
            if value is not None and not isinstance(value, str):
                raise InputFileError(human_path, f"id {key!r}: 'judge' must be a string",
                                     field="judge")  # fmt: skip
            labels[key] = value
        if all(v is None for v in labels.values()):
            raise click.UsageError(
                "give --judged REPORT.json, or a 'judge' field in the --human rows"
            )
        return labels
    from assay.io.sources import display_name
    from assay.report.judge_files import read_judge_report

    report = read_judge_report(judged_path)
    judged = {
        row["id"]: (None if row["verdict"] == "judge_failed" else row["verdict"])
        for row in report["items"]
    }
    if judged and not set(judged) & set(human):
        raise InputFileError(
            display_name(judged_path),
            f"no id in common with {display_name(human_path)}: 0 of {len(human)} human labels "
            f"have a judged item (judged ids e.g. {_examples(judged)}; human ids e.g. "
            f"{_examples(human)}); check that the report judged these items",
            field="id",
        )
    return judged


def _examples(ids: dict[str, Any]) -> str:
    return ", ".join(repr(i) for i in sorted(ids)[:3])

"""Options shared by ``assay eval`` and ``assay compare``: inputs and statistics.

Each decorator adds its options and hands the command their values as one record
(:class:`InputArgs` as ``inputs``, :class:`StatsArgs` as ``stats``).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

import click

from assay.cli.dask_flags import dask_option as dask_option  # re-exported
from assay.cli.dask_flags import partition_lines as partition_lines  # re-exported
from assay.evaluation.profiles import DUPLICATE_POLICIES, PROFILES

if TYPE_CHECKING:  # the statistics' modules (numpy) load when a command computes them
    from assay.evaluation.compare import CompareOptions

F = TypeVar("F", bound=Callable[..., Any])
METRIC_CHOICES = ("accuracy", "token_f1", "anls")
TEST_CHOICES = ("approximate_randomization", "paired_bootstrap", "exact_sign_flip")


@dataclass(frozen=True, slots=True)
class InputArgs:
    """The values of :func:`input_options`."""

    predictions: tuple[Path, ...]
    named: tuple[str, ...]
    gold_files: tuple[Path, ...]
    more_gold_files: tuple[Path, ...]
    data_dir: Path | None
    prediction_field: str | None
    ignore_missing: bool
    profile: str
    duplicates: str | None
    dask: str | None


@dataclass(frozen=True, slots=True)
class StatsArgs:
    """The values of :func:`stats_options`."""

    metric: str
    method: str
    trials: int | None
    seed: int
    confidence: float
    result_json: Path | None
    html_path: Path | None
    markdown_path: Path | None

    def compare_options(self) -> CompareOptions:
        """The comparison settings: ranking metric, paired test, trials and seed."""
        from assay.evaluation.compare import CompareOptions

        return CompareOptions(
            metric=self.metric, method=self.method, n_resamples=self.trials, seed=self.seed,
            confidence=self.confidence,
        )


def _apply(func: F, decorators: list[Callable[[F], F]]) -> F:
    for decorator in reversed(decorators):
        func = decorator(func)
    return func


def profile_option(help_text: str) -> Callable[[F], F]:
    """``--profile`` (one of the profiles, default ``assay``) with ``help_text``."""
    return click.option(
        "--profile",
        type=click.Choice(sorted(PROFILES)),
        default="assay",
        show_default=True,
        help=help_text,
    )


def _packed(func: F, keyword: str, record: type[Any]) -> F:
    """Wrap ``func`` so the options named by ``record``'s fields arrive as one ``record``."""
    names = [f.name for f in dataclasses.fields(record)]

    @functools.wraps(func)
    def wrapper(**kwargs: Any) -> Any:
        values = {name: kwargs.pop(name) for name in names}
        return func(**kwargs, **{keyword: record(**values)})

    return cast(F, wrapper)


def input_options(func: F) -> F:
    """Predictions, systems, gold files, data dir, field, missing/duplicate policy, profile."""
    return _apply(
        _packed(func, "inputs", InputArgs),
        [
            click.option(
                "--predictions", type=click.Path(path_type=Path), multiple=True,
                help="Prediction file, or a directory of them (repeatable; system = file stem).",
            ),
            click.option(
                "--system", "named", multiple=True, metavar="NAME=FILE",
                help="A prediction file under an explicit system name (repeatable).",
            ),
            click.option(
                "--gold-files", type=click.Path(path_type=Path), multiple=True,
                help="Gold JSONL file(s): --gold-files A.jsonl B.jsonl.",
            ),
            click.argument("more_gold_files", nargs=-1, type=click.Path(path_type=Path)),
            click.option(
                "--data-dir", type=click.Path(file_okay=False, path_type=Path),
                help="Use DIR/qa_single_doc.jsonl and DIR/qa_cross_doc.jsonl as gold.",
            ),
            click.option(
                "--prediction-field", default=None,
                help="Read the prediction text from this field [default: the first present "
                "of prediction, model_answer, answer, response, output; a file most of "
                "whose rows have none is refused].",
            ),
            click.option(
                "--ignore-missing", is_flag=True, help="Skip questions without a prediction."
            ),
            profile_option("xldocbench: the released evaluator's rules; assay: traps fixed."),
            click.option(
                "--duplicates", type=click.Choice(DUPLICATE_POLICIES), default=None,
                help="Duplicate prediction ids: keep the later row, or reject the file "
                "(default: the profile's policy).",
            ),
            dask_option(),
        ],
    )  # fmt: skip


def stats_options(func: F) -> F:
    """Ranking metric, paired test, trials, seed, and the report files of a comparison."""
    return _apply(
        _packed(func, "stats", StatsArgs),
        [
            click.option(
                "--rank-by", "metric", type=click.Choice(METRIC_CHOICES), default="accuracy",
                show_default=True, help="The metric that ranks systems and is tested pairwise.",
            ),
            click.option(
                "--test", "method", type=click.Choice(TEST_CHOICES),
                default="approximate_randomization", show_default=True,
                help="Paired significance test (sacrebleu's definitions; exact_sign_flip: "
                "the exact randomisation test for 0/1 scores, no trials).",
            ),
            click.option(
                "--trials", type=click.IntRange(min=2), default=None,
                help="Trials (AR) or resamples (bootstrap) per pair [default: 10000 / 1000, "
                "raised to the minimum that can reach alpha after Holm; a smaller explicit "
                "count is refused].",
            ),
            click.option(
                "--seed", type=click.IntRange(min=0), default=12345, show_default=True,
                help="Seed of the paired test (recorded in the result).",
            ),
            click.option(
                "--confidence", type=click.FloatRange(0, 1, min_open=True, max_open=True),
                default=0.95, show_default=True,
                help="Level of the leaderboard's intervals (recorded in the result).",
            ),
            click.option(
                "--result-json", type=click.Path(dir_okay=False, path_type=Path), default=None,
                help="Write the full assay result JSON (statistics, per-item scores) here.",
            ),
            click.option(
                "--html", "html_path", type=click.Path(dir_okay=False, path_type=Path),
                default=None, help="Write the self-contained HTML report here.",
            ),
            click.option(
                "--markdown", "markdown_path", type=click.Path(dir_okay=False, path_type=Path),
                default=None, help="Write the Markdown report here.",
            ),
        ],
    )  # fmt: skip

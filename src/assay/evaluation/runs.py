"""Evaluate one or many systems against the same gold set: the :class:`EvaluationResult`.

Gold is read and prepared once (normalised answers, answer types), then each
system's prediction files are streamed and scored. The result carries its
provenance: profile, assay version, metric signatures, evaluator fingerprint and
the options that change a number.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import chain
from operator import attrgetter
from pathlib import Path
from typing import Any
from warnings import warn

from assay._version import __version__
from assay.collector import collector_paused
from assay.errors import CoverageWarning, InputFileError, InvalidOptionError
from assay.evaluation import tables
from assay.evaluation.align import align
from assay.evaluation.benchmark import (
    LabelLayout,
    QuestionResult,
    SystemResult,
    evaluate_alignment,
    gold_label_sets,
)
from assay.evaluation.blocked import score_systems
from assay.evaluation.coverage import check_coverage
from assay.evaluation.fingerprint import fingerprint
from assay.evaluation.profiles import Prepared, get_profile, metric_signatures
from assay.evaluation.split_scoring import MIN_QUESTIONS, Background, score_split
from assay.io.gold import RECORDS, GoldQuestion, read_gold, read_gold_records
from assay.io.oddities import Oddities
from assay.io.predictions import PredictionRow, iter_prediction_records
from assay.io.records import split_source
from assay.io.sources import is_blank
from assay.parallel import executor_for, working_directory

DEFAULT_GOLD_NAMES = ("qa_single_doc.jsonl", "qa_cross_doc.jsonl")


@dataclass(frozen=True, slots=True, init=False)
class SystemInput:
    """A system name and its predictions: file path(s) or in-memory records.

    ``SystemInput("atlas", "preds.jsonl")``, ``SystemInput("atlas", ["a.jsonl",
    "b.jsonl"])``, ``SystemInput("atlas", [{"id": "q1", "prediction": "Paris"}])``
    and ``SystemInput("atlas", dataframe)`` all work; records are checked as file
    rows are, and messages name the row index (``atlas records [3]``).

    Attributes:
        name: the system's name.
        files: the prediction files (empty for records).
        records: the in-memory rows, or ``None`` for files.
    """

    name: str
    files: tuple[str, ...]
    records: tuple[dict[str, Any], ...] | None

    def __init__(self, name: str, files: Any) -> None:
        """Take one path, several paths, an iterable of dicts or a DataFrame.

        Raises:
            InvalidTypeError: anything else, or paths and dicts mixed.
        """
        paths, records = split_source(files, f"predictions of {name!r}")
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "files", paths)
        object.__setattr__(self, "records", records)

    @property
    def label(self) -> str:
        """How messages and reports name these predictions."""
        return f"{self.name} records" if self.records is not None else ", ".join(self.files)

    def rows(self, field: str | None, released: Oddities | None) -> Iterable[PredictionRow] | None:
        """The prediction rows of in-memory records, or ``None`` (read the files)."""
        if self.records is None:
            return None
        return iter_prediction_records(self.records, f"{self.name} records", field,
                                       released=released)  # fmt: skip


@dataclass(frozen=True, slots=True, repr=False)
class EvaluationResult:
    """The single source of truth for every report of one evaluation run."""

    profile: str
    assay_version: str
    fingerprint: str
    signatures: tuple[tuple[str, str], ...]
    options: tuple[tuple[str, Any], ...]
    gold_files: tuple[str, ...]
    systems: tuple[SystemResult, ...]
    warnings: tuple[str, ...] = ()

    def provenance(self) -> dict[str, Any]:
        """Profile, version, fingerprint, signatures and options as a JSON object."""
        return {
            "profile": self.profile,
            "assay_version": self.assay_version,
            "evaluator_sha256": self.fingerprint,
            "metric_signatures": dict(self.signatures),
            "options": dict(self.options),
            "gold_files": list(self.gold_files),
        }

    def leaderboard(self) -> list[SystemResult]:
        """Systems by accuracy (then token F1, ANLS) descending, ties by name."""
        return sorted(
            self.systems,
            key=lambda s: (-s.overall.accuracy, -s.overall.token_f1, -s.overall.anls, s.system),
        )

    def system(self, name: str) -> SystemResult:
        """The result of one system."""
        for result in self.systems:
            if result.system == name:
                return result
        raise InvalidOptionError(f"no system {name!r} in this result")

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form (unrounded)."""
        return {**self.provenance(), "systems": [s.to_dict() for s in self.systems]}

    def to_pandas(self) -> Any:
        """The per-item DataFrame: one row per system and question (needs pandas).

        Raises:
            MissingExtraError: pandas is not installed (``pip install 'assay[pandas]'``).
        """
        return tables.items_frame(self.systems)

    def summary_frame(self) -> Any:
        """One row per system, in leaderboard order: counts and the three means."""
        return tables.summary_frame(self.leaderboard())

    def __repr__(self) -> str:
        """A few lines, not the whole result: profile, counts, one line per system, warnings."""
        return tables.result_repr(self.profile, self.leaderboard(), self.warnings)

    def _repr_html_(self) -> str:
        return tables.result_html(self.profile, self.leaderboard())


def default_gold_files(data_dir: str | Path, *, keep_empty: bool = False) -> list[Path]:
    """``DIR/qa_single_doc.jsonl`` and ``DIR/qa_cross_doc.jsonl``, those that exist.

    Either file is optional: one that is absent is left out, and so is one that is
    empty/blank unless ``keep_empty`` (the ``xldocbench`` profile, which reads it as no
    questions, as released, with a warning). A gold file given by name with no rows
    stays an error under the ``assay`` profile.

    Raises:
        InputFileError: one of them is there but is not a regular file (a directory, a
            FIFO, a symlink loop or a link to nothing): the other would be scored alone.
        InvalidOptionError: neither exists (with rows in it, unless ``keep_empty``).
    """
    paths = [Path(data_dir) / name for name in DEFAULT_GOLD_NAMES]
    found = [p for p in paths if _discovered(p, data_dir)]
    if not found:
        raise InvalidOptionError(
            f"--data-dir {data_dir}: found neither {' nor '.join(DEFAULT_GOLD_NAMES)}; "
            "pass --gold-files FILE... instead"
        )
    with_rows = found if keep_empty else [p for p in found if not is_blank(p)]
    if not with_rows:
        raise InvalidOptionError(
            f"--data-dir {data_dir}: {' and '.join(str(p) for p in found)} "
            "hold no gold questions (empty); add rows or pass --gold-files FILE..."
        )
    return with_rows


def _discovered(path: Path, data_dir: str | Path) -> bool:
    """Whether ``--data-dir`` discovery finds a regular gold file at ``path`` (absent: no).

    Raises:
        InputFileError: something that is not a regular file is there.
    """
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        if not path.is_symlink():
            return False
        what = f"a symbolic link to a missing file ({os.readlink(path)})"
    except OSError as exc:
        what = "a symlink loop" if exc.errno == errno.ELOOP else f"unreadable ({exc.strerror})"
    else:
        if stat.S_ISREG(mode):
            return True
        what = "a directory" if stat.S_ISDIR(mode) else (
            "a FIFO (named pipe)" if stat.S_ISFIFO(mode) else "not a regular file"
        )  # fmt: skip
    raise InputFileError(
        path,
        f"found by --data-dir {data_dir}, but it is {what}, not a gold file; replace it with "
        "the gold file, or name the gold files with --gold-files FILE...",
    )


@collector_paused()
def evaluate(
    gold_files: Any,
    systems: Sequence[SystemInput],
    *,
    profile: str = "assay",
    prediction_field: str | None = None,
    ignore_missing: bool = False,
    duplicate_policy: str | None = None,
    progress: Callable[[str], None] | None = None,
    executor: Any = None,
    partition_progress: Callable[[int, int], None] | None = None,
    background: Background | None = None,
    background_lead: int = 0,
) -> EvaluationResult:
    """Evaluate every system against the gold files under one profile.

    Args:
        gold_files: gold file(s) (JSONL, CSV/TSV; one path or several, read in
            order), or in-memory gold rows: an iterable of dicts in the JSONL shape
            or a DataFrame (checked as file rows; messages name ``gold records[i]``).
        systems: the systems, each with its prediction files or records.
        profile: ``assay`` (default) or ``xldocbench``.
        prediction_field: take the prediction text from this field only.
        ignore_missing: skip questions without a prediction (still counted missing).
        duplicate_policy: ``last-wins`` or ``reject``; ``None`` uses the profile's.
        progress: called with each system's name after it is scored.
        executor: where systems are scored: ``None`` (this process), ``"local:N"``,
            a scheduler address or a ``dask.distributed.Client`` (see
            :mod:`assay.parallel`). Every executor gives the same result.
        partition_progress: called with ``(done, total)`` partitions.
        background: starts a task in another process and returns a function waiting
            for its value (the CLI's forked child): in this process, with several
            systems and enough questions, the later systems are scored there while
            the earlier ones are scored here (see :mod:`assay.evaluation.split_scoring`;
            the same result).
        background_lead: the work ``background`` itself does in this process while the
            other runs, in prediction bytes' worth of scoring (this process scores less).

    Raises:
        UnknownProfileError, InvalidOptionError, InputFileError: bad options or inputs;
            under the ``assay`` profile also a system none of whose ids is a gold id
            (see :mod:`assay.evaluation.coverage`).
    """
    chosen = get_profile(profile)
    policy = duplicate_policy or chosen.duplicate_policy
    names = [s.name for s in systems]
    if len(set(names)) != len(names):
        raise InvalidOptionError(
            f"system names must be unique, got {names}; use --system NAME=FILE"
        )
    notes = Oddities() if chosen.reads_as_released else None
    gold_paths, gold_records = split_source(gold_files, "gold")
    if gold_records is not None:
        gold = read_gold_records(gold_records, released=notes)
    else:
        gold = read_gold(gold_paths, released=notes)
    task = _SystemTask(chosen.name, prediction_field, policy, ignore_missing, os.getcwd())
    with executor_for(executor) as runner:
        layout = LabelLayout.of([gold_label_sets(q) for q in gold])
        context = runner.share((gold, [chosen.prepare(q) for q in gold], layout))

        def each(done: int, total: int) -> None:
            if progress is not None:
                progress(systems[done - 1].name if not runner.distributed else f"{done}/{total}")
            if partition_progress is not None:
                partition_progress(done, total)

        if background is not None and splits(runner, systems, gold):

            def score(part: Sequence[SystemInput], here: bool) -> list[Any]:
                step = (lambda done, _: each(done, len(systems))) if here else None
                return runner.map(task, list(part), context, progress=step)

            def finished(done: int) -> None:
                each(done, len(systems))

            scored = score_split(
                score, systems, context[1], background, finished, background_lead
            )
        else:
            scored = score_systems(runner, task, systems, context, gold, each)
    results = [result for result, _, _ in scored]
    coverage = [line for _, _, lines in scored for line in lines]
    for line in coverage:  # said whatever the options (--ignore-missing too)
        warn(line, CoverageWarning, stacklevel=3)
    if notes is not None:
        for _, seen, _ in scored:
            notes.merge(seen)
    options = (
        ("prediction_field", prediction_field),
        ("ignore_missing", ignore_missing),
        ("duplicate_policy", policy),
    )
    return EvaluationResult(
        profile=chosen.name,
        assay_version=__version__,
        fingerprint=fingerprint(chosen.name),
        signatures=tuple(metric_signatures(chosen.name).items()),
        options=options,
        gold_files=gold_paths or (RECORDS,),
        systems=tuple(results),
        warnings=(
            (*notes.warnings(), *_surrogate_warning(results), *coverage)
            if notes is not None
            else tuple(coverage)
        ),
    )


def splits(runner: Any, systems: Sequence[SystemInput], gold: Sequence[GoldQuestion]) -> bool:
    """Whether a run in this process is worth scoring in two (several systems, enough rows)."""
    return (
        not runner.distributed and len(systems) > 1 and len(gold) * len(systems) >= MIN_QUESTIONS
    )


@dataclass(frozen=True, slots=True)
class _SystemTask:
    """Score one system (one partition): align its files, score, aggregate."""

    profile: str
    prediction_field: str | None
    duplicate_policy: str
    ignore_missing: bool
    cwd: str

    def __call__(
        self,
        entry: SystemInput,
        context: tuple[Sequence[GoldQuestion], Sequence[Prepared], LabelLayout],
    ) -> tuple[SystemResult, Oddities, list[str]]:
        """The system's result, its files' oddities (released reading), its coverage warnings.

        Under the ``assay`` profile a system matching no gold id at all raises.
        """
        gold, prepared, layout = context
        chosen = get_profile(self.profile)
        seen = Oddities()
        released = seen if chosen.reads_as_released else None
        with working_directory(self.cwd):
            alignment = align(
                gold, entry.files, prediction_field=self.prediction_field,
                duplicate_policy=self.duplicate_policy, released=released,
                rows=entry.rows(self.prediction_field, released),
            )  # fmt: skip
        coverage = check_coverage(
            entry.name, entry.files or (entry.label,), gold, alignment,
            strict=not chosen.reads_as_released, prediction_field=self.prediction_field,
            ignore_missing=self.ignore_missing,
        )  # fmt: skip
        result = evaluate_alignment(
            chosen, prepared, alignment,
            system=entry.name, prediction_files=entry.files or (entry.label,),
            ignore_missing=self.ignore_missing, layout=layout,
        )  # fmt: skip
        return result, seen, coverage


SURROGATE_NOTE = (
    "a lone surrogate in a per-question value: the released evaluator fails writing its "
    "CSV; assay writes it as a backslash escape"
)


def _surrogate_warning(systems: Sequence[SystemResult]) -> list[str]:
    """One warning naming the first question whose released row holds a lone surrogate.

    A system whose rows are all text and hold no lone surrogate together (one check of
    their joined text, see :func:`_rows_clean`) is passed over without a look at each row.
    """
    hits = [
        q.question_id
        for s in systems
        if not _rows_clean(s.questions)
        for q in s.questions
        if _row_has_surrogate(q)
    ]
    if not hits:
        return []
    rows = f"{len(hits)} row" + ("" if len(hits) == 1 else "s")
    return [f"question {hits[0]!r}: {SURROGATE_NOTE} ({rows})"]


def _row_has_surrogate(q: QuestionResult) -> bool:
    """Whether the released per-question row of ``q`` holds a lone surrogate.

    Its text fields are checked directly; only a row whose released values are not all
    text (a list or object as written) is checked through its JSON text.
    """
    released = q.released_row or ()
    if not all(value is None or isinstance(value, str) for value in released):
        return _has_surrogate(json.dumps(q.to_dict(), ensure_ascii=False))
    texts = (q.question_id, q.prediction, q.gold_answer, q.answer_format, q.status, q.split,
             q.domain, q.reasoning_type, *(value for value in released if value is not None))
    return any(_has_surrogate(text) for text in texts)  # fmt: skip


_ROW_TEXTS = attrgetter(
    "question_id", "prediction", "gold_answer", "answer_format", "status", "split", "domain",
    "reasoning_type",
)  # fmt: skip  (the text fields :func:`_row_has_surrogate` checks)
_RELEASED_ROW = attrgetter("released_row")


def _rows_clean(questions: Sequence[QuestionResult]) -> bool:
    """Whether no row of ``questions`` holds a lone surrogate, from one joined text.

    ``True`` only when every released value is text or ``None`` and the text fields
    and those values joined hold no lone surrogate: a string joined from parts holds
    one exactly when a part does (Python never pairs surrogates by concatenation).
    ``False`` means "look at each row" (:func:`_row_has_surrogate`).
    """
    released = chain.from_iterable(filter(None, map(_RELEASED_ROW, questions)))
    written = [value for value in released if value is not None]
    try:
        text = "".join(chain(chain.from_iterable(map(_ROW_TEXTS, questions)), written))
    except TypeError:  # a value that is not text (a list or object as written): each row decides
        return False
    return not _has_surrogate(text)


def _has_surrogate(text: str) -> bool:
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False

"""Systems scored in two processes (assay.evaluation.split_scoring) give the one-process result."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from assay.cli.forked import in_child
from assay.errors import InputFileError
from assay.evaluation import runs
from assay.evaluation.runs import SystemInput, evaluate
from assay.evaluation.split_scoring import cut_point

SAMPLE = Path(str(resources.files("assay") / "data" / "xlsample"))
GOLD = [SAMPLE / "qa_single_doc.jsonl", SAMPLE / "qa_cross_doc.jsonl"]


def samples() -> list[SystemInput]:
    files = sorted((SAMPLE / "predictions").glob("*.jsonl"))
    return [SystemInput(f.stem, (str(f),)) for f in files]


def in_line(task: Callable[[], Any]) -> Callable[[], Any]:
    """A background that runs the task at once, here (as in_child without fork)."""
    value = task()
    return lambda: value


@pytest.fixture(autouse=True)
def always_split(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runs, "MIN_QUESTIONS", 0)  # the samples are small


def test_cut_point_halves_the_bytes() -> None:
    assert cut_point([1, 1]) == 1
    assert cut_point([10, 1, 1, 1]) == 1
    assert cut_point([1, 1, 1, 10]) == 3  # the later part is never empty
    assert cut_point([2, 2, 2, 2]) == 2
    assert cut_point([3, 1, 1, 1, 2]) == 2  # 4 of 8 bytes held by the first two
    assert cut_point([2, 2, 2, 2], lead=4) == 1  # this process does 4 bytes' worth besides
    assert cut_point([2, 2, 2, 2], lead=100) == 1  # the earlier part is never empty


def test_the_cli_child_preloads_the_statistics_and_reaps_on_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import importlib
    import sys

    from assay.cli import eval_cmd

    for name in eval_cmd.PRELOADED:
        importlib.import_module(name)  # every name is a module
    assert eval_cmd.scoring_child(lambda: 7)() == 7
    reaped: list[int] = []

    def started(task: Callable[[], Any]) -> Callable[[], Any]:
        return lambda: reaped.append(1)

    def failing() -> None:
        raise RuntimeError("preload failed")

    monkeypatch.setattr(eval_cmd, "in_child", started)
    monkeypatch.setattr(eval_cmd, "preload", failing)
    with pytest.raises(RuntimeError, match="preload failed"):
        eval_cmd.scoring_child(lambda: 7)
    assert reaped == [1]
    assert "assay.evaluation.compare" in sys.modules


@pytest.mark.parametrize("profile", ["assay", "xldocbench"])
@pytest.mark.parametrize("background", [in_child, in_line])
@pytest.mark.parametrize("ignore_missing", [False, True])
def test_split_equals_one_process(
    profile: str, background: Callable[..., Any], ignore_missing: bool, tmp_path: Path
) -> None:
    systems = samples()
    # a system with missing questions and rows out of gold order, last (scored in the child)
    rows = [json.loads(line) for line in Path(systems[0].files[0]).read_text("utf-8").splitlines()]
    part = tmp_path / "sparse.jsonl"
    part.write_text("".join(json.dumps(r) + "\n" for r in rows[::-3]), "utf-8")
    systems.append(SystemInput("sparse", (str(part),)))
    options: dict[str, Any] = {"profile": profile, "ignore_missing": ignore_missing}
    alone = evaluate(GOLD, systems, **options)
    split = evaluate(GOLD, systems, background=background, **options)
    assert split == alone  # every field, every question record (dataclass equality)
    assert [s.questions for s in split.systems] == [s.questions for s in alone.systems]
    assert split.warnings == alone.warnings


def test_progress_is_reported_for_every_system_in_order() -> None:
    names: list[str] = []
    evaluate(GOLD, samples(), background=in_child, progress=names.append)
    assert names == [s.name for s in samples()]


def bad(tmp_path: Path, name: str) -> SystemInput:
    path = tmp_path / f"{name}.jsonl"
    path.write_text('{"question_id": "s-S01", "prediction": \n', "utf-8")
    return SystemInput(name, (str(path),))


@pytest.mark.parametrize("background", [in_child, in_line])
def test_the_first_error_in_system_order_is_raised(
    background: Callable[..., Any], tmp_path: Path
) -> None:
    good = samples()
    first, last = bad(tmp_path, "first"), bad(tmp_path, "last")
    for systems, culprit in (([first, *good, last], "first"), ([*good, last], "last")):
        with pytest.raises(InputFileError) as alone:
            evaluate(GOLD, systems)
        with pytest.raises(InputFileError) as split:
            evaluate(GOLD, systems, background=background)
        assert culprit in str(split.value)
        assert str(split.value) == str(alone.value)


def test_no_split_below_the_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runs, "MIN_QUESTIONS", 10**9)
    started: list[int] = []

    def counting(task: Callable[[], Any]) -> Callable[[], Any]:
        started.append(1)
        return in_line(task)

    assert evaluate(GOLD, samples(), background=counting) == evaluate(GOLD, samples())
    assert started == []

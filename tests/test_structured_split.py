"""A structured run scored in parts (two processes in the CLI) gives the one-pass report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay.cli.structured_cmd as structured_cmd
from assay.cli.forked import ChildFailedError, in_child
from assay.cli.main import main as cli
from assay.io.bundled import data_path
from assay.report.structured.files import render_structured_csv, render_structured_jsonl
from assay.report.structured.json_stream import ITEMS_PER_CHUNK
from assay.structured.api import prepare_structured, score_structured
from assay.structured.summary import Tally

BASE = data_path("structured")


def reference(report: Any) -> str:
    """The standard library's indented JSON text: the oracle for the report's bytes."""
    return json.dumps(report, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def _inputs(folder: Path, copies: int) -> tuple[Path, Path]:
    """The bundled example's items and references, ``copies`` times over with fresh ids."""
    rows = [json.loads(line) for line in (BASE / "responses.jsonl").open(encoding="utf-8")]
    refs = {}
    for line in (BASE / "references.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        refs[row["id"]] = row
    items, references = folder / "items.jsonl", folder / "references.jsonl"
    with items.open("w", encoding="utf-8") as out, references.open("w", encoding="utf-8") as ref:
        for copy in range(copies):
            for row in rows:
                new_id = f"{row['id']}-{copy}"
                out.write(json.dumps({**row, "id": new_id}) + "\n")
                if row["id"] in refs:
                    ref.write(json.dumps({**refs[row["id"]], "id": new_id}) + "\n")
    return items, references


def _state(tally: Tally) -> list[Any]:
    """Every count of a tally, with the order in which each counter saw its keys."""
    out: list[Any] = []
    for name, value in vars(tally).items():
        if name == "by_field":
            out.append([(k, list(v.items())) for k, v in value.items()])
        elif isinstance(value, dict):
            out.append(list(value.items()))
        else:
            out.append(value)
    return out


@pytest.fixture(scope="module")
def example_results() -> Any:
    report = score_structured(
        BASE / "responses.jsonl", BASE / "product.schema.json",
        references=BASE / "references.jsonl", read_facts_from_wrapped=True,
    )  # fmt: skip
    return report.results


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_absorbed_tallies_are_one_pass(example_results: Any, data: st.DataObject) -> None:
    """Tally of a run == the tallies of its consecutive pieces absorbed in order."""
    results = data.draw(st.permutations(example_results))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(results)), max_size=4)))
    bounds = [0, *cuts, len(results)]
    merged = Tally()
    for start, stop in zip(bounds, bounds[1:], strict=False):
        merged.absorb(Tally.of(results[start:stop]))
    assert _state(merged) == _state(Tally.of(results))


@pytest.mark.parametrize("wrapped", [False, True])
@pytest.mark.parametrize("cut", [0, 1, 17, 29, 30])
def test_parts_give_the_report_of_one_pass(wrapped: bool, cut: int) -> None:
    kwargs: dict[str, Any] = {
        "references": BASE / "references.jsonl", "read_facts_from_wrapped": wrapped,
    }  # fmt: skip
    whole = score_structured(BASE / "responses.jsonl", BASE / "product.schema.json", **kwargs)
    run = prepare_structured(BASE / "responses.jsonl", BASE / "product.schema.json", **kwargs)
    total = len(run.items)
    report = run.report_dict([run.part(0, cut), run.part(cut, total)])
    assert reference(report) == reference(whole.to_dict())


def test_parts_that_miss_an_item_are_refused() -> None:
    run = prepare_structured(BASE / "responses.jsonl", BASE / "product.schema.json")
    with pytest.raises(Exception, match="scored parts hold 29 of 30 items"):
        run.report_dict([run.part(0, 10), run.part(11, 30)])


def _cli_report(tmp_path: Path, items: Path, references: Path, *extra: str) -> str:
    out = tmp_path / "report.json"
    cli(["structured", "--items", str(items), "--schema", str(BASE / "product.schema.json"),
         "--references", str(references), "--output", str(out), *extra])  # fmt: skip
    return out.read_text("utf-8")


@pytest.mark.parametrize("per_item", [None, "per-item.jsonl", "per-item.csv"])
@pytest.mark.parametrize("wrapped", [False, True])
def test_cli_scores_half_in_a_child_with_the_same_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, wrapped: bool, per_item: str | None
) -> None:
    """Above the threshold the CLI forks once; its files are those of the one-pass report.

    Without ``--per-item`` the child sends its records as JSON text, else as records.
    """
    items, references = _inputs(tmp_path, copies=70)  # 2,100 items
    sent: list[int] = []

    def counted(task: Any, **kwargs: Any) -> Any:
        collect = in_child(task, **kwargs)

        def collected() -> Any:
            part, later = collect()
            sent.append(len(part.items))
            sent.append(len(later))
            return part, later

        return collected

    monkeypatch.setattr(structured_cmd, "in_child", counted)
    extra = ("--read-facts-from-wrapped",) if wrapped else ()
    if per_item is not None:
        extra += ("--per-item", str(tmp_path / per_item))
    forks = structured_cmd.can_fork()  # False while another test's thread still runs
    text = _cli_report(tmp_path, items, references, *extra)
    child = 2100 - 2100 * structured_cmd.PARENT_SHARE // 100
    pieces = -(-child // ITEMS_PER_CHUNK)
    if forks:
        assert sent == ([0, pieces] if per_item is None else [child, 0])
    else:  # with other threads alive the CLI must not fork at all
        assert sent == []
    whole = score_structured(
        items, BASE / "product.schema.json", references=references,
        read_facts_from_wrapped=wrapped,
    ).to_dict()  # fmt: skip
    assert text == reference(whole)
    if per_item is not None:
        written = (tmp_path / per_item).read_text("utf-8")
        render = render_structured_csv if per_item.endswith(".csv") else render_structured_jsonl
        assert written == render(whole)


def test_cli_scores_the_half_here_when_the_child_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    items, references = _inputs(tmp_path, copies=2)
    monkeypatch.setattr(structured_cmd, "SPLIT_MIN_ITEMS", 1)

    def failed(task: Any, **kwargs: Any) -> Any:
        def collect() -> Any:
            raise ChildFailedError("killed")

        return collect

    monkeypatch.setattr(structured_cmd, "in_child", failed)
    text = _cli_report(tmp_path, items, references)
    whole = score_structured(items, BASE / "product.schema.json", references=references)
    assert text == reference(whole.to_dict())


def test_small_runs_do_not_fork(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    items, references = _inputs(tmp_path, copies=2)

    def refused(task: Any, **kwargs: Any) -> Any:
        raise AssertionError("forked for 60 items")

    monkeypatch.setattr(structured_cmd, "in_child", refused)
    text = _cli_report(tmp_path, items, references)
    whole = score_structured(items, BASE / "product.schema.json", references=references)
    assert text == reference(whole.to_dict())

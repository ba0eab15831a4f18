"""System names and slice labels are drawn as their own characters in the terminal report.

rich reads a ``str`` cell as markup and emoji codes: a system named ``[/0]`` made
``assay eval`` fail with rich's ``MarkupError``, ``[bold]x`` was drawn as a bold
``x`` and ``:smile:`` as an emoji. The renderer passes such text as ``Text`` (and
prints its lines with markup and emoji off), so what is drawn is the name.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from assay.evaluation.compare import CompareOptions, result_document
from assay.evaluation.runs import SystemInput, evaluate
from assay.report.result.terminal import print_result
from cli_helpers import run_captured
from compare_helpers import GOLD_DIR, write_predictions

HOSTILE = {
    "[/0]": [1, 1, 1, 1, 1, 0],  # rich raises MarkupError on a closing tag nothing opened
    "[bold]x": [1, 0, 1, 0, 1, 0],  # would be drawn as a bold "x"
    ":smile:": [0, 0, 1, 0, 0, 0],  # would be drawn as an emoji
    "a\\[b]": [1, 1, 1, 0, 0, 0],  # a backslash escape: drawn as "a[b]"
}
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _system_args(tmp_path: Path) -> list[str]:
    """``--system NAME=FILE`` for each hostile name (file names need not be the names)."""
    paths = write_predictions(tmp_path / "pred", dict(zip(
        [f"s{k}" for k in range(len(HOSTILE))], HOSTILE.values(), strict=True
    )))  # fmt: skip
    args = []
    for name, path in zip(HOSTILE, paths, strict=True):
        args += ["--system", f"{name}={path}"]
    return args


def _cells(out: str) -> set[str]:
    """Every cell text of the drawn tables (split on the box characters)."""
    return {c.strip() for line in out.splitlines() for c in re.split(r"[│┃|]", line)}


def test_eval_draws_hostile_system_names_as_written(tmp_path: Path) -> None:
    code, out, err = run_captured(
        "eval", "--data-dir", str(GOLD_DIR), *_system_args(tmp_path), "--trials", "200",
    )  # fmt: skip
    assert code == 0, err
    assert "Traceback" not in err and "MarkupError" not in err
    cells = _cells(out)
    for name in HOSTILE:
        assert name in cells, (name, out)
    assert "😄" not in out and "\x1b[1m" not in out


def _document(tmp_path: Path) -> dict[str, Any]:
    paths = write_predictions(tmp_path / "pred", dict(zip(
        [f"s{k}" for k in range(len(HOSTILE))], HOSTILE.values(), strict=True
    )))  # fmt: skip
    systems = [SystemInput(n, (str(p),)) for n, p in zip(HOSTILE, paths, strict=True)]
    result = evaluate(sorted(GOLD_DIR.glob("qa_*.jsonl")), systems)
    return result_document(result, CompareOptions(n_resamples=200))


# the same length, and one name's first k characters map like another's ("[" to "Q")
SAFE = {"[/0]": "Qz0Q", "[bold]x": "Qboldyx", ":smile:": "Qsmiley", "a\\[b]": "aQQbQ"}


def _renamed(document: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    text = json.dumps(document, ensure_ascii=False)
    for old, new in names.items():
        text = text.replace(json.dumps(old, ensure_ascii=False), json.dumps(new))
    return dict(json.loads(text))


def _drawn(document: dict[str, Any], width: int) -> str:
    console = Console(file=io.StringIO(), width=width, force_terminal=True,
                      color_system="truecolor")  # fmt: skip
    print_result(document, console)
    return console.file.getvalue()  # type: ignore[attr-defined]


@pytest.mark.parametrize("width", [60, 100, 200])
def test_hostile_names_draw_like_plain_names_of_their_length(tmp_path: Path, width: int) -> None:
    """Colours and layout are those of plain names; only the names' characters differ.

    Each name is swapped for a plain one of the same length: the drawn bytes (styles
    included) with each name swapped back must be those of the hostile document.
    """
    document = _document(tmp_path)
    label = {"[red]lab:smile:": "Qredylabysmiley"}
    first = next(iter(document["slices"]["split"]))  # a slice label from the gold, hostile
    document["slices"]["split"] = {
        ("[red]lab:smile:" if k == first else k): v for k, v in document["slices"]["split"].items()
    }
    plain = _drawn(_renamed(document, {**SAFE, **label}), width)
    hostile = _drawn(document, width)
    swaps = dict(sorted({**SAFE, **label}.items(), key=lambda kv: -len(kv[0])))  # longest first
    for old, new in swaps.items():
        hostile = hostile.replace(old, new)
    for k in range(max(map(len, swaps)), 0, -1):  # a name cut to fit: its first k characters
        for old, new in swaps.items():
            hostile = hostile.replace(old[:k] + "…", new[:k] + "…")
    assert hostile == plain
    assert [new for new in swaps.values() if new not in plain] == [] or width < 200  # else cut

"""Names from the inputs are printed as written by ``assay structured`` and ``assay score``.

rich reads a ``str`` as markup and emoji codes: ``[/0]`` would raise ``MarkupError``,
``[bold]x`` would be drawn as a bold ``x``, ``:smile:`` as an emoji and ``a\\[b]`` as
``a[b]``. Field names of the contract (the field-errors table), the contract's file
name (the first line) and system names (file stems in ``assay score``'s ranking) come
from the user: each must be printed as its own characters, without a crash.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from cli_helpers import run_captured

HOSTILE = ["[/0]", "[bold]x", ":smile:", "a\\[b]"]
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _cells(out: str) -> set[str]:
    """Every cell text of the drawn tables (split on the box characters)."""
    return {c.strip() for line in out.splitlines() for c in re.split(r"[│┃|]", line)}


def test_structured_prints_hostile_field_and_file_names_as_written(tmp_path: Path) -> None:
    names = [n for n in HOSTILE if "/" not in n]  # a JSON pointer escapes "/" (~1)
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {name: {"type": "integer"} for name in names},
    }
    schema_path = tmp_path / "[bold]c:smile:.schema.json"
    schema_path.write_text(json.dumps(schema), encoding="utf-8")
    items = tmp_path / "items.jsonl"
    response = json.dumps({name: "not an integer" for name in names} | {"[/0]": 1})
    items.write_text(json.dumps({"id": "[/0]", "response": response}) + "\n", encoding="utf-8")
    code, out, err = run_captured(
        "structured", "--items", str(items), "--schema", str(schema_path),
        "--output", str(tmp_path / "report.json"),
    )  # fmt: skip
    assert code == 0, err
    assert "Traceback" not in err and "MarkupError" not in err
    text = ANSI.sub("", out)
    assert f"contract {schema_path.name} (" in text
    cells = _cells(text)
    for name in names:
        assert "/" + name in cells, (name, text)
    assert "😄" not in text


def test_score_prints_hostile_system_names_as_written(tmp_path: Path) -> None:
    files = []
    for n, name in enumerate(n for n in HOSTILE if "/" not in n):
        path = tmp_path / f"{name}.jsonl"
        rows = [{"id": str(i), "prediction": "a b" if i <= n else "z", "targets": ["a b"]}
                for i in range(4)]  # fmt: skip
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        files += ["-f", str(path)]
    code, out, err = run_captured("score", "f1", *files, "--trials", "100")
    assert code == 0, err
    assert "Traceback" not in err and "MarkupError" not in err
    text = ANSI.sub("", out)
    for name in HOSTILE:
        if "/" not in name:
            assert re.search(r"^\d+\s+" + re.escape(name) + r"\s", text, re.M), (name, text)
    assert "😄" not in text

"""Every fenced command and snippet of the README runs as written, in document order; so do
the complete inline commands of the prose, and every inline `assay ...` span names a real
command and real options.

``bash`` blocks run in one temporary folder with the installed ``assay`` and ``python``
first on PATH (``set -euo pipefail``: any failing line fails the test); ``python``
blocks run there in one shared namespace. ``text`` blocks are not commands. The two
``make`` lines of the quick start: ``make test`` is the run this test is part of, and
``make demo`` is ``assay demo`` (checked against the Makefile), which runs here.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```$", re.DOTALL | re.MULTILINE)


def readme_blocks() -> list[tuple[int, str, str]]:
    """``(line, language, text)`` of every fenced block of the README."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [
        (text.count("\n", 0, m.start()) + 1, m.group(1), m.group(2)) for m in BLOCK.finditer(text)
    ]


def test_every_block_has_a_known_language() -> None:
    blocks = readme_blocks()
    assert len(blocks) >= 10
    assert {lang for _, lang, _ in blocks} <= {"bash", "python", "text"}


def test_make_demo_is_assay_demo() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\ndemo:", 1)[1].split("\n\n", 1)[0]
    assert "$(BIN)/assay demo" in recipe
    assert "\ntest: browser" in makefile  # make test installs the browser itself


def _bash(script: str) -> str:
    """The block as run: ``make demo`` is ``assay demo``; ``make test`` is this run."""
    lines = []
    for line in script.splitlines():
        command = line.split("#", 1)[0].strip()
        if command == "make test":
            continue
        lines.append("assay demo" if command == "make demo" else line)
    return "\n".join(lines)


def _run_bash(line: int, script: str, cwd: Path) -> None:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env.pop("PYTHONPATH", None)
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", _bash(script)],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, (
        f"README bash block at line {line} failed ({done.returncode}):\n"
        f"{script}\n--- stderr:\n{done.stderr[-3000:]}"
    )
    assert "Traceback" not in done.stderr


def test_readme_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {"__name__": "__readme__"}
    ran = 0
    for line, language, text in readme_blocks():
        if language == "bash":
            _run_bash(line, text, tmp_path)
        elif language == "python":
            try:
                exec(compile(text, f"README.md:{line}", "exec"), namespace)
            except Exception as exc:  # pragma: no cover - the message is the point
                pytest.fail(f"README python block at line {line} raised {exc!r}:\n{text}")
        else:
            continue
        ran += 1
    assert ran >= 11
    # The commands wrote what the README says they write.
    for name in ("report.json", "per_question.csv", "assay-result.json", "report.html",
                 "again.md", "items.csv", "atlas-7b.html", "structured.json", "items.jsonl",
                 "release/results/summary.json", "assay-demo/report.html",
                 "atlas-result.json", "scores.jsonl"):  # fmt: skip
        assert (tmp_path / name).is_file(), name


FENCED = re.compile(r"^```.*?^```$", re.DOTALL | re.MULTILINE)
INLINE = re.compile(r"`(assay [^`]*)`")
# Inline commands a reader copies as they stand: each runs (after the fenced blocks' run).
COMPLETE = (
    "assay data path", "assay demo --show-data-dir", "assay data list", "assay metrics",
    "assay metrics --format markdown", "assay check assay-demo", "assay data path structured",
    "assay structured --example", "assay data path code", "assay demo",
)  # fmt: skip


def inline_commands() -> list[str]:
    """Every inline ``assay ...`` code span of the README's prose (fenced blocks left out)."""
    prose = FENCED.sub("", (ROOT / "README.md").read_text(encoding="utf-8"))
    return [" ".join(span.split()) for span in INLINE.findall(prose)]


def _command(words: list[str]) -> tuple[Any, list[str]]:
    """The click command the words name (through groups) and the words after it."""
    import click

    from assay.cli.main import cli

    command: Any = cli
    rest = words[1:]
    while isinstance(command, click.Group) and rest and not rest[0].startswith("-"):
        found = command.get_command(click.Context(command), rest[0])
        if found is None:
            break
        command, rest = found, rest[1:]
    return command, rest


def test_every_inline_command_names_real_commands_and_options() -> None:
    spans = inline_commands()
    assert len(spans) >= 40
    for span in spans:
        command, rest = _command(span.replace("[", " ").replace("]", " ").split())
        assert command.name != "cli", span  # a real subcommand
        known = {opt for param in command.params for opt in param.opts + param.secondary_opts}
        for word in rest:
            if word.startswith("--"):
                assert word.split("=", 1)[0] in known, (span, word)


def test_complete_inline_commands_run_as_written(tmp_path: Path) -> None:
    spans = set(inline_commands())
    assert set(COMPLETE) <= spans, set(COMPLETE) - spans
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env.pop("PYTHONPATH", None)
    for span in ("assay demo", *COMPLETE):  # the demo first: `assay check assay-demo` reads it
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", span], cwd=tmp_path, env=env,
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert done.returncode == 0, (span, done.stderr[-2000:])
        assert "Traceback" not in done.stderr and done.stdout.strip(), span

"""Issue 32 item 9: one meaning per flag, the table of every flag, one error style."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from statistics import NormalDist

import click
import pytest

import assay
from assay.cli.deprecated import DEPRECATED
from assay.cli.flag_table import render
from assay.cli.main import COMMANDS, EXIT_CODES, cli

ROOT = Path(__file__).resolve().parents[1]
DATA = assay.data_path("xlsample")


def assay_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "assay", *args], capture_output=True, text=True, timeout=300
    )


def all_commands() -> dict[str, click.Command]:
    """Every command of ``assay``, loaded."""
    ctx = click.Context(cli)
    commands = {name: cli.get_command(ctx, name) for name in COMMANDS}
    return {name: command for name, command in commands.items() if command is not None}


def meaning(param: click.Option) -> tuple[str, bool, bool]:
    """What a flag stands for: where its value goes (``x_path`` is ``x``), switch, repeatable."""
    return (str(param.name).removesuffix("_path"), param.is_flag, param.multiple)


def test_no_flag_has_two_meanings_across_commands() -> None:
    seen: dict[str, dict[tuple[str, bool, bool], list[str]]] = {}
    for name, command in all_commands().items():
        for param in command.params:
            if isinstance(param, click.Option):
                for flag in (*param.opts, *param.secondary_opts):
                    seen.setdefault(flag, {}).setdefault(meaning(param), []).append(name)
    clashes = {flag: uses for flag, uses in seen.items() if len(uses) > 1}
    assert clashes == {}
    # every deprecated spelling is gone from the command it was deprecated on
    for command, table in DEPRECATED.items():
        flags = {f for p in all_commands()[command].params for f in p.opts}
        assert not set(table) & flags, command


def test_docs_cli_md_is_the_generated_table() -> None:
    text = (ROOT / "docs" / "cli.md").read_text("utf-8")
    assert text == render(all_commands(), EXIT_CODES), (
        "regenerate: python tests/test_cli_flag_table.py > docs/cli.md"
    )
    assert "| eval | `--rank-by` |" in text and "| score | `--resamples` |" in text
    assert "[docs/cli.md](docs/cli.md)" in (ROOT / "README.md").read_text("utf-8")


def test_eval_and_compare_take_confidence(tmp_path: Path) -> None:
    levels = {}
    for level in ("0.9", "0.95"):
        out = tmp_path / f"r{level}.json"
        done = assay_cli("compare", "--data-dir", str(DATA), "--predictions",
                         str(DATA / "predictions"), "--confidence", level, "--result-json",
                         str(out))  # fmt: skip
        assert done.returncode == 0, done.stderr
        levels[level] = json.loads(out.read_text("utf-8"))
    for level, document in levels.items():
        assert document["statistics"]["confidence"] == float(level)
        rate = document["systems"][0]["accuracy_rate"]
        # Wilson score interval by hand at this level
        z = NormalDist().inv_cdf(0.5 + float(level) / 2)
        k, n = rate["k"], rate["n"]
        p = k / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        assert (rate["lower"], rate["upper"]) == pytest.approx((centre - half, centre + half))


def test_a_deprecated_spelling_warns_once_and_means_the_new_one(tmp_path: Path) -> None:
    runs = {}
    for spelling in (["--resamples", "120", "--metric", "anls"], ["--trials", "120",
                                                                    "--rank-by", "anls"]):
        out = tmp_path / f"{spelling[0]}.json"
        done = assay_cli("compare", "--data-dir", str(DATA), "--predictions",
                         str(DATA / "predictions"), *spelling, "--result-json", str(out))
        assert done.returncode == 0, done.stderr
        runs[spelling[0]] = (done.stderr, out.read_bytes())
    warned, plain = runs["--resamples"], runs["--trials"]
    assert warned[1] == plain[1]
    assert warned[0].splitlines()[:2] == [
        "warning: assay compare --resamples is deprecated; use --trials",
        "warning: assay compare --metric is deprecated; use --rank-by",
    ]
    assert "warning" not in plain[0]


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["eval", "--bogus"], 2),
        (["evl"], 2),
        (["eval", "--test", "nope"], 2),
        (["score", "wibble", "-p", "a", "-t", "a"], 2),
        (["check", "/no/such/folder"], 3),
        (["eval", "--gold-files", "/no/such/gold.jsonl", "--predictions", "/no/p.jsonl"], 3),
    ],
)
def test_every_mistake_is_one_error_line_with_its_exit_code(args: list[str], code: int) -> None:
    done = assay_cli(*args)
    assert done.returncode == code
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert "Usage:" not in done.stderr and "Traceback" not in done.stderr


if __name__ == "__main__":
    print(render(all_commands(), EXIT_CODES), end="")

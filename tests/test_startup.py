"""Start-up stays light: ``import assay`` and ``assay --help`` load only what they need.

The times themselves are measured by ``bench/import_time.py``; these tests pin what
gets imported, and that the lazily loaded names and commands are the real ones.
"""

from __future__ import annotations

import subprocess
import sys

import click
import pytest

import assay
from assay.cli.main import COMMANDS, cli


def loaded_after(code: str) -> list[str]:
    probe = f"{code}; import sys; print(' '.join(sorted(sys.modules)))"
    return subprocess.check_output([sys.executable, "-c", probe], text=True).split()


def test_import_assay_loads_only_the_errors_and_version() -> None:
    ours = [m for m in loaded_after("import assay") if m.startswith("assay")]
    assert ours == ["assay", "assay._version", "assay.errors", "assay.signature"]


HELP = """
import sys
from assay.cli.main import main
sys.argv = ["assay", "--help"]
try:
    main()
except SystemExit:
    pass
"""


def test_help_loads_no_command_module_nor_library() -> None:
    loaded = loaded_after(f"exec({HELP!r})")
    heavy = [m for m in loaded if m.startswith(("assay.cli.", "assay.metrics", "numpy"))]
    assert heavy == ["assay.cli.main"]


def test_every_public_name_resolves_to_its_module_object() -> None:
    from assay.api import score
    from assay.structured import score_structured

    assert assay.score is score
    assert assay.score_structured is score_structured
    assert all(getattr(assay, name) is not None for name in assay.__all__)
    assert set(assay.__all__) <= set(dir(assay))
    with pytest.raises(AttributeError, match="no_such_name"):
        assay.no_such_name  # noqa: B018


def test_signature_stays_the_function_when_its_module_loads_first() -> None:
    code = "import assay.signature, assay.metrics.base, assay; print(assay.signature('f1'))"
    out = subprocess.check_output([sys.executable, "-c", code], text=True).strip()
    assert out == assay.bind("f1").signature


def test_help_lines_are_the_commands_own() -> None:
    ctx = click.Context(cli)
    assert cli.list_commands(ctx) == sorted(COMMANDS)
    for name, (_, _, line) in COMMANDS.items():
        command = cli.get_command(ctx, name)
        assert command is not None and command.name == name
        assert command.get_short_help_str(limit=200) == line


def test_help_lists_every_command_with_its_line() -> None:
    out = subprocess.check_output([sys.executable, "-m", "assay", "--help"], text=True)
    for name, (_, _, line) in COMMANDS.items():
        assert f"  {name} " in out and line in out


def test_unknown_command_still_suggests_the_close_one() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "assay", "evl"], capture_output=True, text=True, check=False
    )
    assert run.returncode == 2
    assert "No such command 'evl'. Did you mean 'eval'?" in run.stderr

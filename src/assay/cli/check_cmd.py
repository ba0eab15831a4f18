"""``assay check DIR``: validate a benchmark release, then run the smoke test."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from assay.cli.options import profile_option


@click.command("check", short_help="Validate a benchmark release, then run the smoke test.")
@click.argument("directory", type=click.Path(path_type=Path))
@profile_option("Profile for the fingerprint when summary.json names none.")
def check_command(directory: Path, profile: str) -> None:
    """Check the release in DIRECTORY, then run the bundled five-question smoke test.

    DIRECTORY holds the gold files, documents.jsonl, an optional manifest.json and
    optional results/ (as `assay demo --out` writes them). Checked: counts, unique ids,
    documents and evidence pages, vocabulary, score files against a re-computation, and
    the fingerprint. Exits non-zero on any problem or a failing smoke test.
    """
    from assay.errors import InputFileError
    from assay.evaluation.validate import check_release, smoke_test

    if not directory.is_dir():  # a missing input is exit 3, as on every command
        kind = "is a file, not a folder" if directory.exists() else "no such folder"
        raise InputFileError(directory, f"{kind}; give the release's folder")

    problems = check_release(directory, profile)
    for problem in problems:
        click.echo(str(problem))
    click.echo(f"{len(problems)} problem(s) in {directory}")
    failures = smoke_test()
    for failure in failures:
        click.echo(f"smoke: {failure}")
    click.echo(f"smoke test: {'FAIL' if failures else 'PASS'}")
    if problems or failures:
        sys.exit(1)

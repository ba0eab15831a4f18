"""``assay check DIR``: validate a benchmark release, then run the smoke test."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from assay.cli.options import profile_option


@click.command("check")
@click.argument("directory", type=click.Path(exists=True, file_okay=False, path_type=Path))
@profile_option("Profile for the fingerprint when summary.json names none.")
def check_command(directory: Path, profile: str) -> None:
    """Check a release (counts, ids, documents, pages, vocabulary, scores) and smoke-test."""
    from assay.evaluation.validate import check_release, smoke_test

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

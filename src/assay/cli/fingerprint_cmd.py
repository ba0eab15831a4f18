"""``assay fingerprint``: the evaluator's SHA-256."""

from __future__ import annotations

import click

from assay.cli.options import profile_option
from assay.evaluation.fingerprint import fingerprint


@click.command("fingerprint", short_help="Print the evaluator fingerprint (SHA-256).")
@profile_option("The profile whose configuration is hashed.")
def fingerprint_command(profile: str) -> None:
    """Print the SHA-256 over the scoring code and the profile configuration."""
    click.echo(fingerprint(profile))

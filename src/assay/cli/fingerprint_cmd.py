"""``assay fingerprint``: the evaluator's SHA-256."""

from __future__ import annotations

import click

from assay.evaluation.fingerprint import fingerprint
from assay.evaluation.profiles import PROFILES


@click.command("fingerprint")
@click.option(
    "--profile",
    type=click.Choice(sorted(PROFILES)),
    default="assay",
    show_default=True,
    help="The profile whose configuration is hashed.",
)
def fingerprint_command(profile: str) -> None:
    """Print the SHA-256 over the scoring code and the profile configuration."""
    click.echo(fingerprint(profile))

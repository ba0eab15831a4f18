"""``assay data``: where the bundled sample data lives after ``pip install``."""

from __future__ import annotations

import click

from assay.io.bundled import bundled_data_dir, data_path


@click.group("data", short_help="Show where the bundled sample data is.")
def data_command() -> None:
    """The bundled sample data: the sample benchmark, its predictions, the structured example."""


@data_command.command("path")
@click.argument("name", required=False)
def path_command(name: str | None) -> None:
    """Print the bundled data folder, or the path of NAME inside it.

    NAME is a file or folder of the bundled data, e.g. ``qa_pairs.jsonl``,
    ``xlsample``, ``xlsample/predictions`` or ``structured/responses.jsonl``.
    """
    click.echo(str(data_path(name)))


@data_command.command("list")
def list_command() -> None:
    """List every bundled data file, relative to the data folder."""
    base = bundled_data_dir()
    for path in sorted(p for p in base.rglob("*") if p.is_file()):
        click.echo(path.relative_to(base).as_posix())

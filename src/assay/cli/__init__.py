"""The command-line interface (thin: parse, call the library, render).

``cli`` is the click group (``CliRunner().invoke(cli, [...])``); ``main`` is the
``assay`` console script and ``python -m assay``.
"""

from assay.cli.main import cli, main

__all__ = ["cli", "main"]

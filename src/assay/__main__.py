"""``python -m assay`` runs the same CLI as the ``assay`` command."""

from assay.cli.main import run

if __name__ == "__main__":
    run()

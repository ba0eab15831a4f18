"""``assay demo``: the main job on the bundled sample benchmark."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import click

from assay.cli.eval_cmd import RENDERING, STATISTICS, phase, progress_bar, write_comparison_files
from assay.evaluation.runs import EvaluationResult, SystemInput, evaluate


def sample_dir() -> Path:
    """The bundled sample benchmark's directory (package data)."""
    return Path(str(resources.files("assay").joinpath("data").joinpath("xlsample")))


DEMO_FILES = (
    "report.json", "per_question.csv", "results/scores.jsonl", "results/summary.json",
    "assay-result.json", "report.html", "report.md", "structured/report.json",
    "structured/items.jsonl",
)  # fmt: skip
RELEASE_FILES = ("documents.jsonl", "qa_single_doc.jsonl", "qa_cross_doc.jsonl")


def copy_release(source: Path, target: Path, fingerprint: str) -> Path:
    """Copy the sample's documents, gold and manifest next to the results (a checkable release)."""
    from assay.io.output import write_bytes, write_file

    for name in RELEASE_FILES:
        write_bytes(target / name, (source / name).read_bytes(), option="--out")
    manifest = json.loads((source / "manifest.json").read_text(encoding="utf-8"))
    manifest["results"] = {"scores": "results/scores.jsonl", "summary": "results/summary.json"}
    manifest["score_evaluator_sha256"] = fingerprint
    text = json.dumps(manifest, indent=2) + "\n"
    return write_file(target / "manifest.json", text, option="--out")


@click.command("demo", short_help="Evaluate the bundled samples and write every report.")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("assay-demo"),
    show_default=True,
    help="Where to write the files.",
)
@click.option(
    "--profile",
    type=click.Choice(["assay", "xldocbench"]),
    default="assay",
    show_default=True,
    help="Scoring profile.",
)
@click.option(
    "--show-data-dir",
    "show_data_dir",
    is_flag=True,
    help="Print the folder of the bundled sample benchmark (gold, documents, predictions/) "
    "and exit.",
)
def demo_command(out_dir: Path, profile: str, show_data_dir: bool) -> None:
    """Evaluate the bundled sample benchmark for all bundled systems and write the reports.

    Besides the release files it writes ``assay-result.json`` (the full result with
    statistics and the bundled structured-output example), ``report.html`` and
    ``report.md``.
    """
    if show_data_dir:
        click.echo(str(sample_dir()))
        return
    from assay.evaluation.compare import result_document
    from assay.io.output import check_output_path, refuse_overwriting_inputs
    from assay.structured.example import score_bundled_example

    check_output_path(out_dir / "report.json", "--out")  # before minutes of work, not after
    source = sample_dir()
    files = sorted((source / "predictions").glob("*.jsonl"))
    refuse_overwriting_inputs(
        [("--out", out_dir / name) for name in (*DEMO_FILES, *RELEASE_FILES, "manifest.json")],
        [*files, *(source / name for name in (*RELEASE_FILES, "manifest.json"))],
    )
    systems = [SystemInput(f.stem, (str(f),)) for f in files]
    gold = [source / "qa_single_doc.jsonl", source / "qa_cross_doc.jsonl"]
    with progress_bar(len(systems)) as progress:
        result = evaluate(gold, systems, profile=profile, progress=progress)
    with phase(STATISTICS):
        structured = score_bundled_example().to_dict()
        document = result_document(result, structured=structured)
    with phase(RENDERING):
        paths = write_demo_files(out_dir, source, result, document, structured)
    print_demo_summary(document, structured, out_dir, paths, profile)


def write_demo_files(
    out_dir: Path, source: Path, result: EvaluationResult, document: dict[str, Any],
    structured: dict[str, Any],
) -> list[Path]:  # fmt: skip
    """Write every demo file; return their paths in a stable order."""
    from assay.report.release.files import write_outputs
    from assay.report.structured.files import render_structured_json, write_per_item, write_text

    written = write_outputs(
        result,
        output=out_dir / "report.json",
        per_question_csv_path=out_dir / "per_question.csv",
        results_dir=out_dir / "results",
    )
    manifest = copy_release(source, out_dir, result.fingerprint)
    reports = write_comparison_files(
        document, out_dir / "assay-result.json", out_dir / "report.html", out_dir / "report.md"
    )
    structured_paths = [
        out_dir / "structured" / "report.json",
        out_dir / "structured" / "items.jsonl",
    ]
    write_text(structured_paths[0], render_structured_json(structured), "--out")
    write_per_item(structured, structured_paths[1], "--out")
    return [*written.paths, manifest, *reports, *structured_paths]


def print_demo_summary(
    document: dict[str, Any], structured: dict[str, Any], out_dir: Path, paths: list[Path],
    profile: str,
) -> None:  # fmt: skip
    """A screenful: what was scored, the structured headlines, the leaderboard, the files.

    The full tables (pairwise tests, accounting, every slice) are in report.md and
    report.html, so the leaderboard and the file list are what stays on screen.
    """
    from assay.report.result.terminal import print_leaderboard, terminal_console

    systems = document["systems"]
    holds = all(s["accounting"]["holds"] for s in systems)
    questions = systems[0]["gold_count"] if systems else 0
    click.echo(
        f"Scored {len(systems)} systems × {questions} questions (profile {profile}); "
        f"accounting {'holds' if holds else 'DOES NOT HOLD'} for every system."
    )
    heads = {h["key"]: h for h in structured["headlines"]}
    parts = [f"{heads[k]['name']} {heads[k]['k']}/{heads[k]['n']}"
             for k in ("format_compliance", "end_to_end_pass") if k in heads]  # fmt: skip
    click.echo(f"Structured-output example ({structured['identity']['total']} items): "
               + ", ".join(parts) + ".")  # fmt: skip
    click.echo("")
    print_leaderboard(document, terminal_console())
    click.echo(f"\nFiles written to {out_dir}/ :")
    for path in paths:
        click.echo(f"  {path}")
    click.echo("Full tables (pairwise tests, accounting, every slice) are in the reports:")
    click.echo(f"HTML report: {out_dir / 'report.html'}")
    click.echo(f"Markdown report: {out_dir / 'report.md'}")
    click.echo(f"Check the release with: assay check {out_dir} --profile {profile}")

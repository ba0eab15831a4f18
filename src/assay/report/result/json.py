"""Write and read the assay result document (``assay-result.json``).

The document is the single source of truth of a comparison run (see
:mod:`assay.evaluation.compare`). It is written with sorted keys, a 2-space indent,
non-ASCII kept and a final newline, so identical inputs give identical bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from assay.errors import InputFileError, InvalidOptionError
from assay.evaluation.compare import CompareOptions, result_document
from assay.evaluation.from_report import is_release_report, result_from_report
from assay.io.json_text import dumps_indented
from assay.io.output import write_file
from assay.report.release.json import read_report

RESULT_KIND = "assay.result"
STRUCTURED_KIND = "assay.structured"
RENDERABLE_KINDS = (RESULT_KIND, STRUCTURED_KIND)


def dumps_result(document: dict[str, Any]) -> str:
    """The canonical text of a result document."""
    return dumps_indented(document, sort_keys=True, ensure_ascii=False) + "\n"


def write_text(path: str | Path, text: str, option: str = "--output") -> Path:
    """Write ``text`` as UTF-8 (line ends kept as given), creating parent folders.

    Raises:
        OutputFileError: the file cannot be written.
    """
    return write_file(path, text, option=option)


def load_result(path: str | Path, options: CompareOptions | None = None) -> dict[str, Any]:
    """Read a saved report for re-rendering.

    An assay result or structured report is returned as saved. A released
    ``report.json`` (with per-question rows) becomes a result document: its
    statistics are computed from the saved per-question scores with ``options``
    (see :mod:`assay.evaluation.from_report`).

    Raises:
        InputFileError: unreadable, invalid JSON, or not a document ``assay report`` renders.
    """
    document = read_report(path)
    kind = document.get("kind") if isinstance(document, dict) else None
    if kind is None and is_release_report(document):
        result = result_from_report(document, str(path), Path(path).stem)
        source = f"report.json ({Path(path).name}): statistics from its per-question scores"
        return result_document(result, options, source=source)
    if kind not in RENDERABLE_KINDS:
        raise InputFileError(
            path,
            f"not an assay result document (kind {kind!r}; expected one of "
            f"{', '.join(RENDERABLE_KINDS)}, nor a report.json with per_question rows); "
            "write one with `assay compare --result-json` or `assay eval --result-json`",
            field="kind",
        )
    return dict(document)


def load_reports(
    paths: Sequence[str | Path], options: CompareOptions | None = None
) -> dict[str, Any]:
    """Several saved ``report.json`` files as one comparison (system name = file stem).

    Each file is a released single-system report (or a multi-system one, whose
    systems are taken by name); statistics are computed from the saved per-question
    scores. All reports must come from the same profile and evaluator.

    Raises:
        InputFileError: a file that is not a report with per-question rows.
        InvalidOptionError: two systems with the same name, reports produced under
            different definitions (profile or evaluator fingerprint), or a system that
            shares no question with the first.
    """
    results = []
    for path in paths:
        document = read_report(path)
        if document.get("kind") in RENDERABLE_KINDS:
            raise InputFileError(
                path,
                f"is a saved {document['kind']} document; give it alone "
                "(`assay compare FILE`), or give several report.json files "
                "(from `assay eval --output`)",
            )
        results.append(result_from_report(document, str(path), Path(path).stem))
    first = results[0]
    for path, other in zip(paths[1:], results[1:], strict=True):
        if (other.profile, other.fingerprint) != (first.profile, first.fingerprint):
            raise InvalidOptionError(
                f"{path} was produced by profile {other.profile} (evaluator "
                f"{other.fingerprint[:12]}), {paths[0]} by {first.profile} "
                f"({first.fingerprint[:12]}); compare reports of the same definition"
            )
    systems = [s for r in results for s in r.systems]
    first_ids = {q.question_id for q in systems[0].questions}
    for system in systems[1:]:
        if first_ids and not first_ids & {q.question_id for q in system.questions}:
            raise InvalidOptionError(
                f"system {system.system!r} shares no question id with {systems[0].system!r}; "
                "compare reports scored on the same gold files"
            )
    names = [s.system for s in systems]
    if len(set(names)) != len(names):
        raise InvalidOptionError(
            f"system names must be unique, got {names}; rename the report files"
        )
    merged = replace(first, systems=tuple(systems))
    listed = ", ".join(Path(p).name for p in paths)
    source = f"report.json files ({listed}): statistics from their per-question scores"
    return result_document(merged, options, source=source)

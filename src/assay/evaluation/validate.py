"""Dataset check of a benchmark release directory, and the bundled smoke test.

A release directory holds ``manifest.json``, ``documents.jsonl`` (``document_id``,
``page_count``), the gold files (``qa_single_doc.jsonl``, ``qa_cross_doc.jsonl`` or
the manifest's ``files.questions``) and optionally ``results/scores.jsonl`` and
``results/summary.json``. :func:`check_release` returns every problem found, each
with its location; nothing is raised for problems in the data itself.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from assay.errors import InputFileError
from assay.evaluation.fingerprint import fingerprint
from assay.evaluation.runs import DEFAULT_GOLD_NAMES, SystemInput, evaluate
from assay.io.gold import GoldQuestion, parse_gold_row
from assay.io.jsondoc import read_json
from assay.io.jsonl import iter_jsonl

KNOWN_FORMATS = (
    "Str", "Int", "Float", "None", "Bool", "Boolean", "Percentage",
    "single_choice", "multiple_choice", "List", "Quantity",
)  # fmt: skip
#: Formats are matched case-insensitively: an unmapped format's type is its lowercased name.
_KNOWN_FORMATS_FOLDED = frozenset(f.lower() for f in KNOWN_FORMATS)
KNOWN_RULES = (
    "casefold_exact_match",
    "numeric_tolerance",
    "exact_match",
    "percentage_exact",
    "choice_exact_match",
)
SUMMARY_TOLERANCE = 1e-6


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem: where (``file:line``) and what."""

    location: str
    message: str

    def __str__(self) -> str:
        """``location: message``."""
        return f"{self.location}: {self.message}"


def _where(error: InputFileError) -> str:
    where = error.path if error.line is None else f"{error.path}:{error.line}"
    return f"{where}: field {error.field!r}" if error.field else where


def _rows(path: Path, problems: list[Problem]) -> Iterator[tuple[int, dict[str, Any]]]:
    """The rows of a JSONL file; an unreadable line becomes a problem and ends the file."""
    try:
        yield from iter_jsonl(path)
    except InputFileError as error:
        problems.append(Problem(_where(error), f"{error.problem} (rest of the file not checked)"))


def _document(path: Path, problems: list[Problem]) -> Any:
    """A JSON document, or ``{}`` (with a problem) when it cannot be read."""
    if not path.is_file():
        return {}
    try:
        return read_json(path)
    except InputFileError as error:
        problems.append(Problem(_where(error), error.problem))
        return {}


def _manifest(root: Path, problems: list[Problem]) -> dict[str, Any]:
    data = _document(root / "manifest.json", problems)
    return data if isinstance(data, dict) else {}


def _question_files(root: Path, manifest: dict[str, Any]) -> list[Path]:
    files = manifest.get("files", {})
    names = files.get("questions") if isinstance(files, dict) else None
    names = names if isinstance(names, list) and names else list(DEFAULT_GOLD_NAMES)
    return [root / name for name in names if (root / name).is_file()]


def _documents_path(root: Path, manifest: dict[str, Any]) -> Path:
    files = manifest.get("files")
    name = files.get("documents") if isinstance(files, dict) else None
    return root / name if isinstance(name, str) and name else root / "documents.jsonl"


def _documents(path: Path, problems: list[Problem]) -> dict[str, int | None]:
    documents: dict[str, int | None] = {}
    if not path.is_file():
        problems.append(Problem(str(path), "missing; list every document with its page_count"))
        return documents
    for line, row in _rows(path, problems):
        doc_id, pages = str(row.get("document_id", "")).strip(), row.get("page_count")
        where = f"{path}:{line}"
        if not doc_id:
            problems.append(Problem(where, "document without document_id"))
        elif doc_id in documents:
            problems.append(Problem(where, f"duplicate document_id {doc_id!r}"))
        if isinstance(pages, bool) or not isinstance(pages, int) or pages < 1:
            problems.append(Problem(where, f"page_count must be an integer ≥ 1, got {pages!r}"))
            pages = None
        documents[doc_id] = pages
    return documents


def _questions(files: Iterable[Path], problems: list[Problem]) -> list[GoldQuestion]:
    questions: dict[str, GoldQuestion] = {}
    for path in files:
        for line, row in _rows(path, problems):
            try:
                question = parse_gold_row(row, str(path), line)
            except InputFileError as error:
                problems.append(Problem(f"{path}:{line}", error.problem))
                continue
            if question.id in questions:
                first = questions[question.id]
                problems.append(
                    Problem(f"{path}:{line}", f"duplicate question id {question.id!r} "
                            f"(first at {first.path}:{first.line})")
                )  # fmt: skip
                continue
            questions[question.id] = question
    return list(questions.values())


def _question_problems(q: GoldQuestion, documents: dict[str, int | None]) -> Iterator[Problem]:
    where = f"{q.path}:{q.line}"
    if q.format.lower() not in _KNOWN_FORMATS_FOLDED:
        yield Problem(
            where, f"unknown answer format {q.format!r}; known: {', '.join(KNOWN_FORMATS)}"
        )
    if q.verification_rule and q.verification_rule not in KNOWN_RULES:
        yield Problem(
            where,
            f"unknown verification rule {q.verification_rule!r}; known: {', '.join(KNOWN_RULES)}",
        )
    if not q.documents:
        yield Problem(where, f"question {q.id!r} names no document")
    for ref in q.documents:
        if ref.document_id not in documents:
            yield Problem(where, f"document {ref.document_id!r} is not in documents.jsonl")
            continue
        count = documents[ref.document_id]
        for page in ref.evidence_pages:
            if isinstance(page, bool) or not isinstance(page, int) or page < 1:
                yield Problem(where, f"evidence page {page!r} of {ref.document_id} must be ≥ 1")
            elif count is not None and page > count:
                yield Problem(
                    where, f"evidence page {page} of {ref.document_id} exceeds page_count {count}"
                )


#: Manifest keys read as the expected counts, first present wins (``counts`` nests them).
COUNT_KEYS = {
    "document_count": ("document_count", "num_documents", "n_documents", "documents"),
    "question_count": ("question_count", "num_questions", "n_questions", "questions"),
}


def _stated_count(manifest: dict[str, Any], key: str) -> tuple[str, Any] | None:
    """The manifest's expected count for ``key`` and the key it was found under."""
    counts = manifest.get("counts")
    places = [(manifest, "")]
    if isinstance(counts, dict):
        places.append((counts, "counts."))
    for place, prefix in places:
        for name in COUNT_KEYS[key]:
            value = place.get(name)
            if isinstance(value, int) and not isinstance(value, bool):
                return prefix + name, value
    return None


def _count_problems(manifest: dict[str, Any], n_docs: int, n_questions: int) -> Iterator[Problem]:
    for key, actual in (("document_count", n_docs), ("question_count", n_questions)):
        stated = _stated_count(manifest, key)
        if stated is not None and stated[1] != actual:
            yield Problem(
                "manifest.json", f"{stated[0]} is {stated[1]} but the files hold {actual}"
            )


def _manifest_systems(manifest: dict[str, Any]) -> set[str]:
    """The manifest's ``systems`` list (names), or nothing."""
    listed = manifest.get("systems")
    if not isinstance(listed, list):
        return set()
    return {str(s) for s in listed if isinstance(s, str) and s.strip()}


def result_paths(root: Path, manifest: dict[str, Any]) -> tuple[Path, Path]:
    """The score files: as the manifest's ``results`` names them, else the defaults.

    Defaults: ``results/scores.jsonl`` and ``results/summary.json``.
    """
    named = manifest.get("results")
    named = named if isinstance(named, dict) else {}
    paths = []
    for key, default in (("scores", "results/scores.jsonl"), ("summary", "results/summary.json")):
        value = named.get(key)
        paths.append(root / (value if isinstance(value, str) and value else default))
    return paths[0], paths[1]


def _score_problems(
    root: Path,
    questions: list[GoldQuestion],
    listed: AbstractSet[str] = frozenset(),
    paths: tuple[Path, Path] | None = None,
) -> Iterator[Problem]:
    """Coverage of every (system, question) pair and the summary's re-computation.

    Systems are those in ``scores.jsonl``, in ``summary.json`` and listed by the manifest.
    """
    scores_path, summary_path = paths or result_paths(root, {})
    if not scores_path.is_file():
        return
    ids = {q.id for q in questions}
    rows: dict[str, dict[str, dict[str, Any]]] = {}
    unreadable: list[Problem] = []
    for line, row in _rows(scores_path, unreadable):
        system, qid = str(row.get("system")), str(row.get("question_id"))
        if row.get("system") is None or row.get("question_id") is None:
            yield Problem(f"{scores_path}:{line}", "a score row needs 'system' and 'question_id'")
            continue
        seen = rows.setdefault(system, {})
        if qid not in ids:
            yield Problem(f"{scores_path}:{line}", f"question {qid!r} is not in the gold files")
            continue
        if qid in seen:
            yield Problem(f"{scores_path}:{line}", f"duplicate row for ({system}, {qid})")
        seen[qid] = row
    summary = _document(summary_path, unreadable)
    yield from unreadable
    systems = summary.get("systems", {}) if isinstance(summary, dict) else {}
    if not isinstance(systems, dict):
        yield Problem(str(summary_path), "'systems' must be an object keyed by system name")
        systems = {}
    for system in sorted(set(rows) | set(systems) | listed):
        missing = [q.id for q in questions if q.id not in rows.get(system, {})]
        if missing:
            yield Problem(
                str(scores_path), f"system {system!r} has no score for {len(missing)} question(s), "
                f"e.g. {missing[0]!r}"
            )  # fmt: skip
        yield from _summary_problems(summary_path, system, rows.get(system, {}), systems)


def _summary_problems(
    path: Path, system: str, rows: dict[str, dict[str, Any]], systems: dict[str, Any]
) -> Iterator[Problem]:
    stated = systems.get(system)
    if not isinstance(stated, dict):
        yield Problem(str(path), f"no summary for system {system!r}")
        return
    n = len(rows)
    for metric in ("accuracy", "token_f1", "anls"):
        raw = [r.get(metric, 0.0) for r in rows.values()]
        values = [_as_number(v) for v in raw]
        bad = [v for v, number in zip(raw, values, strict=True) if number is None]
        if bad:
            shown = repr(bad[0]) if len(repr(bad[0])) <= 60 else f"{repr(bad[0])[:40]}..."
            yield Problem(
                str(path), f"{system}: a {metric} score in scores.jsonl is {shown}, not a number"
            )
            continue
        mean = sum(v for v in values if v is not None) / n if n else 0.0
        value = _as_number(stated.get(metric))
        if value is None or abs(value - mean) > SUMMARY_TOLERANCE:
            shown = repr(stated.get(metric))
            shown = shown if len(shown) <= 60 else f"{shown[:40]}..."
            yield Problem(
                str(path), f"{system}: {metric} is {shown} but scores.jsonl gives {mean:.6f}"
            )


def _as_number(value: Any) -> float | None:
    """A finite float for a JSON number (``None`` for anything else or past the range)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def _fingerprint_problems(root: Path, manifest: dict[str, Any], profile: str) -> Iterator[Problem]:
    stated = manifest.get("score_evaluator_sha256")
    if stated is None:
        return
    summary = _document(result_paths(root, manifest)[1], [])
    if isinstance(summary, dict) and isinstance(summary.get("profile"), str):
        profile = summary["profile"]
    actual = fingerprint(profile)
    if stated != actual:
        yield Problem(
            "manifest.json", f"score_evaluator_sha256 {stated} does not match this evaluator "
            f"({profile} profile: {actual}); re-score with this version or use the original one"
        )  # fmt: skip


def check_release(root: str | Path, profile: str = "assay") -> list[Problem]:
    """Every problem of a release directory, in a stable order."""
    root = Path(root)
    problems: list[Problem] = []
    manifest = _manifest(root, problems)
    documents = _documents(_documents_path(root, manifest), problems)
    files = _question_files(root, manifest)
    if not files:
        problems.append(Problem(str(root), "no gold files found"))
    questions = _questions(files, problems)
    for question in questions:
        problems.extend(_question_problems(question, documents))
    problems.extend(_count_problems(manifest, len(documents), len(questions)))
    problems.extend(
        _score_problems(root, questions, _manifest_systems(manifest), result_paths(root, manifest))
    )
    problems.extend(_fingerprint_problems(root, manifest, profile))
    return problems


def smoke_test() -> list[str]:
    """Run the bundled five-question sample (perfect predictions) under both profiles.

    Returns:
        Failures, one per metric that is not 1.0 (empty when the smoke test passes).
    """
    base = resources.files("assay").joinpath("data").joinpath("smoke")
    gold, preds = str(base.joinpath("qa_single_doc.jsonl")), str(base.joinpath("predictions.jsonl"))
    failures = []
    for profile in ("xldocbench", "assay"):
        result = evaluate([gold], [SystemInput("perfect", (preds,))], profile=profile)
        for q in result.systems[0].questions:
            for metric in ("accuracy", "token_f1", "anls"):
                if getattr(q, metric) != 1.0:
                    failures.append(f"{profile}: {q.question_id} {metric} = {getattr(q, metric)}")
    return failures

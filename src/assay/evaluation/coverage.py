"""How many gold ids a system's predictions match: no silent zero.

A prediction file written for another gold set (or with ids under another field)
matches few or none of the gold ids; scored as missing, it would print a plausible
accuracy of 0 and exit 0. Policy (:data:`PARTIAL_MATCH_THRESHOLD`):

- no gold question has a prediction: under the ``assay`` profile an error naming a
  few unmatched prediction ids and the gold's id pattern; under ``xldocbench`` (which
  must keep the released numbers) a warning;
- fewer than half of the gold questions have a prediction: a warning on stderr, in
  both profiles, with the same examples.

The same for the prediction *field* (:func:`check_fields`): a file whose rows name
the text under a field assay does not read (``model_output``) would score every
question as empty. Among a file's rows that match gold ids (those whose status is
substituted aside, they need no text; in a CSV/TSV/Parquet table, where an empty
cell is an absent field, only a table none of whose rows has one):

- none or fewer than half of them hold a prediction field: under ``assay`` an error
  naming the fields the rows have, the fields read, and ``--prediction-field``;
  under ``xldocbench`` (the released numbers) the same words as a warning;
- some lack it: a warning with the count, in both profiles.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from assay.errors import InputFileError
from assay.evaluation.align import Alignment
from assay.evaluation.profiles import SUBSTITUTED_STATUSES
from assay.io.gold import ID_FIELDS, GoldQuestion
from assay.io.predictions import PREDICTION_FIELDS, UnfieldedRow

#: A system whose predictions cover fewer gold questions than this share gets a warning.
PARTIAL_MATCH_THRESHOLD = 0.5

_DIGITS = re.compile(r"\d+")
_SPECIAL = re.compile(r"([.^$*+?{}\[\]\\|()])")


def id_shape(identifier: str) -> str:
    r"""The pattern of an id: each run of digits becomes ``\d{n}`` (``s-S01`` → ``s-S\d{2}``)."""
    pieces = _DIGITS.split(identifier)
    runs = [len(m) for m in _DIGITS.findall(identifier)]
    shape = _SPECIAL.sub(r"\\\1", pieces[0])
    for length, piece in zip(runs, pieces[1:], strict=True):
        shape += rf"\d{{{length}}}" + _SPECIAL.sub(r"\\\1", piece)
    return shape


def gold_id_pattern(gold: Sequence[GoldQuestion]) -> str:
    r"""``'s-S01', 'c-C01' (pattern s-S\d{2}, c-C\d{2})``: examples and the commonest shapes."""
    shapes = Counter(id_shape(q.id) for q in gold)
    common = [shape for shape, _ in shapes.most_common(3)]
    examples = []
    for shape in common:
        examples.append(next(q.id for q in gold if id_shape(q.id) == shape))
    more = f", and {len(shapes) - 3} other shape(s)" if len(shapes) > 3 else ""
    listed = ", ".join(repr(e) for e in examples)
    return f"{listed} (pattern {', '.join(common)}{more})"


def _examples(alignment: Alignment) -> str:
    if not alignment.extra_examples:
        return ""
    shown = ", ".join(repr(i) for i in alignment.extra_examples)
    return f", {alignment.extra_count} of them not gold ids, e.g. {shown}"


def check_coverage(
    system: str,
    files: Sequence[str | Path],
    gold: Sequence[GoldQuestion],
    alignment: Alignment,
    *,
    strict: bool,
    prediction_field: str | None = None,
    ignore_missing: bool = False,
) -> list[str]:
    """Warnings for a system with few matching ids or rows without a prediction field.

    The coverage warning is given whatever the options: under ``ignore_missing`` it
    says that the metrics are over the matched questions only.

    Raises:
        InputFileError: ``strict`` and no gold question has a prediction (named by the
            first prediction file), or a file most of whose rows have no prediction
            field (:func:`check_fields`).
    """
    found = _id_coverage(system, files, gold, alignment, strict=strict,
                         ignore_missing=ignore_missing)  # fmt: skip
    return found + check_fields(alignment, prediction_field=prediction_field, strict=strict)


def _id_coverage(
    system: str,
    files: Sequence[str | Path],
    gold: Sequence[GoldQuestion],
    alignment: Alignment,
    *,
    strict: bool,
    ignore_missing: bool = False,
) -> list[str]:
    """Warnings for a system with few matching ids; raise for none under ``strict``."""
    matched, total = alignment.matched_count, len(gold)
    if not total or matched / total >= PARTIAL_MATCH_THRESHOLD:
        return []
    where = ", ".join(str(f) for f in files) or system
    rows = alignment.prediction_count
    found = f"{rows} prediction id(s)" if rows else "no prediction rows"
    what = (
        f"system {system!r}: {matched} of {total} gold questions have a prediction "
        f"({found}{_examples(alignment)}); gold ids look like {gold_id_pattern(gold)}"
    )
    if matched == 0 and strict:
        raise InputFileError(
            files[0] if files else system,
            f"{what}; nothing would be scored. Check that these predictions belong to "
            "these gold files and that the id field is one assay reads (question_id, id, ...)",
        )
    threshold = f"{PARTIAL_MATCH_THRESHOLD:.0%}"
    if matched == 0:
        return [f"{where}: {what}; NOTHING MATCHED — every question is scored as missing"]
    if ignore_missing:
        return [f"{where}: {what}; under the {threshold} partial-match threshold, and "
                f"--ignore-missing skips the rest: every metric is over these {matched} "
                f"questions only"]  # fmt: skip
    return [f"{where}: {what}; under the {threshold} partial-match threshold, the rest is "
            "scored as missing"]  # fmt: skip


def coverage_note(matched: int, total: int, ignore_missing: bool) -> str | None:
    """``coverage 2/48 (4.2%), under the 50% threshold; ...`` for a report, or ``None``.

    The same test as the warning: a system with predictions for fewer than
    :data:`PARTIAL_MATCH_THRESHOLD` of the gold questions.
    """
    if not total or matched / total >= PARTIAL_MATCH_THRESHOLD:
        return None
    rest = (
        f"metrics over these {matched} only (--ignore-missing)"
        if ignore_missing
        else "the rest scored as missing"
    )
    return (
        f"coverage {matched}/{total} ({matched / total:.1%}), under the "
        f"{PARTIAL_MATCH_THRESHOLD:.0%} threshold; {rest}"
    )


def _field_counts(alignment: Alignment) -> dict[str, tuple[int, list[UnfieldedRow]]]:
    """Per file: its gold-matched rows that need text, and those without a field."""
    counts: dict[str, tuple[int, list[UnfieldedRow]]] = {}
    for _, row in alignment.pairs:
        if row is None or row.status in SUBSTITUTED_STATUSES:
            continue
        rows, lacking = counts.get(row.path, (0, []))
        if isinstance(row, UnfieldedRow):
            lacking.append(row)
        counts[row.path] = (rows + 1, lacking)
    return counts


def _fields_named(field: str | None) -> str:
    if field is not None:
        return f"the field {field!r} named by --prediction-field"
    return f"a prediction field ({', '.join(PREDICTION_FIELDS)})"


def _advice(first: UnfieldedRow, field: str | None) -> str:
    own = [name for name in first.found if name not in ID_FIELDS and name != "status"]
    listed = ", ".join(first.found) or "no fields"
    choose = f"--prediction-field {own[0]}" if len(own) == 1 else "--prediction-field NAME"
    return (
        f"the rows hold {listed} (as at {first.location}); name the field that holds "
        f"the text with {choose} (prediction_field= in assay.evaluate)"
        + ("" if field is not None else ", or rename it to 'prediction'")
    )


def check_fields(
    alignment: Alignment, *, prediction_field: str | None, strict: bool
) -> list[str]:
    """Warnings for prediction rows without a prediction field; raise when most lack it.

    Raises:
        InputFileError: ``strict`` and, in one file, none or fewer than half of the
            rows that need text hold a prediction field (named by the file).
    """
    warnings = []
    for path, (rows, lacking) in _field_counts(alignment).items():
        if not lacking or (lacking[0].cells and len(lacking) < rows):
            continue  # a table with a prediction column: an empty cell is an empty answer
        what = (
            f"{len(lacking)} of {rows} prediction rows matching gold ids lack "
            f"{_fields_named(prediction_field)}"
        )
        if 2 * len(lacking) <= rows:  # some rows: say how many, and where the first is
            first = lacking[0]
            warnings.append(
                f"{path}: {what}; they score as empty (one, at {first.location}, "
                f"holds {', '.join(first.found) or 'no fields'})"
            )
            continue
        advice = _advice(lacking[0], prediction_field)
        if strict:
            raise InputFileError(path, f"{what} and would score as empty; {advice}")
        warnings.append(f"{path}: {what}; as released, they score as empty; {advice}")
    return warnings

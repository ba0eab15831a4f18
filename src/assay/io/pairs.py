"""Pairs files: one ``{id, prediction, targets}`` row per line, streamed into :class:`Pair` records.

A pairs file is JSONL, or CSV/TSV by suffix (``targets`` is then one target string, or
several when the cell holds a list: ``["a", "b"]``, or ``['a', 'b']`` as pandas writes it);
``-`` reads JSONL from standard input, and compression is recognised from the
content (rows come from :func:`assay.io.tabular.iter_records`). ``targets`` may be a
string or a list of strings; ``id`` is optional (``line-N`` when absent) but, when
given, must be a string or a number and unique in the file; an optional
``no_answer_probability`` is kept for SQuAD v2.0's no-answer threshold search.
Every error names file, line and field.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assay.errors import InputFileError
from assay.io.jsonl import json_type
from assay.io.sources import display_name


@dataclass(frozen=True, slots=True)
class Pair:
    """One ``{id, prediction, targets}`` row of a pairs file."""

    id: str
    prediction: str
    targets: tuple[str, ...]
    path: str
    line: int
    no_answer_probability: float | None = None


def read_pairs(path: str | Path, *, hashed_ids: bool = False) -> Iterator[Pair]:
    """Stream ``{id, prediction, targets}`` rows; ``targets`` may be a string or a list.

    ``hashed_ids``: check id uniqueness with 8 bytes per id (:class:`HashedIds`)
    instead of keeping every id; a possible repeat is confirmed by reading the file
    again up to that row, so the same duplicate error names the same lines
    (standard input, which cannot be read twice, keeps every id).

    The file is JSONL, or CSV/TSV by suffix (``targets`` is then one target string);
    ``-`` reads JSONL from standard input; compression is recognised from the content.

    An optional ``no_answer_probability`` (a number in [0, 1]) is kept for SQuAD v2.0's
    no-answer threshold search.

    ``id`` is optional (``line-N`` when absent) but, when given, must be a string or a
    number and unique in the file.

    Raises:
        InputFileError: naming file, line and field for a missing or mistyped field or a
            duplicate id; or the file holds no rows.
    """
    from assay.io.idset import HashedIds
    from assay.io.tabular import iter_records  # on use: ``import assay.io`` stays without csv

    seen: dict[str, int] = {}
    source, path = path, display_name(path)
    hashed = HashedIds() if hashed_ids and str(source) != "-" else None

    def check_id(pair_id: str, line: int) -> None:
        if hashed is not None:
            if not hashed.add(pair_id):
                refuse_repeat(source, path, pair_id, line)
        elif pair_id in seen:
            raise _duplicate_id(path, pair_id, seen[pair_id], line)
        else:
            seen[pair_id] = line

    from assay.io.sources import input_kind

    cells = input_kind(source) in ("csv", "tsv")
    rows = 0
    for line, row in iter_records(source):
        yield pair_of_row(row, path, line, check_id, list_cells=cells)
        rows += 1
    if not rows:
        raise InputFileError(
            path, "no rows to score (the file is empty or blank); give one "
            "{id, prediction, targets} object per line"
        )  # fmt: skip


def pair_of_row(
    row: dict[str, Any], path: str, line: int,
    check_id: Callable[[str, int], None] | None = None, *, list_cells: bool = False,
) -> Pair:  # fmt: skip
    """One checked pairs row: prediction, targets, id, then ``no_answer_probability``.

    ``check_id(id, line)`` is called once the id is read (before the probability is
    checked): :func:`read_pairs` refuses a repeated id there. ``list_cells`` (CSV and
    TSV rows): a ``targets`` cell holding a list is read as several references
    (:func:`targets_of_cell`).

    Raises:
        InputFileError: naming file, line and field for a missing or mistyped field.
    """
    prediction = row.get("prediction")
    if not isinstance(prediction, str):
        problem = "missing" if "prediction" not in row else f"not a string ({prediction!r})"
        raise InputFileError(
            path, f"{problem}; give the answer text", line=line, field="prediction"
        )
    targets = row.get("targets")
    if isinstance(targets, str):
        targets = targets_of_cell(targets, path, line) if list_cells else [targets]
    if not isinstance(targets, list) or not targets or not all(isinstance(t, str) for t in targets):
        raise InputFileError(
            path,
            f"must be a non-empty list of strings, got {targets!r}",
            line=line,
            field="targets",
        )
    pair_id = _pair_id(row, path, line, None)
    if check_id is not None:
        check_id(pair_id, line)
    chance = row.get("no_answer_probability")
    if isinstance(chance, str):  # CSV/TSV cells are text
        chance = _number_or_text(chance)
    if chance is not None and (
        isinstance(chance, bool) or not isinstance(chance, (int, float)) or not 0 <= chance <= 1
    ):
        raise InputFileError(
            path,
            f"must be a probability between 0 and 1, got {chance!r}",
            line=line,
            field="no_answer_probability",
        )
    return Pair(pair_id, prediction, tuple(targets), str(path), line,
                None if chance is None else float(chance))  # fmt: skip


def targets_of_cell(cell: str, path: str, line: int) -> list[str]:
    """A CSV ``targets`` cell: one reference, or several when it holds a list of strings.

    A cell that reads as a JSON list (``["a", "b"]``) or as the Python list pandas'
    ``to_csv`` writes for a list column (``['a', 'b']``, read by ``ast.literal_eval``,
    which evaluates literals only) is that list of references. Any other cell is one
    reference, brackets and all (``[citation needed]`` reads as neither).

    Raises:
        InputFileError: the cell is a list that is not a non-empty list of strings.
    """
    text = cell.strip()
    if not (text.startswith("[") and text.endswith("]")):
        return [cell]
    try:
        value = json.loads(text)
    except ValueError:
        try:
            value = ast.literal_eval(text)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return [cell]
    if isinstance(value, list) and value and all(isinstance(t, str) for t in value):
        return value
    raise InputFileError(
        path,
        f"the cell {cell!r} is a list but not a non-empty list of strings; give several "
        'references as a list of strings (["a", "b"]), or one reference that is itself '
        'bracketed as ["[1, 2]"]',
        line=line,
        field="targets",
    )


def _number_or_text(cell: str) -> float | str | None:
    """A CSV cell as a number (``None`` when blank); the text itself if it is not one."""
    if not cell.strip():
        return None
    try:
        return float(cell)
    except ValueError:
        return cell


def refuse_repeat(source: str | Path, path: str, pair_id: str, line: int) -> None:
    """Raise the duplicate-id error if ``pair_id`` occurs before ``line``.

    A repeated hash may also be two ids with one hash: then nothing is raised.
    """
    from assay.io.tabular import iter_records

    for earlier, row in iter_records(source):
        if earlier >= line:
            return
        if _pair_id(row, path, earlier, None) == pair_id:
            raise _duplicate_id(path, pair_id, earlier, line)


def _duplicate_id(path: str | Path, pair_id: str, first: int, line: int) -> InputFileError:
    return InputFileError(
        path,
        f"duplicate id {pair_id!r} (first on line {first}); ids must be unique",
        line=line,
        field="id",
    )


def _pair_id(row: dict[str, Any], path: str | Path, line: int, seen: dict[str, int] | None) -> str:
    """The id of a pairs row (``line-N`` when absent).

    When ``seen`` is given the id is checked against it and recorded there.
    """
    value = row.get("id")
    if value is None:
        pair_id = f"line-{line}"
    elif isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise InputFileError(
            path,
            f"an id must be a string or a number, got {json_type(value)} {value!r}",
            line=line,
            field="id",
        )
    else:
        pair_id = str(value).strip()
    if seen is None:
        return pair_id
    if pair_id in seen:
        raise _duplicate_id(path, pair_id, seen[pair_id], line)
    seen[pair_id] = line
    return pair_id

"""How many gold ids a system's predictions match: no silent zero.

A prediction file written for another gold set (or with ids under another field)
matches few or none of the gold ids; scored as missing, it would print a plausible
accuracy of 0 and exit 0. Policy (:data:`PARTIAL_MATCH_THRESHOLD`):

- no gold question has a prediction: under the ``assay`` profile an error naming a
  few unmatched prediction ids and the gold's id pattern; under ``xldocbench`` (which
  must keep the released numbers) a warning;
- fewer than half of the gold questions have a prediction: a warning on stderr, in
  both profiles, with the same examples.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from assay.errors import InputFileError
from assay.evaluation.align import Alignment
from assay.io.gold import GoldQuestion

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
) -> list[str]:
    """Warnings for a system with few matching ids; raise for none under ``strict``.

    Raises:
        InputFileError: ``strict`` and no gold question has a prediction (named by the
            first prediction file).
    """
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
    return [f"{where}: {what}; under the {threshold} partial-match threshold, the rest is "
            "scored as missing"]  # fmt: skip

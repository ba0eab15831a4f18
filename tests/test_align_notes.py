"""Released-reading notes are counted once per row, also when align reads a file twice.

A repeated extra id (or two extra ids sharing a 32-bit hash) makes align read the
prediction files a second time to tell them apart; the notes of that second read must
not be added to the first read's. The counts below are counted by hand from the file.
"""

from __future__ import annotations

import json
from pathlib import Path

from assay.evaluation.align import align
from assay.evaluation.runs import SystemInput, evaluate
from assay.io.gold import read_gold
from assay.io.oddities import NOT_JSON_CONSTANT, REPEATED_KEY, Oddities

LINES = (
    '{"question_id": "g0", "prediction": "x", "score": NaN}',  # NaN: row 1 of 2
    '{"question_id": "e1", "prediction": "y"}',
    '{"question_id": "e1", "prediction": "y", "score": Infinity}',  # NaN/Inf: row 2 of 2
    '{"question_id": "g1", "prediction": "x", "prediction": "z"}',  # the one repeated key
)


def _files(tmp_path: Path) -> tuple[Path, Path]:
    gold = tmp_path / "gold.jsonl"
    gold.write_text("".join(json.dumps({"question_id": f"g{k}", "answer": "x"}) + "\n"
                            for k in range(3)))  # fmt: skip
    predictions = tmp_path / "pred.jsonl"
    predictions.write_text("\n".join(LINES) + "\n")
    return gold, predictions


def test_a_second_read_for_repeated_extra_ids_notes_nothing(tmp_path: Path) -> None:
    gold_path, predictions = _files(tmp_path)
    notes = Oddities()
    alignment = align(read_gold([gold_path]), [predictions], released=notes)
    assert (alignment.prediction_count, alignment.extra_count) == (3, 1)  # g0, g1, e1
    assert [d.id for d in alignment.duplicates] == ["e1"]  # found by the second read
    assert notes.warnings() == [
        f"{predictions}:1: {NOT_JSON_CONSTANT} (2 rows)",
        f"{predictions}:4: {REPEATED_KEY} (1 row)",
    ]


def test_evaluate_warns_with_the_hand_counts(tmp_path: Path) -> None:
    gold_path, predictions = _files(tmp_path)
    result = evaluate([gold_path], [SystemInput("s", str(predictions))], profile="xldocbench")
    assert [w for w in result.warnings if str(predictions) in w] == [
        f"{predictions}:1: {NOT_JSON_CONSTANT} (2 rows)",
        f"{predictions}:4: {REPEATED_KEY} (1 row)",
    ]

"""Reference vectors: one case per row in tests/vectors/<family>/<metric>.jsonl."""

import json
from pathlib import Path

import pytest

import assay

VECTORS = Path(__file__).parent / "vectors"


def _load() -> list[tuple[str, dict]]:
    cases = []
    for path in sorted(VECTORS.glob("*/*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                cases.append((f"{path.parent.name}/{path.stem}:{number}", json.loads(line)))
    return cases


ALL_ROWS = _load()
# Corpus-level rows (``predictions`` instead of ``prediction``) run in their family's tests.
CASES = [(case_id, row) for case_id, row in ALL_ROWS if "prediction" in row]


def test_every_row_names_its_source_and_tolerance() -> None:
    assert len(CASES) >= 60
    for case_id, row in ALL_ROWS:
        assert row["source"], case_id
        assert isinstance(row["tolerance"], float), case_id
        assert "metric" in row and "expected" in row, case_id


def test_vector_files_are_named_after_their_metric() -> None:
    for path in VECTORS.glob("*/*.jsonl"):
        rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        assert {row["metric"] for row in rows} == {path.stem}


@pytest.mark.parametrize(("case_id", "row"), CASES, ids=[c for c, _ in CASES])
def test_vector(case_id: str, row: dict) -> None:
    value = assay.score(row["metric"], row["prediction"], row["targets"], **row.get("options", {}))
    assert value == pytest.approx(row["expected"], abs=row["tolerance"]), row["case"]

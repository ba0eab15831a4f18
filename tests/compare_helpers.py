"""A tiny three-system benchmark on tests/golden/data (6 questions, documents D1, D2).

Each system answers a question either with the gold answer (accuracy, token F1 and
ANLS all 1) or with a clearly wrong one (all 0), so the per-item vectors are
known by construction:

    question  cluster  alpha beta gamma
    g1        D1         1    1    0
    g2        D2         1    0    0
    g3        D2         1    1    1
    g4        D1+D2      1    0    0
    g5        D1         1    1    0
    g6        D2         0    0    0
"""

from __future__ import annotations

import json
from pathlib import Path

GOLD_DIR = Path(__file__).parent / "golden" / "data"
GOLD = {"g1": "Paris", "g2": "1,250", "g3": "Not answerable", "g4": "Yes", "g5": "C", "g6": "42.9%"}
WRONG = {"g1": "London", "g2": "7", "g3": "12", "g4": "No", "g5": "A", "g6": "10%"}
VECTORS = {
    "alpha": [1, 1, 1, 1, 1, 0],
    "beta": [1, 0, 1, 0, 1, 0],
    "gamma": [0, 0, 1, 0, 0, 0],
}
CLUSTERS = ["D1", "D2", "D2", "D1+D2", "D1", "D2"]


def write_predictions(folder: Path, vectors: dict[str, list[int]] | None = None) -> list[Path]:
    """Write one prediction file per system; return their paths (sorted by name)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, vector in sorted((vectors or VECTORS).items()):
        path = folder / f"{name}.jsonl"
        with open(path, "w", encoding="utf-8") as handle:
            for (qid, answer), right in zip(GOLD.items(), vector, strict=True):
                row = {"question_id": qid, "prediction": answer if right else WRONG[qid]}
                handle.write(json.dumps(row) + "\n")
        paths.append(path)
    return paths

"""assay.stats is layer 1: it imports only the standard library, NumPy and layer 0."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

STATS = Path(__file__).resolve().parents[1] / "src" / "assay" / "stats"
ALLOWED_ASSAY = ("assay.errors", "assay.records", "assay.stats")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_stats_imports_only_stdlib_numpy_and_layer0() -> None:
    for path in sorted(STATS.glob("*.py")):
        for name in _imports(path):
            top = name.split(".")[0]
            if top == "assay":
                assert name.startswith(ALLOWED_ASSAY), f"{path.name} imports {name}"
            else:
                assert top in sys.stdlib_module_names or top == "numpy", (
                    f"{path.name} imports {name}"
                )

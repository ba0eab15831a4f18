"""Imports point down only (DESIGN.md, "Layers"); checked by parsing every module."""

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "assay"

LAYERS = {
    "errors": 0,
    "records": 0,
    "signature": 0,
    "_version": 0,
    "collector": 0,
    "text": 1,
    "numbers": 1,
    "stats": 1,
    "io": 1,
    "parallel": 1,
    "metrics": 2,
    "code": 2,
    "judge": 2,
    "api": 2,
    "structured": 3,
    "evaluation": 4,
    "report": 5,
    "cli": 6,
    "__main__": 6,
}


def _layer(module: str) -> int:
    head = module.split(".")[1] if module.count(".") else ""
    assert head in LAYERS, f"assay.{head} has no layer: add it to LAYERS in tests/test_layers.py"
    return LAYERS[head]


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_imports_point_down_only() -> None:
    problems = []
    for path in sorted(SRC.rglob("*.py")):
        module = _module_name(path)
        if module == "assay":  # the curated public namespace re-exports from every layer
            continue
        own = _layer(module)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            for name in names:
                if name.startswith("assay.") and _layer(name) > own:
                    problems.append(f"{module} (layer {own}) imports {name} (layer {_layer(name)})")
                if name == "assay":
                    problems.append(f"{module} imports the top-level assay namespace")
    assert not problems, "\n".join(problems)

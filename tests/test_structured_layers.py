"""The structured layer imports only downward; its renderers read the report dict only."""

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "assay"


def assay_imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("assay"):
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("assay"))
    return found


def test_structured_imports_point_down() -> None:
    for path in (SRC / "structured").glob("*.py"):
        for module in assay_imports(path):
            assert not module.startswith(("assay.report", "assay.cli", "assay.evaluation")), (
                path,
                module,
            )


def test_structured_renderers_import_no_scoring_code() -> None:
    # the one output writer (atomic replace), the CSV formula guard and the JSON text
    # encoders with orjson's guard (pure text functions) are the only assay modules they
    # may use, besides each other (the streamed JSON writer is one of them, checked by the
    # same loop)
    allowed = {"assay.io.output", "assay.report.csv_guard", "assay.report.indented_json"}
    allowed |= {"assay.io.orjson_text"}
    allowed |= {"assay.report.structured.json_stream"}
    for path in (SRC / "report" / "structured").glob("*.py"):
        assert assay_imports(path) <= allowed, path

"""The bundled example: a fictional product catalogue (Lumen & Oak) with 30 responses.

``data/structured/`` holds ``product.schema.json`` (the contract),
``responses.jsonl`` (30 raw responses showing every format reason code and every
claim verdict, each with a ``note`` saying what it shows) and ``references.jsonl``
(plain and full-form references keyed by id; one item deliberately has none).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from assay.structured.api import StructuredReport, score_structured

EXAMPLE_FILES = ("responses.jsonl", "product.schema.json", "references.jsonl")


@dataclass(frozen=True, slots=True)
class ExamplePaths:
    """Real file paths of the bundled example."""

    items: Path
    schema: Path
    references: Path


@contextmanager
def bundled_example_paths() -> Iterator[ExamplePaths]:
    """Yield the bundled example's file paths (extracted if the package is zipped)."""
    base = resources.files("assay") / "data" / "structured"
    with ExitStack() as stack:
        paths = [stack.enter_context(resources.as_file(base / name)) for name in EXAMPLE_FILES]
        yield ExamplePaths(*paths)


def score_bundled_example(*, read_facts_from_wrapped: bool = False) -> StructuredReport:
    """Score the bundled example with the built-in judge."""
    with bundled_example_paths() as paths:
        return score_structured(
            paths.items,
            paths.schema,
            references=paths.references,
            read_facts_from_wrapped=read_facts_from_wrapped,
        )

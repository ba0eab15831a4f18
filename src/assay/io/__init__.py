"""Loaders: the only code that reads files. They stream and keep file and line."""

from assay.io.jsonl import iter_jsonl
from assay.io.pairs import read_pairs

__all__ = ["iter_jsonl", "read_pairs"]

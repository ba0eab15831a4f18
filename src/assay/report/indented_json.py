"""``json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False)``, byte for byte, faster.

The structured report's JSON text. It is written by the one fast indented writer,
:func:`assay.io.json_text.dumps_indented` (the C encoder for every container of
scalars, a short walk above them, :func:`json.dumps` itself for anything it does
not know), so the result is always exactly what ``json.dumps`` gives. A property
test compares the two.
"""

from __future__ import annotations

from typing import Any

from assay.io.json_text import dumps_indented


def dumps_sorted_indented(value: Any) -> str:
    """Exactly ``json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False)``."""
    return dumps_indented(value, sort_keys=True, ensure_ascii=False)

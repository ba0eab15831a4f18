"""The HTML report's per-item tables as one compact, embedded data block.

The per-item tables are not written as HTML rows (13 systems × 5,000 questions would
be 65,000 ``<tr>``): their data are embedded once, column by column, in a
``<script type="application/json" id="assay-data">`` element, and the page's script
draws one page of rows at a time (see ``templates/report.html.j2``).

Layout of the data (all lists are columns; row ``i`` of a table is index ``i`` of each):

- ``items`` (result documents): ``systems`` (names), ``questions`` (``id``, ``gold``,
  ``domain``, ``difficulty``: one entry per question, not per row), ``codes``
  (distinct ``status`` and ``bucket`` strings), and per row ``question`` and ``system``
  (indexes), ``status`` and ``bucket`` (indexes into ``codes``), ``scores`` (one column
  per metric, in thousandths: the three decimals the table shows, ``null`` if not
  finite) and ``prediction``.
- ``structured`` (structured reports): per item ``id``, ``bucket``, ``verdict``,
  ``reasons``, ``unwrapped``, ``fact_status``, ``fact_reason``, ``counts`` (one column
  per claim verdict), ``passed`` (0/1) and ``response``.

Small data are embedded as plain JSON (``"encoding": "json"``). Past ``compress_over``
characters the JSON text is deflated (raw DEFLATE, level 1: about 6x faster than
level 6 for about a third more bytes, which the size target allows) and base64-encoded
(``"encoding": "deflate-raw+base64"``); the page inflates it with the browser's
built-in ``DecompressionStream``, so the file still needs no network. Both forms are
byte-identical for identical documents (insertion-ordered JSON; zlib's output is fixed
for a given level and library version).
"""

from __future__ import annotations

import base64
import json
import math
import zlib
from typing import Any

COMPRESS_OVER = 200_000
ENCODING_JSON = "json"
ENCODING_DEFLATE = "deflate-raw+base64"
DEFLATE_LEVEL = 1
_UNSEEN: Any = object()


def thousandths(value: float) -> int | None:
    """``value`` as the integer of its three-decimal text (``0.6667`` → ``667``).

    Uses Python's own ``{:.3f}`` rounding, so the page shows exactly the digits the
    Markdown report shows.
    """
    if not math.isfinite(value):
        return None
    return int(f"{value:.3f}".replace(".", ""))


class _Codes:
    """Distinct strings in order of first appearance, and each string's index."""

    def __init__(self) -> None:
        self.values: list[str] = []
        self._index: dict[str, int] = {}

    def code(self, value: str) -> int:
        """The index of ``value`` (added on first sight)."""
        found = self._index.get(value)
        if found is None:
            found = self._index[value] = len(self.values)
            self.values.append(value)
        return found


def item_columns(document: dict[str, Any]) -> dict[str, Any]:
    """The per-item table of a result document, one row per question × system."""
    metrics = document["metrics"]
    systems = _Codes()
    for system in document["systems"]:
        systems.code(system["system"])
    status, bucket = _Codes(), _Codes()
    questions: dict[str, list[str]] = {"id": [], "gold": [], "domain": [], "difficulty": []}
    rows: dict[str, list[Any]] = {"question": [], "system": [], "status": [], "bucket": []}
    scores: list[list[int | None]] = [[] for _ in metrics]
    predictions: list[str] = []
    seen: dict[float, int | None] = {}  # scores repeat a lot (0, 1, 1/2, 2/3, ...)
    row_question, row_system = rows["question"], rows["system"]
    row_status, row_bucket = rows["status"], rows["bucket"]
    columns = list(zip(scores, metrics, strict=True))
    for q, item in enumerate(document["items"]):
        questions["id"].append(item["question_id"])
        questions["gold"].append(item["gold_answer"])
        questions["domain"].append(item["domain"])
        questions["difficulty"].append(item["difficulty"])
        for name, result in item["results"].items():
            row_question.append(q)
            row_system.append(systems.code(name))
            row_status.append(status.code(result["status"]))
            row_bucket.append(bucket.code(result["bucket"]))
            for column, metric in columns:
                value = result[metric]
                found = seen.get(value, _UNSEEN)
                if found is _UNSEEN:
                    found = seen[value] = thousandths(value)
                column.append(found)
            predictions.append(result["prediction"])
    return {
        "systems": systems.values,
        "questions": questions,
        "codes": {"status": status.values, "bucket": bucket.values},
        **rows,
        "scores": scores,
        "prediction": predictions,
    }


def structured_columns(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The structured per-item table from its row records (see ``structured_item_row``)."""
    keys = ("id", "bucket", "verdict", "reasons", "unwrapped", "fact_status", "fact_reason")
    columns: dict[str, Any] = {key: [row[key] for row in rows] for key in keys}
    width = len(rows[0]["counts"]) if rows else 0
    columns["counts"] = [[row["counts"][k] for row in rows] for k in range(width)]
    columns["passed"] = [1 if row["passed"] else 0 for row in rows]
    columns["response"] = [row["response"] for row in rows]
    return columns


def _script_safe(text: str) -> str:
    """JSON text that cannot end its ``<script>`` element or open a comment in it.

    ``<``, ``>`` and ``&`` only occur inside JSON strings, where their JSON escapes
    mean the same characters; U+2028/U+2029 are escaped for older JavaScript parsers.
    """
    for char, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                          ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):  # fmt: skip
        text = text.replace(char, escaped)
    return text


def embed(data: dict[str, Any], compress_over: int = COMPRESS_OVER) -> str:
    """The text of the ``assay-data`` script element: JSON, deflated when large."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    if len(text) <= compress_over:
        payload: dict[str, Any] = {"encoding": ENCODING_JSON, "data": data}
    else:
        packer = zlib.compressobj(DEFLATE_LEVEL, zlib.DEFLATED, -15, 9)
        packed = packer.compress(text.encode("utf-8")) + packer.flush()
        payload = {"encoding": ENCODING_DEFLATE, "data": base64.b64encode(packed).decode()}
    return _script_safe(
        json.dumps(payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    )


def unembed(script_text: str) -> dict[str, Any]:
    """The data back from an ``assay-data`` element's text (for tests and tools)."""
    payload = json.loads(script_text)
    if payload["encoding"] == ENCODING_JSON:
        return dict(payload["data"])
    raw = zlib.decompress(base64.b64decode(payload["data"]), -15)
    return dict(json.loads(raw.decode("utf-8")))

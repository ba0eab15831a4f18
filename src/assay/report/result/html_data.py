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


def thousandths(value: float) -> int | None:
    """``value`` as the integer of its three-decimal text (``0.6667`` → ``667``).

    Uses Python's own ``{:.3f}`` rounding, so the page shows exactly the digits the
    Markdown report shows.
    """
    if not math.isfinite(value):
        return None
    return int(f"{value:.3f}".replace(".", ""))


def item_columns(document: dict[str, Any]) -> dict[str, Any]:
    """The per-item table of a result document, one row per question × system."""
    metrics = document["metrics"]
    items = document["items"]
    systems: dict[str, int] = {}
    for system in document["systems"]:
        systems.setdefault(system["system"], len(systems))
    flat = [(q, name, r) for q, item in enumerate(items) for name, r in item["results"].items()]
    results = [r for _, _, r in flat]
    status: dict[str, int] = {}
    bucket: dict[str, int] = {}
    rows = {
        "question": [q for q, _, _ in flat],
        "system": [systems.setdefault(name, len(systems)) for _, name, _ in flat],
        "status": [status.setdefault(r["status"], len(status)) for r in results],
        "bucket": [bucket.setdefault(r["bucket"], len(bucket)) for r in results],
    }
    scores = []
    for metric in metrics:
        values = [r[metric] for r in results]
        shown = {v: thousandths(v) for v in set(values)}  # scores repeat (0, 1, 1/2, ...)
        scores.append([shown[v] for v in values])
    return {
        "systems": list(systems),
        "questions": {
            "id": [item["question_id"] for item in items],
            "gold": [item["gold_answer"] for item in items],
            "domain": [item["domain"] for item in items],
            "difficulty": [item["difficulty"] for item in items],
        },
        "codes": {"status": list(status), "bucket": list(bucket)},
        **rows,
        "scores": scores,
        "prediction": [r["prediction"] for r in results],
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

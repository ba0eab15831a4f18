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

The size budget (:func:`embed_within`): when the deflated block would be longer than
``budget`` characters (:data:`DATA_BUDGET`, 2.5 MB), the long predictions are cut to
one common length ``at``: every prediction longer than ``at`` characters keeps its
first ``at`` characters, the others are whole. ``at`` is found by re-compressing: the
first guess is the length that keeps the predictions' share of the block within 90 %
of what the budget leaves them, at the compression ratio just measured
(water-filling: the largest ``at`` with ``sum(min(len(p), at))`` at most the
characters wanted), and each further pass
shrinks it by at least 2 % until the block fits, never below :data:`MIN_CUT`
characters (then the block may stay over the budget). The cut is recorded in the data
(``items.cut``: ``at``, the cut ``rows`` and their full ``lengths``); the page marks
each cut prediction and says above the table how many were cut. Gold answers, ids
and scores are never cut. Nothing is cut while the block fits.
"""

from __future__ import annotations

import base64
import json
import math
import zlib
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from itertools import accumulate
from json.encoder import encode_basestring
from typing import Any

from assay.io.orjson_text import compact

COMPRESS_OVER = 200_000
ENCODING_JSON = "json"
ENCODING_DEFLATE = "deflate-raw+base64"
DEFLATE_LEVEL = 1
DATA_BUDGET = 2_500_000  # characters of the embedded block before predictions are cut
MIN_CUT = 200  # a cut prediction keeps at least this many characters
SHRINK = 50  # each further pass cuts at least at // SHRINK characters more (2 %)
AIM = 0.9  # aim below the budget: cut text deflates a little worse than whole text


@dataclass(frozen=True, slots=True)
class Cut:
    """How the predictions were cut to fit the budget (see the module docstring).

    Attributes:
        at: characters each cut prediction keeps.
        rows: predictions cut.
        total: predictions in the table.
        budget: the block's budget in characters.
    """

    at: int
    rows: int
    total: int
    budget: int


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


def _dumps(data: Any) -> str:
    """Compact JSON (NaN refused); orjson's text where it is provably the same."""
    fast = compact(data)  # None for a NaN (among others): json.dumps then raises
    if fast is not None:
        return fast
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _deflated(text: str) -> str:
    """``text`` as base64 of its raw DEFLATE (level :data:`DEFLATE_LEVEL`)."""
    packer = zlib.compressobj(DEFLATE_LEVEL, zlib.DEFLATED, -15, 9)
    packed = packer.compress(text.encode("utf-8")) + packer.flush()
    return base64.b64encode(packed).decode("ascii")


def _payload_json(text: str) -> str:
    """The script text of plain JSON data (``text`` is the data's JSON)."""
    return _script_safe('{"encoding":"' + ENCODING_JSON + '","data":' + text + "}")


def _payload_deflated(b64: str) -> str:
    # base64 and the two keys hold no character _script_safe would change
    return '{"encoding":"' + ENCODING_DEFLATE + '","data":"' + b64 + '"}'


def embed(data: dict[str, Any], compress_over: int = COMPRESS_OVER) -> str:
    """The text of the ``assay-data`` script element: JSON, deflated when large."""
    text = _dumps(data)
    if len(text) <= compress_over:
        return _payload_json(text)
    return _payload_deflated(_deflated(text))


def water_level(lengths: list[int], total: int) -> int:
    """The largest ``at`` with ``sum(min(n, at) for n in lengths) <= total`` (0 if none).

    With ``total`` at least ``sum(lengths)`` that is the longest length.
    """
    ordered = sorted(lengths)
    return _level(ordered, list(accumulate(ordered, initial=0)), total)


def _level(ordered: list[int], below: list[int], total: int) -> int:
    """:func:`water_level` on sorted lengths and their prefix sums (``below[k]``)."""
    n = len(ordered)
    # the first k whose own length as the level already passes the total
    k = bisect_left(range(n), True, key=lambda j: below[j] + (n - j) * ordered[j] > total)
    if k == n:
        return ordered[-1] if ordered else 0
    return max(0, (total - below[k]) // (n - k))


_MARK_PREDICTIONS = "\x00assay:predictions\x00"
_MARK_CUT = "\x00assay:cut\x00"


class _Spliced:
    """The data's JSON with the prediction list and the cut spliced in as text.

    Encoding the rest of the data once and each prediction once (the encoder's own
    string escaping, :func:`json.encoder.encode_basestring`) gives the same text as
    :func:`_dumps` of the whole, without re-encoding every prediction on every pass.
    """

    def __init__(self, data: dict[str, Any]) -> None:
        predictions = data["items"]["prediction"]
        marked = _with_predictions(data, [_MARK_PREDICTIONS], _MARK_CUT)
        text = _dumps(marked)
        head, _, rest = text.partition(_dumps([_MARK_PREDICTIONS]))
        middle, _, tail = rest.partition(_dumps(_MARK_CUT))
        self.parts = (head, middle, tail)
        self.exact = text.count("assay:predictions") == 1 and text.count("assay:cut") == 1
        self.data = data
        self.encoded = [encode_basestring(p) for p in predictions] if self.exact else []

    def text(self, at: int | None, rows: list[int], cut: dict[str, Any] | None) -> str:
        """The JSON with predictions longer than ``at`` cut (``rows``) and ``cut`` recorded."""
        predictions = self.data["items"]["prediction"]
        if not self.exact:
            shown = [p if at is None or len(p) <= at else p[:at] for p in predictions]
            return _dumps(_with_predictions(self.data, shown, cut))
        encoded = list(self.encoded)
        for i in rows:
            encoded[i] = encode_basestring(predictions[i][:at])
        head, middle, tail = self.parts
        return head + "[" + ",".join(encoded) + "]" + middle + _dumps(cut) + tail


def _with_predictions(data: dict[str, Any], predictions: list[str], cut: Any) -> dict[str, Any]:
    items = {**data["items"], "prediction": predictions}
    if cut is not None:
        items["cut"] = cut
    return {**data, "items": items}


def embed_within(
    data: dict[str, Any], compress_over: int = COMPRESS_OVER, budget: int = DATA_BUDGET
) -> tuple[str, Cut | None]:
    """:func:`embed`, with the long predictions cut when the block would pass ``budget``.

    Returns the script text and the :class:`Cut` made (``None`` when nothing was cut).
    """
    text = _dumps(data)
    if len(text) <= compress_over:
        return _payload_json(text), None
    b64 = _deflated(text)
    predictions = data.get("items", {}).get("prediction") or []
    if len(b64) <= budget or not predictions:
        return _payload_deflated(b64), None
    lengths = [len(p) for p in predictions]
    if max(lengths) <= MIN_CUT:
        return _payload_deflated(b64), None
    base = len(_deflated(_dumps(_with_predictions(data, [""] * len(lengths), None))))
    ordered = sorted(lengths)
    below = list(accumulate(ordered, initial=0))
    spliced = _Spliced(data)
    kept, size, at = below[-1], len(b64), ordered[-1]
    while True:
        wanted = int(kept * AIM * (budget - base) / max(size - base, 1))
        at = max(MIN_CUT, min(_level(ordered, below, wanted), at - max(1, at // SHRINK)))
        rows = [i for i, n in enumerate(lengths) if n > at]
        cut = {"at": at, "rows": rows, "lengths": [lengths[i] for i in rows]}
        b64 = _deflated(spliced.text(at, rows, cut))
        if len(b64) <= budget or at == MIN_CUT:
            return _payload_deflated(b64), Cut(at, len(rows), len(lengths), budget)
        k = bisect_right(ordered, at)
        kept, size = below[k] + (len(ordered) - k) * at, len(b64)


def unembed(script_text: str) -> dict[str, Any]:
    """The data back from an ``assay-data`` element's text (for tests and tools)."""
    payload = json.loads(script_text)
    if payload["encoding"] == ENCODING_JSON:
        return dict(payload["data"])
    raw = zlib.decompress(base64.b64decode(payload["data"]), -15)
    return dict(json.loads(raw.decode("utf-8")))

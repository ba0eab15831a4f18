"""The structured report's JSON text, written item by item in chunks, byte for byte.

The text is exactly ``json.dumps(report, sort_keys=True, indent=2, ensure_ascii=False)``
plus a newline (a property test compares the two). Most of it is the per-item records,
whose shape :meth:`ItemResult.to_dict <assay.structured.scoring.ItemResult.to_dict>`
fixes: this writer knows that shape (:data:`ITEM_SHAPE`), so each record's key order
and the indented key prefixes are worked out once, not per item; containers of scalars
(claims, errors, reference fields, lists of names) are written by CPython's C encoder,
a list of claims in one call. Any record, sub-record or value that does not have the
expected shape (extra or missing keys, nested values) is written by the general
writer (:func:`assay.report.indented_json.dumps_sorted_indented`) at its depth, so the
text never differs.

:func:`write_structured_json` streams the chunks (:data:`ITEMS_PER_CHUNK` records each)
to a temporary file that atomically replaces the target (:func:`assay.io.output.open_output`),
so neither the whole text nor its UTF-8 bytes are held in memory.

**orjson, where it provably writes the same bytes.** When ``orjson`` is installed, each
chunk of records is first written by it, through the one guard that keeps its text only
where it is ``json.dumps``'s (:func:`assay.io.orjson_text.indented_member_bytes`: exact
built-in types, no non-finite float, no float below ``1e-4``, nothing orjson refuses).
Any other chunk is written by the stdlib-based writer below, so the text never differs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from assay.io.orjson_text import indented_member_bytes
from assay.io.output import open_output
from assay.report.indented_json import dumps_sorted_indented

ITEMS_PER_CHUNK = 500

_c_make_encoder: Any = getattr(json.encoder, "c_make_encoder", None)  # CPython C accelerator
_string: Callable[[str], str] = json.encoder.encode_basestring  # ensure_ascii=False
_SCALARS = frozenset({str, int, float, bool, type(None)})
_PAD = "  "
_DEPTH = 2  # report (0) > "items" list (1) > one record (2)
_ITEMS_SLOT = '\n  "items": []'  # a raw newline: only the report's own "items" key

# A shape maps each key of a dict to the shape of its value: another shape (a dict
# with exactly those keys), _DICTS (a list of dicts, usually all of scalars) or None
# (any value). Keys are listed as to_dict writes them; the writer sorts them.
_DICTS = "list of dicts"
Shape = dict[str, Any]
FORMAT_SHAPE: Shape = {
    "field_errors": _DICTS, "reasons": None, "unwrapped_field_errors": _DICTS,
    "verdict": None, "would_pass_if_unwrapped": None,
}  # fmt: skip
FACT_SHAPE: Shape = {
    "all_supported": None, "claims": _DICTS, "counts": None, "missing_required": None,
    "reason": None, "required": None, "source": None, "status": None,
}  # fmt: skip
REFERENCE_SHAPE: Shape = {
    "contradictions": None, "fields": _DICTS, "form": None, "required": None,
    "statements": None,
}  # fmt: skip
ITEM_SHAPE: Shape = {
    "bucket": None, "end_to_end_pass": None, "fact": FACT_SHAPE, "format": FORMAT_SHAPE,
    "id": None, "line": None, "reference": REFERENCE_SHAPE, "response": None,
}  # fmt: skip


def render_structured_json_fast(report: dict[str, Any]) -> str:
    """``json.dumps(report, sort_keys=True, indent=2, ensure_ascii=False)`` and a newline."""
    return "".join(structured_json_chunks(report))


def write_structured_json(
    path: str | Path,
    report: dict[str, Any],
    option: str | None,
    later: Sequence[Piece] = (),
) -> Path:
    """Stream the JSON report to ``path`` (``-``: standard output), atomically replaced.

    The bytes are those of :func:`assay.io.output.write_file` on the whole text (UTF-8,
    a lone surrogate written as its backslash escape). ``later``: the text of records
    that follow ``report["items"]`` (:func:`record_pieces`, made in another process),
    written as if they were at the end of that list.

    Raises:
        OutputFileError: the file cannot be written (the old file, or none, is left).
    """
    with open_output(path, option=option) as sink:
        for text, records in _pieces(report, ITEMS_PER_CHUNK, later):
            sink.write(text.encode("utf-8", "backslashreplace"))
            sink.write(records)
    return sink.path


def structured_json_chunks(
    report: dict[str, Any], items_per_chunk: int = ITEMS_PER_CHUNK, later: Sequence[Piece] = ()
) -> Iterator[str]:
    """The JSON report's text in pieces: the head, the records in chunks, the tail."""
    for text, records in _pieces(report, items_per_chunk, later):
        yield text + records.decode("utf-8") if records else text


Piece = tuple[str, bytes]  # text, then the UTF-8 bytes orjson wrote after it
_INNER = ",\n" + _PAD * _DEPTH  # between two records


def record_pieces(records: list[Any], items_per_chunk: int = ITEMS_PER_CHUNK) -> list[Piece] | None:
    """The text of ``records`` placed after earlier records, for ``write_structured_json``.

    ``None`` when this writer cannot stream (no C encoder): keep the records instead.
    """
    if _c_make_encoder is None:
        return None
    return list(_record_chunks(records, items_per_chunk, _INNER))


def _pieces(
    report: dict[str, Any], items_per_chunk: int, later: Sequence[Piece] = ()
) -> Iterator[Piece]:
    """:func:`structured_json_chunks` as ``(text, UTF-8 bytes orjson wrote after it)``."""
    items = report.get("items")
    if _c_make_encoder is None or type(items) is not list or not (items or later):
        if later:
            raise ValueError("records to write after the items need an items list")
        yield dumps_sorted_indented(report) + "\n", b""
        return
    head, tail = dumps_sorted_indented({**report, "items": []}).split(_ITEMS_SLOT)
    opening = head + _ITEMS_SLOT[:-1] + "\n" + _PAD * _DEPTH
    yield from _record_chunks(items, items_per_chunk, opening)
    for n, (text, records) in enumerate(later):
        # every piece of record_pieces starts with the separator; the first record opens
        yield (opening + text[len(_INNER) :] if n == 0 and not items else text), records
    yield "\n" + _PAD + "]" + tail + "\n", b""


def _record_chunks(items: list[Any], items_per_chunk: int, first: str) -> Iterator[Piece]:
    """The records in chunks; ``first`` comes before the first record, a separator after."""
    plan = _plan(ITEM_SHAPE, _DEPTH)
    for start in range(0, len(items), items_per_chunk):
        chunk = items[start : start + items_per_chunk]
        text = _orjson_records(chunk)
        if text is not None:
            yield (first if start == 0 else _INNER), text
            continue
        out: list[str] = []
        for item in chunk:
            out.append(_INNER)
            _shaped(item, plan, _DEPTH, out)
        out[0] = first if start == 0 else _INNER
        yield "".join(out), b""


def _orjson_records(records: list[Any]) -> bytes | None:
    """The records' text at :data:`_DEPTH` from orjson, or ``None`` when it may differ."""
    return indented_member_bytes(records, _DEPTH - 1, sort_keys=True)


Plan = tuple[Any, list[tuple[str, str, Any]], str]


def _plan(shape: Shape, depth: int) -> Plan:
    """(key set, [(key, indented prefix, child plan)] in sorted order, closing text)."""
    inner = "\n" + _PAD * (depth + 1)
    steps = []
    for n, key in enumerate(sorted(shape)):
        child = shape[key]
        prefix = ("{" if n == 0 else ",") + inner + _string(key) + ": "
        steps.append((key, prefix, _plan(child, depth + 1) if isinstance(child, dict) else child))
    return shape.keys(), steps, "\n" + _PAD * depth + "}"


def _shaped(obj: Any, plan: Plan, depth: int, out: list[str]) -> None:
    """Append the text of ``obj`` at ``depth``: by ``plan`` if it has that key set."""
    keys, steps, close = plan
    if type(obj) is not dict or obj.keys() != keys:
        out.append(_value(obj, depth))
        return
    below = depth + 1
    for key, prefix, child in steps:
        out.append(prefix)
        if child is None:
            out.append(_value(obj[key], below))
        elif child is _DICTS:
            out.append(_dict_list(obj[key], below))
        else:
            _shaped(obj[key], child, below, out)
    out.append(close)


_leaf_encoders: dict[int, Any] = {}


def _c_text(obj: dict[Any, Any] | list[Any], depth: int) -> str:
    """The C encoder's text of ``obj`` with the item separator of ``depth``'s members."""
    encoder = _leaf_encoders.get(depth)
    if encoder is None:
        encoder = _leaf_encoders[depth] = _c_make_encoder(
            None, _refuse, _string, None, ": ", ",\n" + _PAD * (depth + 1), True, False, True
        )
    return "".join(encoder(obj, 0))


def _leaf(obj: dict[Any, Any] | list[Any], depth: int) -> str:
    """A non-empty dict or list of scalars at ``depth``."""
    text = _c_text(obj, depth)
    return text[0] + "\n" + _PAD * (depth + 1) + text[1:-1] + "\n" + _PAD * depth + text[-1]


def _refuse(obj: Any) -> Any:
    raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")


def _is_leaf_dict(obj: Any) -> bool:
    return type(obj) is dict and bool(obj) and _SCALARS.issuperset(map(type, obj.values()))


def _dict_list(obj: Any, depth: int) -> str:
    """A list of dicts at ``depth``; its dicts of scalars (non-empty) in one C encoder call."""
    if type(obj) is not list or not obj:
        return _value(obj, depth)
    pad, inner = _PAD * (depth + 1), _PAD * (depth + 2)
    leaves = list(map(_is_leaf_dict, obj))
    if all(leaves):
        # One list, encoded with the item separator of the dicts' keys: "}" + separator
        # + "{" occurs only between two dicts (no JSON scalar ends in "}", no JSON
        # string holds a raw newline), so it is where one dict's text ends.
        between = "\n" + pad + "},\n" + pad + "{\n" + inner
        body = _c_text(obj, depth + 1)[2:-2].replace("},\n" + inner + "{", between)
        return "[\n" + pad + "{\n" + inner + body + "\n" + pad + "}\n" + _PAD * depth + "]"
    batch = [member for member, leaf in zip(obj, leaves, strict=True) if leaf]
    bodies = iter(_c_text(batch, depth + 1)[2:-2].split("},\n" + inner + "{") if batch else ())
    texts = [
        "{\n" + inner + next(bodies) + "\n" + pad + "}" if leaf else _value(member, depth + 1)
        for member, leaf in zip(obj, leaves, strict=True)
    ]
    return "[\n" + pad + (",\n" + pad).join(texts) + "\n" + _PAD * depth + "]"


def _value(obj: Any, depth: int) -> str:
    """Any value's text at ``depth``, exactly as ``json.dumps`` indents it there."""
    kind = type(obj)
    if kind is str:
        return _string(obj)
    if kind is bool:
        return "true" if obj else "false"
    if kind is int:
        return int.__repr__(obj)
    if obj is None:
        return "null"
    if kind is float:
        return float.__repr__(obj) if obj - obj == 0 else dumps_sorted_indented(obj)
    if kind is list:
        if not obj:
            return "[]"
        if _SCALARS.issuperset(map(type, obj)):
            return _leaf(obj, depth)
        pad = _PAD * (depth + 1)
        texts = [_value(member, depth + 1) for member in obj]
        return "[\n" + pad + (",\n" + pad).join(texts) + "\n" + _PAD * depth + "]"
    if kind is dict:
        if not obj:
            return "{}"
        if _SCALARS.issuperset(map(type, obj.values())):
            return _leaf(obj, depth)
        steps = _key_steps(tuple(obj), depth)
        if steps is not None:
            texts = [prefix + _value(obj[key], depth + 1) for key, prefix in steps]
            return "".join(texts) + "\n" + _PAD * depth + "}"
    # anything else (non-str keys, tuples, other types): the general writer, moved to
    # this depth (an indented JSON text holds raw newlines only between its own lines)
    return dumps_sorted_indented(obj).replace("\n", "\n" + _PAD * depth)


_steps_cache: dict[tuple[tuple[Any, ...], int], list[tuple[str, str]] | None] = {}
_STEPS_CACHED = 4096


def _key_steps(keys: tuple[Any, ...], depth: int) -> list[tuple[str, str]] | None:
    """A dict's keys in sorted order with their indented prefixes (``None``: not all str)."""
    found = _steps_cache.get((keys, depth), _steps_cache)
    if found is not _steps_cache:
        return found  # type: ignore[return-value]
    steps: list[tuple[str, str]] | None = None
    if all(type(key) is str for key in keys):
        inner = "\n" + _PAD * (depth + 1)
        steps = [
            (key, ("{" if n == 0 else ",") + inner + _string(key) + ": ")
            for n, key in enumerate(sorted(keys))
        ]
    if len(_steps_cache) < _STEPS_CACHED:
        _steps_cache[keys, depth] = steps
    return steps

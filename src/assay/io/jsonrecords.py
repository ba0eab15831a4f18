"""Records of JSON text whose form the name does not fix: a JSON array, or JSON Lines.

A gold or pairs file named ``.json``, a file whose name has no known suffix, and
``-`` (standard input) hold JSON text in one of two forms, told apart by the first
byte that is not blank: ``[`` opens a JSON array document whose elements are the
records (it is read whole and parsed once); anything else is JSON Lines, one object
per line, streamed (:func:`assay.io.jsonl.iter_jsonl_stream`). An element of an
array carries the line it starts on, so messages name file, line and field as they
do for JSON Lines; an element that is not an object is also named by its index
(``gold.json:4: element [2] is a string, expected an object; ...``). A file named
``.jsonl`` is JSON Lines by its name and is not read here. Text whose first line
looks like a CSV/TSV header (in a pipe, whose content is not peeked at before it is
read, or under a ``.json`` name) is one clear error line, not a JSON error.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

from assay.errors import InputFileError
from assay.io.jsondoc import parse_document
from assay.io.jsonl import iter_jsonl_stream, json_type
from assay.io.oddities import Oddities
from assay.io.sources import PEEK_BYTES, content_kind, display_name, open_source

ARRAY_NOTE = "a JSON array document: the released evaluator reads JSON Lines only; assay reads it"
TABLE_TEXT = (
    "holds CSV or TSV text (a header row), not JSON; name the file .csv or .tsv, or give "
    "it on standard input (-), whose form is recognised from its content"
)
_JSON_SPACE = " \t\n\r"


_LINE_END = re.compile(r"\r\n|\r|\n")  # the line ends of Python's text mode


def released_object_first(head: bytes) -> bool:
    """Whether the released evaluator's JSONL reading of text starting ``head`` opens on an object.

    Its first non-blank line, split at universal newlines and stripped as Python's
    ``str.strip`` strips (NBSP, form feed, U+001C ... count as blanks), starts with ``{``.
    Such text is JSON Lines as released, even when a comma or a tab in that line makes
    it look like a CSV/TSV header to the byte-level sniffing.
    """
    text = head.removeprefix(b"\xef\xbb\xbf").decode("utf-8", "ignore")
    for line in _LINE_END.split(text):
        if line.strip():
            return line.strip().startswith("{")
    return False


def _nothing(_: Any) -> None:
    return None


# Finds where each element ends without building values (numbers stay unconverted).
_SKIPPER = json.JSONDecoder(
    object_pairs_hook=_nothing, parse_float=_nothing, parse_int=_nothing, parse_constant=_nothing
)


def iter_json_records(
    path: str | Path, *, released: Oddities | None = None
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line, record)`` of a JSON array of objects or of JSON Lines, by content.

    Args:
        path: the file, or ``-`` for standard input (compression is sniffed).
        released: read as the released evaluator does (see :func:`parse_document`);
            an array document is noted there, as that evaluator reads JSON Lines only.

    Raises:
        InputFileError: as :func:`assay.io.jsonl.iter_jsonl`; for an array, invalid
            JSON (with its line) or an element that is not an object.
    """
    name = display_name(path)
    handle = open_source(path)
    try:
        head = cast(bytes, cast(Any, handle).peek(PEEK_BYTES))
        if head.removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n").startswith(b"["):
            if released is not None:
                released.note(name, 1, ARRAY_NOTE)
            yield from array_records(handle.read(), name, released=released)
            return
        if content_kind(head) in ("csv", "tsv") and not (  # a pipe, or a .json name
            released is not None and released_object_first(head)
        ):
            raise InputFileError(name, TABLE_TEXT, line=1)
        yield from iter_jsonl_stream(handle, name, released=released)
    finally:
        handle.close()


def array_records(
    data: bytes, path: str, *, released: Oddities | None = None
) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line, record)`` for each element of a JSON array document.

    Raises:
        InputFileError: the bytes are not one valid JSON document (as
            :func:`assay.io.jsondoc.parse_document`), not an array, or an element is
            not an object.
    """
    value = parse_document(data, path, released=released)
    if not isinstance(value, list):
        raise InputFileError(
            path, f"expected a JSON array of objects, got {json_type(value)}", line=1
        )
    lines = element_lines(data.decode("utf-8"))
    for index, (line, item) in enumerate(zip(lines, value, strict=True)):
        if not isinstance(item, dict):
            raise InputFileError(
                path,
                f"element [{index}] is {json_type(item)}, expected an object; "
                "write each record as a {...} object",
                line=line,
            )
        yield line, item


def element_lines(text: str) -> Iterator[int]:
    """The line each element of a valid JSON array document starts on, in order."""
    pos = _blank_end(text, text.index("[") + 1)
    line, counted = 1, 0
    while pos < len(text) and text[pos] != "]":
        line += text.count("\n", counted, pos)
        counted = pos
        yield line
        _, end = _SKIPPER.raw_decode(text, pos)
        pos = _blank_end(text, end)
        if text.startswith(",", pos):
            pos = _blank_end(text, pos + 1)


def _blank_end(text: str, pos: int) -> int:
    """The position of the first character from ``pos`` on that is not JSON whitespace."""
    while pos < len(text) and text[pos] in _JSON_SPACE:
        pos += 1
    return pos

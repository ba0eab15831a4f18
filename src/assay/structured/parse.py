"""Read a raw response as delivered and name what is wrong with it.

The response is never repaired in place. :func:`parse_response` either parses the
whole response as one JSON value (reasons ``()``) or returns the format reason
codes that stop it, plus the inner JSON value when one can still be read (for the
``would_pass_if_unwrapped`` diagnostic and the optional fact fallback).

=========================  ==========================================================
reason code                when
=========================  ==========================================================
``empty``                  the response is empty or only whitespace
``not_json``               no JSON value can be found (including a fence holding
                           something other than JSON)
``fenced_json``            JSON inside a Markdown code fence (```...```)
``json_with_prose``        a JSON value with other text before or after it
``multiple_json_values``   more than one top-level JSON value (or fence)
``truncated_json``         a JSON value that stops before it is complete
``nested_too_deep``        JSON nested too deeply to read (about 1,000 levels or more)
``number_too_long``        an integer literal longer than Python reads (4,300 digits)
=========================  ==========================================================

One response may carry several codes (``"Here it is: ```json {...}```"`` is both
``fenced_json`` and ``json_with_prose``); they are listed in the order above.
``NaN``/``Infinity`` are not JSON and are rejected.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from typing import Any

EMPTY = "empty"
NOT_JSON = "not_json"
FENCED_JSON = "fenced_json"
JSON_WITH_PROSE = "json_with_prose"
MULTIPLE_JSON_VALUES = "multiple_json_values"
TRUNCATED_JSON = "truncated_json"
NESTED_TOO_DEEP = "nested_too_deep"
NUMBER_TOO_LONG = "number_too_long"
PARSE_REASONS: tuple[str, ...] = (
    EMPTY,
    NOT_JSON,
    FENCED_JSON,
    JSON_WITH_PROSE,
    MULTIPLE_JSON_VALUES,
    TRUNCATED_JSON,
    NESTED_TOO_DEEP,
    NUMBER_TOO_LONG,
)

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+.-]*)[ \t]*\n?(.*?)(?:```|\Z)", re.DOTALL)
_OPENERS = re.compile(r"[\[{]")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


class _NumberTooLong(Exception):  # noqa: N818 - not a ValueError: it must not read as "not JSON"
    """An integer literal past Python's int-from-text digit limit."""


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > sys.get_int_max_str_digits() > 0:
        raise _NumberTooLong(text[:20])
    return int(text)


_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_int=_parse_int)


@dataclass(frozen=True, slots=True)
class Parsed:
    """The outcome of reading one raw response.

    Attributes:
        reasons: format reason codes, ``()`` when the whole response is one JSON value.
        value: the parsed value when ``reasons == ()``, else ``None``.
        inner: the single inner JSON value of a wrapped response (fenced or with
            prose), for diagnostics only; ``None`` when there is none.
        has_inner: whether ``inner`` holds a value (``null`` is a JSON value too).
    """

    reasons: tuple[str, ...]
    value: Any = None
    inner: Any = None
    has_inner: bool = False

    @property
    def ok(self) -> bool:
        """Whether the response as delivered is exactly one JSON value."""
        return not self.reasons


def parse_response(response: str) -> Parsed:
    """Classify a raw response (see the module docstring for the reason codes)."""
    try:
        return _classify(response)
    except RecursionError:
        return Parsed((NESTED_TOO_DEEP,))
    except _NumberTooLong:
        return Parsed((NUMBER_TOO_LONG,))


def _classify(response: str) -> Parsed:
    if not response.strip():
        return Parsed((EMPTY,))
    try:
        return Parsed((), value=_loads(response))
    except ValueError:
        pass
    fences = list(_FENCE.finditer(response))
    if fences:
        fenced = _parse_fenced(response, fences)
        if fenced.reasons != (NOT_JSON,):
            return fenced
    # no fence holds JSON (the backticks may sit inside a JSON string): read the text as is
    return _parse_bare(response)


def _loads(text: str) -> Any:
    """Parse exactly one JSON value (surrounding whitespace allowed)."""
    stripped = text.strip()
    value, end = _DECODER.raw_decode(stripped)
    if end != len(stripped):
        raise ValueError("extra data")
    return value


def _parse_fenced(response: str, fences: list[re.Match[str]]) -> Parsed:
    """A response with one or more Markdown fences: judge each fence body."""
    bodies = [_parse_bare(m.group(2)) for m in fences]
    with_json = [b for b in bodies if NOT_JSON not in b.reasons]
    if not with_json:
        return Parsed((NOT_JSON,))
    reasons = {FENCED_JSON}
    if "".join(_outside(response, fences)).strip():
        reasons.add(JSON_WITH_PROSE)
    if len(with_json) > 1:
        reasons.add(MULTIPLE_JSON_VALUES)
    for body in with_json:
        reasons.update(body.reasons)
    ordered = tuple(r for r in PARSE_REASONS if r in reasons)
    if len(with_json) == 1 and with_json[0].ok:
        return Parsed(ordered, inner=with_json[0].value, has_inner=True)
    if len(with_json) == 1 and with_json[0].has_inner:
        return Parsed(ordered, inner=with_json[0].inner, has_inner=True)
    return Parsed(ordered)


def _outside(response: str, fences: list[re.Match[str]]) -> list[str]:
    """The text of ``response`` that lies outside every fence."""
    pieces, start = [], 0
    for match in fences:
        pieces.append(response[start : match.start()])
        start = match.end()
    pieces.append(response[start:])
    return pieces


def _parse_bare(text: str) -> Parsed:
    """Text without fences: find the JSON values (objects/arrays) inside it."""
    try:
        return Parsed((), value=_loads(text))
    except ValueError:
        pass
    spans, truncated = _scan(text)
    reasons: list[str] = []
    if not spans:
        reasons.append(TRUNCATED_JSON if truncated is not None else NOT_JSON)
        if truncated is not None and text[:truncated].strip():
            reasons.append(JSON_WITH_PROSE)
        return Parsed(tuple(r for r in PARSE_REASONS if r in reasons))
    if len(spans) > 1:
        reasons.append(MULTIPLE_JSON_VALUES)
    if truncated is not None:
        reasons.append(TRUNCATED_JSON)
    if _has_prose(text, spans, truncated, separators=len(spans) > 1):
        reasons.append(JSON_WITH_PROSE)
    ordered = tuple(r for r in PARSE_REASONS if r in reasons)
    if len(spans) == 1 and truncated is None:
        return Parsed(ordered, inner=spans[0][2], has_inner=True)
    return Parsed(ordered)


def _scan(text: str) -> tuple[list[tuple[int, int, Any]], int | None]:
    """Complete JSON objects/arrays in ``text``, and where a truncated one starts."""
    spans: list[tuple[int, int, Any]] = []
    position = 0
    while (match := _OPENERS.search(text, position)) is not None:
        start = match.start()
        try:
            value, end = _DECODER.raw_decode(text, start)
        except json.JSONDecodeError as exc:
            if _hits_end(exc, text):
                return spans, start
            position = start + 1
            continue
        except ValueError:
            position = start + 1
            continue
        spans.append((start, end, value))
        position = end
    return spans, None


def _hits_end(exc: json.JSONDecodeError, text: str) -> bool:
    """Whether decoding failed because the text ran out (a truncated value)."""
    return exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string")


def _has_prose(
    text: str, spans: list[tuple[int, int, Any]], truncated: int | None, *, separators: bool
) -> bool:
    """Whether text other than whitespace (and commas between values) surrounds the values."""
    pieces, start = [], 0
    for begin, end, _ in spans:
        pieces.append(text[start:begin])
        start = end
    pieces.append(text[start:truncated] if truncated is not None else text[start:])
    outside = "".join(pieces)
    if separators:
        outside = outside.replace(",", "")
    return bool(outside.strip())

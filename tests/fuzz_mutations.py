"""The mutation classes of the fuzzer (:mod:`fuzz_harness`): bytes in, mutated bytes out.

Issue 15's classes (truncations, byte flips, wrong types, huge values and literals, deep
nesting, dropped or repeated lines, line-end oddities, links) and issue 31's (lone
surrogates, corrupt archives, an output onto a file read, hostile judge replies; see
:mod:`fuzz_targets`). ``link``, ``output_onto_read`` and ``hostile_judge`` leave the bytes
alone: the case applies them to the paths, the arguments or the judge server.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import fuzz_targets


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def truncate(data: bytes, rng: random.Random) -> bytes:
    """Cut the file at a random byte (a crash while it was written)."""
    return data[: rng.randrange(len(data) + 1)] if data else data


def byte_flip(data: bytes, rng: random.Random) -> bytes:
    """Replace 1-4 random bytes by random bytes (invalid UTF-8 included)."""
    if not data:
        return data
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        out[rng.randrange(len(out))] = rng.randrange(256)
    return bytes(out)


def _json_units(data: bytes) -> tuple[list[Any], bool] | None:
    """The file as JSON values: one per JSONL line, or the one document."""
    try:
        return [json.loads(data)], False
    except ValueError:
        pass
    try:
        return [json.loads(line) for line in _lines(data) if line.strip()], True
    except ValueError:
        return None


def _dump(units: list[Any], jsonl: bool) -> bytes:
    if jsonl:
        return b"".join(json.dumps(u, ensure_ascii=False).encode() + b"\n" for u in units)
    return json.dumps(units[0], ensure_ascii=False, indent=1).encode()


def _slots(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside a JSON value (dict keys, list indexes)."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _slots(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:20]):
            found += _slots(item, (*path, index))
    return found


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    copy: Any = dict(value) if isinstance(value, dict) else list(value)
    copy[head] = _replace(value[head], rest, new)
    return copy


def _structural(
    data: bytes, rng: random.Random, make: Callable[[random.Random, Any], Any]
) -> bytes:
    parsed = _json_units(data)
    if parsed is None or not parsed[0]:
        return byte_flip(data, rng)
    units, jsonl = parsed
    which = rng.randrange(len(units))
    slots = _slots(units[which])
    slot = rng.choice(slots[1:] or slots)
    old: Any = units[which]
    for part in slot:
        old = old[part]
    units[which] = _replace(units[which], slot, make(rng, old))
    return _dump(units, jsonl)


_TYPES: list[Any] = [None, True, 0, -1, 1.5, "", "x", [], [1], {}, {"a": 1}, [[]], "0", -0.0]


def wrong_type(data: bytes, rng: random.Random) -> bytes:
    """One value anywhere in one row replaced by a value of another JSON type."""

    def make(rng: random.Random, old: Any) -> Any:
        choices = [t for t in _TYPES if type(t) is not type(old)]
        return rng.choice(choices)

    return _structural(data, rng, make)


def _huge(rng: random.Random) -> Any:
    return rng.choice([
        10**400, -(10**4000), 1e308, 2**63, -(2**64), 5e-324,
        "1/" + "9" * 309, "10^" + "9" * 4000, "2e" + "9" * 4000, "9" * 5000,
        "x" * 200_000, "١٢٣" * 1000,
    ])  # fmt: skip


def huge_value(data: bytes, rng: random.Random) -> bytes:
    """One value replaced by a huge number, a huge-number text or a very long string."""
    return _structural(data, rng, lambda rng, old: _huge(rng))


def _with_literal(data: bytes, rng: random.Random, literal: bytes) -> bytes:
    """One value of one row replaced by the raw JSON text ``literal``."""
    parsed = _json_units(data)
    if parsed is None or not parsed[0]:
        return data + literal
    units, jsonl = parsed
    which = rng.randrange(len(units))
    marker = "@@MARK@@"
    slots = _slots(units[which])
    units[which] = _replace(units[which], rng.choice(slots[1:] or slots), marker)
    return _dump(units, jsonl).replace(json.dumps(marker).encode(), literal, 1)


def huge_literal(data: bytes, rng: random.Random) -> bytes:
    """A number literal Python cannot hold written into the text (``1e999``, 5,000 digits)."""
    literal = rng.choice([b"1" + b"0" * 5000, b"1e999", b"-1e400", b"9" * 4301 + b".5"])
    return _with_literal(data, rng, literal)


def deep_nesting(data: bytes, rng: random.Random) -> bytes:
    """One value wrapped in thousands of arrays or objects (or deeply nested JSON text)."""
    depth = rng.choice([600, 1200, 5000, 100_000])
    kind = rng.choice(["array", "object", "text"])
    if kind == "text":  # deep JSON inside a string: a structured response, a prediction
        return _structural(data, rng, lambda rng, old: "[" * depth + "]" * depth)
    opener, closer = (b"[", b"]") if kind == "array" else (b'{"a":', b"}")
    return _with_literal(data, rng, opener * depth + b"1" + closer * depth)


def drop_or_repeat(data: bytes, rng: random.Random) -> bytes:
    """A line removed, repeated or moved (duplicate ids, missing rows)."""
    lines = _lines(data)
    if len(lines) < 2:
        return data + data
    index = rng.randrange(len(lines))
    action = rng.choice(["drop", "repeat", "swap"])
    if action == "drop":
        del lines[index]
    elif action == "repeat":
        lines.insert(rng.randrange(len(lines)), lines[index])
    else:
        other = rng.randrange(len(lines))
        lines[index], lines[other] = lines[other], lines[index]
    return b"\n".join(lines)


def line_ends(data: bytes, rng: random.Random) -> bytes:
    """CRLF, lone CR, a byte-order mark, NUL or blank lines (encoding and line-end oddities)."""
    choice = rng.choice(["crlf", "cr", "bom", "nul", "blank", "empty", "nbsp"])
    if choice == "crlf":
        return data.replace(b"\n", b"\r\n")
    if choice == "cr":
        return data.replace(b"\n", b"\r", rng.randint(1, 3))
    if choice == "bom":
        return b"\xef\xbb\xbf" + data
    if choice == "nul":
        at = rng.randrange(len(data) + 1)
        return data[:at] + b"\x00" + data[at:]
    if choice == "blank":
        return data.replace(b"\n", b"\n\n  \n", 2)
    if choice == "nbsp":
        return data.replace(b"\n", b"\xc2\xa0\n", 2)
    return b""


MUTATIONS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "truncate": truncate,
    "byte_flip": byte_flip,
    "wrong_type": wrong_type,
    "huge_value": huge_value,
    "huge_literal": huge_literal,
    "deep_nesting": deep_nesting,
    "drop_or_repeat": drop_or_repeat,
    "line_ends": line_ends,
    "link": lambda data, rng: data,  # applied to the path, see Case.prepare
    "surrogate": lambda data, rng: fuzz_targets.surrogate(data, rng, _with_literal),
    "corrupt_archive": fuzz_targets.corrupt_archive,
    "output_onto_read": lambda data, rng: data,  # an output onto a file read, see Case.prepare
    "hostile_judge": lambda data, rng: data,  # the judge server's replies, see _one
}


def applies(command: str, mutation: str) -> bool:
    """Whether a mutation class is run on a command (hostile replies: judge commands only)."""
    return mutation != "hostile_judge" or command in fuzz_targets.JUDGE_COMMANDS
LINK_KINDS = ("symlink_loop", "dangling", "directory", "fifo", "output_is_input")

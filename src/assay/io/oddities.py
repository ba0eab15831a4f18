"""Reading as the XL-DocBench released evaluator does: the oddities it lets through, counted.

assay's loaders are strict by default. The ``xldocbench`` profile must score every
file the released evaluator scores, so the loaders take an explicit
``released=Oddities()`` argument: they then read as the released script does
(universal newlines, ``line.strip()``, NaN/Infinity and repeated keys accepted,
``str()`` of any id, ...) and note each input the strict loaders would refuse.
One warning line per kind of oddity and file is printed afterwards (the first
line it was seen on, and how many rows had it): never a silent change, never a
refusal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPEATED_KEY = "a key given twice in one JSON object: the last value kept, as released"
NOT_JSON_CONSTANT = "NaN or Infinity (not JSON): read as a float, as released"


@dataclass
class _Seen:
    line: int | None
    rows: int = 1


@dataclass
class Oddities:
    """Inputs read as the released evaluator reads them, grouped by file and kind."""

    _seen: dict[tuple[str, str], _Seen] = field(default_factory=dict)

    decoder: ReleasedDecoder = field(default_factory=lambda: ReleasedDecoder())

    def note(self, path: str | Path, line: int | None, what: str, rows: int = 1) -> None:
        """Record ``rows`` rows (or objects; 0: the file itself) of ``path`` with ``what``."""
        key = (str(path), what)
        seen = self._seen.get(key)
        if seen is None:
            self._seen[key] = _Seen(line, rows)
        else:
            seen.rows += rows

    def snapshot(self) -> dict[tuple[str, str], tuple[int | None, int]]:
        """The notes as they stand, for :meth:`restore`."""
        return {key: (seen.line, seen.rows) for key, seen in self._seen.items()}

    def restore(self, snapshot: dict[tuple[str, str], tuple[int | None, int]]) -> None:
        """Put the notes back as :meth:`snapshot` took them (a second read counts nothing)."""
        self._seen = {key: _Seen(line, rows) for key, (line, rows) in snapshot.items()}

    def merge(self, other: Oddities) -> None:
        """Add ``other``'s notes after this one's (as if noted here, in order)."""
        for (path, what), seen in other._seen.items():
            self.note(path, seen.line, what, seen.rows)

    def warnings(self) -> list[str]:
        """One line per file and kind: ``FILE:LINE: WHAT (N rows)``, in the order first seen."""
        lines = []
        for (path, what), seen in self._seen.items():
            where = f"{path}:{seen.line}" if seen.line is not None else path
            rows = f"{seen.rows} row" + ("" if seen.rows == 1 else "s")
            lines.append(f"{where}: {what} ({rows if seen.rows else 'the whole file'})")
        return lines


class ReleasedDecoder:
    """``json.loads`` as the released script calls it, counting what strict JSON refuses.

    Repeated keys keep the last value (at the first key's position, like ``dict``),
    ``NaN``/``Infinity``/``-Infinity`` become floats, exactly as plain ``json.loads``.
    One decoder serves one file; :meth:`decode` returns the value and the oddities.
    """

    def __init__(self) -> None:
        """Build the hooked decoder once (per file)."""
        self._duplicates = 0
        self._constants = 0
        self._decoder = json.JSONDecoder(object_pairs_hook=self._pairs, parse_constant=self._const)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as a fresh decoder (a per-file tool; its counts are read per row)."""
        return (ReleasedDecoder, ())

    def _pairs(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result = dict(pairs)
        if len(result) != len(pairs):
            self._duplicates += 1
        return result

    def _const(self, name: str) -> float:
        self._constants += 1
        return float(name)

    def decode(self, text: str) -> tuple[Any, list[tuple[str, int]]]:
        """The parsed value and ``(oddity, objects)`` pairs (raises ``JSONDecodeError``)."""
        self._duplicates = self._constants = 0
        value = self._decoder.decode(text)
        odd = []
        if self._duplicates:
            odd.append((REPEATED_KEY, self._duplicates))
        if self._constants:
            odd.append((NOT_JSON_CONSTANT, self._constants))
        return value, odd

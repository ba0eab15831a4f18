"""A set of ids that costs 8 bytes per id: 64-bit hashes in an open-addressing table.

:class:`HashedIds` answers "certainly new" exactly; "maybe seen" means the hash was
seen, which is a repeated id or (rarely, about n²/2⁶⁵) two ids with one hash. Callers
confirm a "maybe" against the input itself (see :func:`assay.io.pairs.read_pairs`),
so no answer ever depends on hashing.
"""

from __future__ import annotations

from array import array

_EMPTY = 0
_START = 1 << 12


class HashedIds:
    """Distinct ids as 64-bit hashes (0 is reserved for empty slots)."""

    def __init__(self) -> None:
        self._table = array("q", bytes(8 * _START))
        self._mask = _START - 1
        self._count = 0

    def __len__(self) -> int:
        return self._count

    @staticmethod
    def _key(value: str) -> int:
        key = hash(value)
        return key if key != _EMPTY else 1

    def add(self, value: str) -> bool:
        """Record ``value``; return ``True`` if it is certainly new, ``False`` if maybe seen."""
        key = self._key(value)
        table, mask = self._table, self._mask
        slot = key & mask
        while True:
            current = table[slot]
            if current == _EMPTY:
                break
            if current == key:
                return False
            slot = (slot + 1) & mask
        table[slot] = key
        self._count += 1
        if self._count * 2 > len(table):
            self._grow()
        return True

    def _grow(self) -> None:
        old = self._table
        self._table = array("q", bytes(8 * len(old) * 2))
        self._mask = len(self._table) - 1
        table, mask = self._table, self._mask
        for key in old:
            if key != _EMPTY:
                slot = key & mask
                while table[slot] != _EMPTY:
                    slot = (slot + 1) & mask
                table[slot] = key

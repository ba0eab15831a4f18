"""The verdict ledger: every judge request and its response, as recorded evidence.

One JSONL file, ``ledger.jsonl``, in the ledger folder (``--judge-cache DIR``,
default ``~/.cache/assay/judge``). Each line is one vote of one item: the ledger
key, the request (messages, model, temperature, seed, max tokens), the final
response (reply text, model id as returned, usage, HTTP status, attempts and
each attempt's result, the raw body) and the parse result. Failed and
unparseable votes are recorded like the others.

The key is SHA-256 over the request key (everything in the judge fingerprint
that is known before asking: model requested, template hash, parse rule,
temperature, seed, max tokens), the item (its rendered messages) and the vote
index. A rerun with the same settings finds every vote here and sends no
request, so its report is byte-identical. Lines are appended under a lock
(threads and processes) and fsynced; a line that cannot be read (a crash in
mid-write) is reported by file and line.
"""

from __future__ import annotations

import fcntl
import json
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assay.errors import AssayError, InputFileError
from assay.judge.client import json_bytes
from assay.judge.config import sha256_text

LEDGER_FILE = "ledger.jsonl"
LEDGER_VERSION = 1


class LedgerMissError(AssayError):
    """``--judge-offline`` and a vote that the ledger does not hold."""


def entry_key(request_key: str, messages: list[dict[str, str]], vote: int) -> str:
    """The ledger key of one vote of one item."""
    item = sha256_text(json.dumps(messages, sort_keys=True, ensure_ascii=False))
    return sha256_text(f"{request_key}:{item}:{vote}")


@dataclass
class Ledger:
    """The ledger of one folder, loaded once; :meth:`record` appends."""

    folder: Path
    entries: dict[str, dict[str, Any]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def path(self) -> Path:
        """The ledger file."""
        return self.folder / LEDGER_FILE

    @classmethod
    def open(cls, folder: Path) -> Ledger:
        """Load the ledger in ``folder`` (an absent folder or file is an empty ledger).

        Raises:
            InputFileError: a line is not a JSON object with a ``key``.
        """
        ledger = cls(folder)
        if not ledger.path.is_file():
            return ledger
        with open(ledger.path, encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                if line.strip():
                    ledger._load_line(line, number)
        return ledger

    def _load_line(self, line: str, number: int) -> None:
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputFileError(
                self.path, f"not JSON ({exc.msg}); remove the line or the ledger file",
                line=number,
            ) from None  # fmt: skip
        if not isinstance(entry, dict) or not isinstance(entry.get("key"), str):
            raise InputFileError(
                self.path, "a ledger line needs a string 'key'; remove the line", line=number,
                field="key",
            )  # fmt: skip
        self.entries[entry["key"]] = entry  # a later line for the same key wins

    def get(self, key: str) -> dict[str, Any] | None:
        """The recorded vote under ``key``, or ``None``."""
        with self._lock:
            return self.entries.get(key)

    def record(self, entry: dict[str, Any]) -> None:
        """Append ``entry`` (it has a ``key``) to the file and the in-memory index."""
        line = json_bytes({**entry, "ledger_version": LEDGER_VERSION}, sort_keys=True) + b"\n"
        with self._lock:
            self.folder.mkdir(parents=True, exist_ok=True)
            with open(self.path, "ab") as handle:
                fcntl.flock(handle, fcntl.LOCK_EX)
                try:
                    handle.write(line)
                    handle.flush()
                    os.fsync(handle.fileno())
                finally:
                    fcntl.flock(handle, fcntl.LOCK_UN)
            self.entries[entry["key"]] = json.loads(line)

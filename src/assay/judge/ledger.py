"""The verdict ledger: every judge request and its response, as recorded evidence.

One JSONL file, ``ledger.jsonl``, in the ledger folder (``--judge-cache DIR``,
default ``~/.cache/assay/judge``). Each line is one vote of one item: the ledger
key, the request (messages, model, temperature, seed, max tokens), the final
response (reply text, model id as returned, usage, cost, HTTP status, attempts,
each attempt's result and the waits between them, the raw body) and the parse
result. Failed and unparseable votes are recorded like the others.

The key is SHA-256 over the request key (everything in the judge fingerprint
that is known before asking: model requested, template hash, parse rule,
temperature, seed, max tokens), the item (its rendered messages) and the vote
index. A rerun with the same settings finds every vote here and sends no
request, so its report is byte-identical.

One key, one answer. A *transient* failure — a timeout, a lost or refused
connection, HTTP 401, 403, 408, 409, 429 or any 5xx — may not recur: it is kept
as evidence, but the next run that may send requests asks again and appends the
new answer (``--judge-offline`` replays it as that failure). Any other answer (a
verdict, an unparseable reply, another HTTP status) is *final*. When a key has
several lines (a transient failure then its retry, or the duplicate answers that
versions before single-flight wrote for one prompt), the first final line is
the key's answer; with no final line, the last failure.

Lines are appended under a lock (threads and processes) and fsynced; a line that
cannot be read (a torn write, a hand edit) is one error naming file, line and
field.
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
from assay.io.inputs_read import note_read
from assay.judge.client import json_bytes
from assay.judge.config import sha256_text

LEDGER_FILE = "ledger.jsonl"
LEDGER_VERSION = 1
#: HTTP statuses whose failure may not recur (besides every 5xx)
TRANSIENT_STATUSES = frozenset({401, 403, 408, 409, 429})
_FIX = "remove the line (or the ledger file) and run again to ask for it anew"


class LedgerMissError(AssayError):
    """``--judge-offline`` and a vote that the ledger does not hold."""


def entry_key(request_key: str, messages: list[dict[str, str]], vote: int) -> str:
    """The ledger key of one vote of one item."""
    item = sha256_text(json.dumps(messages, sort_keys=True, ensure_ascii=False))
    return sha256_text(f"{request_key}:{item}:{vote}")


def transient(reason: str) -> bool:
    """Whether a failure reason is one that may not recur (see the module docstring)."""
    if reason == "timeout" or reason.startswith("connection_error"):
        return True
    if reason.startswith("http_") and reason[5:].isdigit():
        status = int(reason[5:])
        return status in TRANSIENT_STATUSES or status >= 500
    return False


def is_transient(entry: dict[str, Any]) -> bool:
    """Whether a recorded vote is a transient failure (asked again when requests may go)."""
    response = entry["response"]
    return not response["ok"] and transient(response["reason"])


#: the fields of a ledger line that a replay reads, with their JSON types
_SHAPE: tuple[tuple[str, str, tuple[type, ...]], ...] = (
    ("response", "ok", (bool,)),
    ("response", "model", (str,)),
    ("response", "reason", (str,)),
    ("response", "usage", (dict,)),
    ("parsed", "label", (str, type(None))),
    ("parsed", "reason", (str,)),
)


@dataclass
class Ledger:
    """The ledger of one folder, loaded once; :meth:`record` appends."""

    folder: Path
    entries: dict[str, dict[str, Any]] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def path(self) -> Path:
        """The ledger file."""
        return self.folder / LEDGER_FILE

    @classmethod
    def open(cls, folder: Path) -> Ledger:
        """Load the ledger in ``folder`` (an absent folder or file is an empty ledger).

        Raises:
            InputFileError: a line that is not UTF-8, not JSON (a number past 4300
                digits, nesting too deep, a torn write), or not a ledger entry.
        """
        ledger = cls(folder)
        if not os.path.lexists(ledger.path):
            return ledger
        if not ledger.path.is_file():  # a FIFO would block the first append for ever
            raise InputFileError(
                ledger.path, "the verdict ledger is not a regular file (a FIFO, a folder, a "
                "broken link?); remove it or give another --judge-cache folder",
            )  # fmt: skip
        with open(ledger.path, "rb") as handle:
            note_read(ledger.path, handle)  # no output of this command may replace it
            for number, raw in enumerate(handle, start=1):
                if raw.strip():
                    ledger._keep(ledger._load_line(raw, number), number)
        return ledger

    def _load_line(self, raw: bytes, number: int) -> dict[str, Any]:
        from assay.io.jsonl import loads_strict

        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputFileError(
                self.path, f"not UTF-8 ({exc.reason} at byte {exc.start + 1}; a torn write?); "
                f"{_FIX}", line=number,
            ) from None  # fmt: skip
        try:
            entry = loads_strict(text, self.path, number)
        except InputFileError as exc:
            fix = "" if "remove the line" in exc.problem else f"; {_FIX}"
            raise InputFileError(self.path, f"{exc.problem}{fix}", line=number,
                                 field=exc.field) from None  # fmt: skip
        if not isinstance(entry, dict) or not isinstance(entry.get("key"), str):
            raise InputFileError(self.path, f"a ledger line needs a string 'key'; {_FIX}",
                                 line=number, field="key")  # fmt: skip
        for part, name, types in _SHAPE:
            value = entry.get(part)
            if not isinstance(value, dict) or not isinstance(value.get(name), types):
                raise InputFileError(
                    self.path, f"missing or of the wrong type in a ledger entry; {_FIX}",
                    line=number, field=f"{part}.{name}",
                )  # fmt: skip
        return entry

    def _keep(self, entry: dict[str, Any], number: int) -> None:
        """Index ``entry`` unless its key already has its answer (the first final line)."""
        held = self.entries.get(entry["key"])
        if held is None or is_transient(held):
            self.entries[entry["key"]] = entry
            self.lines[entry["key"]] = number

    def get(self, key: str) -> dict[str, Any] | None:
        """The recorded vote under ``key``, or ``None``."""
        with self._lock:
            return self.entries.get(key)

    def line_of(self, key: str) -> int:
        """The line of the ledger file the answer under ``key`` was read from (0: this run)."""
        return self.lines.get(key, 0)

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
            self._keep(json.loads(line), 0)

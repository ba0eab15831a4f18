"""Typed outcomes: every sample ends in exactly one, and they sum to the total.

``passed``        the program exited 0.
``failed``        a test assertion failed (Python: ``AssertionError`` is the final exception).
``crashed``       any other exception, a syntax error, a non-zero exit, or death by a signal
                  that assay's limits did not cause.
``timeout``       the wall-clock timeout or the CPU-time limit (``SIGXCPU``) ended it.
``memory``        the address-space limit ended it (Python: ``MemoryError``).
``sandbox_error`` the sandbox itself could not run it (the reason says why).
"""

from __future__ import annotations

import signal
from collections.abc import Iterable
from dataclasses import dataclass

from assay.code.languages import Language, last_line, matching_line
from assay.code.limits import Limits
from assay.code.sandbox import RawRun
from assay.errors import AccountingError

OUTCOMES = ("passed", "failed", "crashed", "timeout", "memory", "sandbox_error")


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


SANDBOX_DIR = "/sandbox"


def _text(data: bytes, base: str = "") -> str:
    """Decoded output; the run's random temporary folder shown as ``/sandbox``."""
    text = data.decode("utf-8", errors="backslashreplace")
    return text.replace(base, SANDBOX_DIR) if base else text


def classify(run: RawRun, language: Language, limits: Limits) -> tuple[str, str]:
    """``(outcome, reason)`` of one run."""
    if run.sandbox_error is not None:
        return "sandbox_error", run.sandbox_error
    if run.timed_out:
        return "timeout", f"wall-clock limit of {limits.timeout_seconds:g} s"
    if run.signal == signal.SIGXCPU or (
        run.signal == signal.SIGKILL and (run.cpu_seconds or 0.0) >= limits.cpu_seconds
    ):
        return "timeout", f"CPU limit of {limits.cpu_seconds} s"
    if run.exit_code == 0:
        return "passed", ""
    tail = _text(run.stderr_tail)
    memory = matching_line(language, language.memory, tail)
    if memory is not None:
        return "memory", memory[:300]
    if run.signal is not None:
        return "crashed", f"killed by {_signal_name(run.signal)}"
    failed = matching_line(language, language.failed, tail)
    if failed is not None:
        return "failed", failed[:300]
    error = matching_line(language, language.error, tail) or last_line(tail)
    return "crashed", error[:300] or f"exit code {run.exit_code}"


@dataclass(frozen=True, slots=True)
class SampleResult:
    """One sample's outcome and what it printed (capped), in the per-sample file."""

    task_id: str
    index: int
    outcome: str
    reason: str
    exit_code: int | None
    signal: int | None
    stdout: str
    stdout_bytes: int
    stderr: str
    stderr_tail: str
    stderr_bytes: int
    left_behind: int
    completion: str

    def to_dict(self, output_bytes: int) -> dict[str, object]:
        """The canonical JSON form (``*_truncated`` derived from the byte counts)."""
        return {
            "task_id": self.task_id, "sample": self.index, "outcome": self.outcome,
            "reason": self.reason, "exit_code": self.exit_code, "signal": self.signal,
            "stdout": self.stdout, "stdout_bytes": self.stdout_bytes,
            "stdout_truncated": self.stdout_bytes > output_bytes,
            "stderr": self.stderr, "stderr_bytes": self.stderr_bytes,
            "stderr_truncated": self.stderr_bytes > output_bytes,
            "stderr_tail": self.stderr_tail if self.stderr_bytes > output_bytes else "",
            "processes_left_behind": self.left_behind, "completion": self.completion,
        }  # fmt: skip


def sample_result(
    task_id: str, index: int, completion: str, run: RawRun, language: Language, limits: Limits
) -> SampleResult:
    """Classify a run and keep what the per-sample file shows."""
    outcome, reason = classify(run, language, limits)
    return SampleResult(
        task_id, index, outcome, reason.replace(run.base, SANDBOX_DIR) if run.base else reason,
        run.exit_code, run.signal, _text(run.stdout, run.base), run.stdout_bytes,
        _text(run.stderr, run.base), _text(run.stderr_tail, run.base), run.stderr_bytes,
        run.left_behind, completion,
    )  # fmt: skip


def accounting(outcomes: Iterable[str], total: int) -> dict[str, int]:
    """Counts per outcome plus ``total``; checks that they sum to it.

    Raises:
        AccountingError: the buckets do not sum to the total (a bug).
    """
    counts = dict.fromkeys(OUTCOMES, 0)
    for outcome in outcomes:
        counts[outcome] += 1
    if sum(counts.values()) != total:
        raise AccountingError(f"code outcomes sum to {sum(counts.values())}, not {total}")
    return {"total": total, **counts}

"""Run one task in a forked child process while the parent goes on: the second core.

``assay eval`` writes its release files (report JSON, per-question CSV, results/) from the
scored run alone, while the statistics and the comparison files need the result document:
the two are independent, CPU-bound and hold the GIL, so a thread would not help (and
the result JSON's text is made by a second child while the parent renders the HTML). On a
platform with :func:`os.fork`, :func:`in_child` forks; the child runs the task on its
copy-on-write view of the run, sends back the return value (or the exception) through a
pipe and leaves with :func:`os._exit` (no exit handlers, no inherited buffers flushed).
The parent gets a function that waits for the child and returns that value or raises
that exception, so errors, their messages and the files written are those of running
the task in line. Without ``fork``, or with other Python threads alive (a fork copies
only the calling thread, and a lock another thread held would stay held in the child),
the task simply runs in line, at once.

Interrupts: every live child is recorded, and :func:`stop_children` (the CLI's
SIGINT/SIGTERM path) sends each SIGTERM, waits for it (SIGKILL after
:data:`STOP_GRACE` seconds) and removes the files it had staged and sent back. A child
interrupted itself removes its own staged files before it leaves
(:func:`assay.io.pending.discard_pending`); staged files a child returns are adopted by
the parent (:func:`assay.io.commit.adopt`), to be committed or removed there.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from assay.io.commit import adopt, signals_held
from assay.io.pending import discard_pending

T = TypeVar("T")

#: Seconds a child has to leave after SIGTERM before it gets SIGKILL.
STOP_GRACE = 10.0

_LIVE: dict[int, int] = {}  # pid of a live child -> the read end of its pipe


class ChildFailedError(RuntimeError):
    """The child process ended without sending a result (killed, or an unpicklable one)."""


def can_fork() -> bool:
    """Whether :func:`in_child` would fork: ``os.fork`` exists and no other thread runs."""
    return hasattr(os, "fork") and threading.active_count() == 1


def in_child(task: Callable[[], T], *, enabled: bool = True) -> Callable[[], T]:
    """Start ``task`` in a forked child; return a function waiting for its outcome.

    Call the returned function exactly once (in a ``finally`` block, so the child is
    always reaped); it returns the task's value or raises the task's exception.
    ``enabled=False``, or :func:`can_fork` false: ``task`` runs now, in this process (an
    error propagates at once), and the returned function gives its result.
    """
    if not (enabled and can_fork()):
        return _in_line(task)
    sys.stdout.flush()
    sys.stderr.flush()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: run, report, leave without running the parent's exit code
        try:
            # Ctrl-C reaches the whole process group: the parent stops its children
            # (SIGTERM, see stop_children), so the child leaves SIGINT to it
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            _LIVE.clear()  # the parent's other children are not this one's
            os.close(read)
            _report(task, write)
        except BaseException:  # stopped while sending: what it staged is not wanted
            discard_pending()
        finally:  # whatever happens, never back into the parent's code
            os._exit(0)
    os.close(write)
    _LIVE[pid] = read
    return lambda: _collect(pid, read)


def _in_line(task: Callable[[], T]) -> Callable[[], T]:
    value = task()  # an error is raised here and now, as without this module
    return lambda: value


def _report(task: Callable[[], object], write: int) -> None:
    """In the child: run ``task``, send ``(True, value)`` or ``(False, exception)``."""
    try:
        outcome: tuple[bool, object] = (True, task())
    except BaseException as exc:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # the clean-up runs to its end
        discard_pending()  # interrupted or failed: what it staged is not wanted
        outcome = (False, exc)
    try:
        payload = pickle.dumps(outcome)
    except Exception as exc:  # an unpicklable value or exception: say what it was
        payload = pickle.dumps((False, ChildFailedError(f"{outcome[1]!r} ({exc})")))
    with os.fdopen(write, "wb") as pipe:
        pipe.write(payload)


def _collect(pid: int, read: int) -> Any:
    with os.fdopen(read, "rb", closefd=False) as pipe:
        payload = pipe.read()
    with signals_held():  # what the child sent is adopted before an interrupt is handled
        return _received(pid, read, payload)


def _received(pid: int, read: int, payload: bytes) -> Any:
    _, status = os.waitpid(pid, 0)
    _LIVE.pop(pid, None)
    os.close(read)
    if not payload:
        raise ChildFailedError(f"the writer process ended without a result (status {status})")
    try:
        ok, value = pickle.loads(payload)
    except Exception as exc:  # an exception class that does not rebuild from its args
        raise ChildFailedError(f"the writer process's outcome could not be read ({exc})") from None
    if not ok:
        raise value
    adopt(value)  # staged files the child made are this process's now
    return value


def stop_children() -> int:
    """Stop every live child (SIGTERM, then SIGKILL after :data:`STOP_GRACE` s); reap them.

    What a stopped child had staged and already sent back is removed. Returns how
    many children were stopped.
    """
    stopped = 0
    for pid, read in list(_LIVE.items()):
        _LIVE.pop(pid, None)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
        payload = _drain(pid, read)
        stopped += 1
        try:
            ok, value = pickle.loads(payload) if payload else (False, None)
        except Exception:  # a child stopped mid-write: nothing usable came
            continue
        if ok:
            adopt(value)  # the caller removes them with the rest (discard_pending)
    return stopped


def _drain(pid: int, read: int) -> bytes:
    """Read what a stopping child sends until its pipe closes; SIGKILL it after the grace."""
    os.set_blocking(read, False)
    chunks: list[bytes] = []
    deadline = time.monotonic() + STOP_GRACE
    killed = False
    while True:
        try:
            chunk = os.read(read, 1 << 16)
        except BlockingIOError:
            if time.monotonic() > deadline:
                if killed:  # the pipe is held open elsewhere: stop waiting for it
                    break
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                killed, deadline = True, time.monotonic() + STOP_GRACE
            time.sleep(0.01)
            continue
        if not chunk:
            break
        chunks.append(chunk)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)
    os.close(read)
    return b"".join(chunks)

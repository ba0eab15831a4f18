"""The sandbox: the only code in assay that starts user programs.

Each program runs in a fresh process started by ``unshare`` in new network, mount, PID,
IPC and UTS namespaces (a user namespace too when assay is not root), under the init
process in ``_sandbox_init.py``, with:

- a scrubbed environment (``PATH``, ``HOME``, ``TMPDIR``, ``LANG`` and the language's own
  variables; nothing of the parent's);
- an empty work directory, the only writable place (every other mount is read-only);
- resource limits (:class:`~assay.code.limits.Limits`) and a wall-clock timeout;
- an unprivileged uid, one per worker slot, when assay runs as root, so that
  ``RLIMIT_NPROC`` holds; plus a pids cgroup per run wherever one can be created;
- stdout and stderr read through pipes and capped, the rest counted and dropped.

:func:`probe` finds out once what the platform allows; :class:`Isolation` says exactly
what is isolated and how, and what is ``not isolated`` and why. That record goes into
every report.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from assay.code.languages import SYSTEM_PATH
from assay.code.limits import Limits

INIT = Path(__file__).with_name("_sandbox_init.py")
TAIL_BYTES = 4096
_NAMESPACES = ("--net", "--mount", "--pid", "--ipc", "--uts", "--fork", "--kill-child")
_CGROUP_PREFIX = "assay-code-"


@dataclass(frozen=True, slots=True)
class Isolation:
    """What the platform lets the sandbox isolate (recorded in every report).

    Attributes:
        backend: ``unshare`` (namespaces) or ``unavailable`` (nothing can run).
        isolated: feature → how it is isolated.
        not_isolated: feature → why it is not.
        error: why the sandbox cannot run at all (``backend == "unavailable"``).
        user_namespace: whether a user namespace is used (assay is not root).
        cgroup_root: the pids-cgroup folder runs get a child of, or ``None``.
    """

    backend: str
    isolated: dict[str, str]
    not_isolated: dict[str, str]
    error: str | None = None
    user_namespace: bool = False
    cgroup_root: str | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, object]:
        """The canonical JSON form (no machine paths)."""
        return {
            "backend": self.backend,
            "isolated": dict(sorted(self.isolated.items())),
            "not_isolated": dict(sorted(self.not_isolated.items())),
            "error": self.error,
        }


@dataclass(frozen=True, slots=True)
class RawRun:
    """What one sandboxed run produced, before it is classified."""

    exit_code: int | None
    signal: int | None
    timed_out: bool
    cpu_seconds: float | None
    stdout: bytes
    stdout_bytes: int
    stderr: bytes
    stderr_tail: bytes
    stderr_bytes: int
    sandbox_error: str | None
    left_behind: int
    wall_seconds: float
    base: str = ""


def _try(argv: list[str]) -> str | None:
    """Run a probe command; ``None`` on success, else its error text."""
    try:
        done = subprocess.run(argv, capture_output=True, timeout=20, env={"PATH": SYSTEM_PATH})
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    if done.returncode == 0:
        return None
    return done.stderr.decode(errors="replace").strip() or f"exit code {done.returncode}"


def namespace_arguments(user_namespace: bool) -> list[str]:
    """The ``unshare`` options every run uses."""
    user = ["--user", "--map-root-user"] if user_namespace else []
    return [*user, *_NAMESPACES, "--mount-proc"]


def _pids_cgroup_root() -> str | None:
    """A pids-cgroup folder this process can create children in, or ``None``."""
    candidates = ["/sys/fs/cgroup/pids", "/sys/fs/cgroup", "/sys/fs/cgroup/unified"]
    for root in candidates:
        probe_dir = Path(root) / f"{_CGROUP_PREFIX}probe-{os.getpid()}"
        try:
            probe_dir.mkdir()
        except OSError:
            continue
        usable = (probe_dir / "pids.max").exists()
        probe_dir.rmdir()
        if usable:
            return root
    return None


@functools.lru_cache(maxsize=1)
def probe() -> Isolation:
    """Find out once what this machine lets the sandbox isolate."""
    unshare = shutil.which("unshare", path=SYSTEM_PATH)
    if not sys.platform.startswith("linux") or unshare is None:
        why = "needs Linux and util-linux `unshare` (Debian: apt-get install util-linux)"
        return Isolation("unavailable", {}, {"everything": why}, error=why)
    root = os.geteuid() == 0
    failure = _try([unshare, *namespace_arguments(not root), "true"])
    if failure is not None:
        why = f"`unshare` cannot create namespaces here ({failure.splitlines()[-1]})"
        return Isolation("unavailable", {}, {"everything": why}, error=why)
    cgroup = _pids_cgroup_root()
    return Isolation(
        "unshare",
        _isolated(root, cgroup is not None),
        _not_isolated(root, cgroup is not None),
        user_namespace=not root,
        cgroup_root=cgroup,
    )


def _isolated(root: bool, cgroup: bool) -> dict[str, str]:
    who = "an unprivileged uid (one per worker slot)" if root else "uid 0 of a user namespace, "
    who += "" if root else "every capability dropped"
    count = "a pids cgroup per run and RLIMIT_NPROC" if cgroup else "RLIMIT_NPROC"
    if not root and not cgroup:
        count = ""
    found = {
        "environment": "scrubbed: only PATH, HOME, TMPDIR, LANG and the language's variables",
        "filesystem": "mount namespace: every mount read-only and nosuid except the work dir",
        "network": "new network namespace (loopback down, no interfaces)",
        "processes": "own PID namespace: everything dies with the run's init process",
        "privileges": f"{who}; no_new_privs",
        "resources": "RLIMIT_CPU, RLIMIT_AS, RLIMIT_FSIZE, RLIMIT_NOFILE, wall-clock timeout",
        "output": "stdout and stderr through pipes, capped",
        "ipc": "new IPC and UTS namespaces",
    }
    if count:
        found["process count"] = count
    return found


def _not_isolated(root: bool, cgroup: bool) -> dict[str, str]:
    missing: dict[str, str] = {
        "reads": "the program can read every world-readable file of the machine",
    }
    if not root and not cgroup:
        missing["process count"] = (
            "no pids cgroup can be created and RLIMIT_NPROC counts all processes of the "
            "invoking user, not one run's"
        )
    return missing


class _Capture:
    """Keeps the first ``cap`` bytes and the last ``TAIL_BYTES`` of a stream; counts all."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.head = bytearray()
        self.tail = b""
        self.total = 0

    def add(self, data: bytes) -> None:
        self.total += len(data)
        room = self.cap - len(self.head)
        if room > 0:
            self.head += data[:room]
        self.tail = (self.tail + data)[-TAIL_BYTES:]


def _uid_for(slot: int) -> int:
    """An unprivileged uid for a worker slot, distinct between concurrent assay processes."""
    return 100_000 + (os.getpid() % 10_000) * 100 + slot % 100


@contextmanager
def _cgroup(isolation: Isolation, limits: Limits) -> Iterator[Path | None]:
    """A fresh pids cgroup for one run (``None`` when there is no cgroup to use)."""
    if isolation.cgroup_root is None:
        yield None
        return
    path = Path(isolation.cgroup_root) / f"{_CGROUP_PREFIX}{os.getpid()}-{time.monotonic_ns()}"
    path.mkdir()
    try:
        (path / "pids.max").write_text(f"{limits.processes + 1}\n")  # + the init process
        yield path
    finally:
        _empty_cgroup(path)


def _empty_cgroup(path: Path) -> None:
    for _ in range(50):
        pids = [int(p) for p in (path / "cgroup.procs").read_text().split()]
        for pid in pids:
            _kill(pid)
        if not pids:
            break
        time.sleep(0.02)
    for _ in range(50):
        try:
            path.rmdir()
            return
        except OSError:
            time.sleep(0.02)


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def processes_of(uid: int) -> list[int]:
    """Process ids whose real uid is ``uid`` (scans ``/proc``)."""
    found: list[int] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("Uid:"):
                if int(line.split()[1]) == uid:
                    found.append(int(entry.name))
                break
    return found


def _alive(cgroup: Path | None, uid: int | None) -> set[int]:
    pids: set[int] = set()
    if cgroup is not None:
        pids.update(int(p) for p in (cgroup / "cgroup.procs").read_text().split())
    if uid is not None:
        pids.update(processes_of(uid))
    return pids


def _left_behind(cgroup: Path | None, uid: int | None) -> int:
    """Count (and kill) processes of the run still alive 2 s after its init was gone.

    The kernel tears a PID namespace down asynchronously once its init dies, so a
    process may still be dying for a moment; only one that outlives the grace period
    counts as left behind.
    """
    grace = time.monotonic() + 2.0
    pids = _alive(cgroup, uid)
    while pids and time.monotonic() < grace:
        time.sleep(0.01)
        pids = _alive(cgroup, uid)
    for pid in pids:
        _kill(pid)
    return len(pids)


@dataclass(frozen=True, slots=True)
class Program:
    """One program to run: its text, file suffix, interpreter command and extra variables."""

    source: str
    suffix: str
    command: tuple[str, ...]
    env: tuple[tuple[str, str], ...] = ()


def _prepare(base: Path, program: Program, uid: int | None) -> tuple[Path, Path]:
    """Write the program (read-only to it) and make the empty work directory."""
    os.chmod(base, 0o755)
    path = base / f"program{program.suffix}"
    path.write_text(program.source, encoding="utf-8")
    os.chmod(path, 0o644)
    work = base / "work"
    work.mkdir(mode=0o700)
    if uid is not None:
        os.chown(work, uid, uid)
    return path, work


def _init_config(
    program: Program, path: Path, work: Path, limits: Limits, uid: int | None,
    cgroup: Path | None, status_fd: int,
) -> str:  # fmt: skip
    env = {"PATH": SYSTEM_PATH, "HOME": str(work), "TMPDIR": str(work), "LANG": "C.UTF-8"}
    env.update(dict(program.env))
    config = {
        "argv": [*program.command, str(path)],
        "cgroup_procs": str(cgroup / "cgroup.procs") if cgroup is not None else None,
        "env": env,
        "limits": limits.rlimits(),
        "mounts": True,
        "status_fd": status_fd,
        "uid": uid,
        "work": str(work),
    }
    return json.dumps(config, sort_keys=True)


def run_program(program: Program, limits: Limits, isolation: Isolation, slot: int = 0) -> RawRun:
    """Run one program in the sandbox and collect what it did.

    Args:
        program: the program text and how to run it.
        limits: the resource limits and the wall-clock timeout.
        isolation: from :func:`probe`.
        slot: the worker slot (chooses the unprivileged uid).
    """
    started = time.monotonic()
    if isolation.backend != "unshare":
        return _sandbox_failure(f"the sandbox is unavailable: {isolation.error}", started)
    uid = None if isolation.user_namespace else _uid_for(slot)
    base = Path(tempfile.mkdtemp(prefix="assay-code-"))
    try:
        path, work = _prepare(base, program, uid)
        with _cgroup(isolation, limits) as cgroup:
            run = _execute(program, path, work, limits, isolation, uid, cgroup, started)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return dataclasses.replace(run, base=str(base))


def _sandbox_failure(reason: str, started: float) -> RawRun:
    return RawRun(None, None, False, None, b"", 0, b"", b"", 0, reason, 0,
                  time.monotonic() - started)  # fmt: skip


def _execute(
    program: Program, path: Path, work: Path, limits: Limits, isolation: Isolation,
    uid: int | None, cgroup: Path | None, started: float,
) -> RawRun:  # fmt: skip
    status_r, status_w = os.pipe()
    config = _init_config(program, path, work, limits, uid, cgroup, status_w)
    unshare = shutil.which("unshare", path=SYSTEM_PATH) or "unshare"
    argv = [unshare, *namespace_arguments(isolation.user_namespace),
            sys.executable, "-I", "-S", str(INIT), config]  # fmt: skip
    try:
        proc = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            pass_fds=(status_w,), env={"PATH": SYSTEM_PATH, "LANG": "C.UTF-8"},
            cwd=work, start_new_session=True,
        )  # fmt: skip
    except OSError as exc:
        os.close(status_r)
        os.close(status_w)
        return _sandbox_failure(f"cannot start unshare: {exc}", started)
    os.close(status_w)
    out, err, status, timed_out = _collect(proc, status_r, limits, started)
    left = _left_behind(cgroup, uid)
    return _raw(out, err, status, timed_out, left, started)


def _raw(out: _Capture, err: _Capture, status: bytes, timed_out: bool, left: int,
         started: float) -> RawRun:  # fmt: skip
    try:
        record = json.loads(status.decode()) if status.strip() else {}
    except ValueError:
        record = {"sandbox_error": "unreadable status from the sandbox's init"}
    error = record.get("sandbox_error")
    if not record and not timed_out:
        error = "the sandbox's init exited without a status"
    return RawRun(
        exit_code=record.get("exit_code"), signal=record.get("signal"), timed_out=timed_out,
        cpu_seconds=record.get("cpu_seconds"), stdout=bytes(out.head), stdout_bytes=out.total,
        stderr=bytes(err.head), stderr_tail=err.tail, stderr_bytes=err.total,
        sandbox_error=None if timed_out else error, left_behind=left,
        wall_seconds=time.monotonic() - started,
    )  # fmt: skip


def _collect(
    proc: subprocess.Popen[bytes], status_r: int, limits: Limits, started: float
) -> tuple[_Capture, _Capture, bytes, bool]:
    """Read stdout, stderr and the status until all close; kill at the deadline."""
    assert proc.stdout is not None and proc.stderr is not None  # noqa: S101 - set by Popen
    captures = {proc.stdout.fileno(): _Capture(limits.output_bytes),
                proc.stderr.fileno(): _Capture(limits.output_bytes)}  # fmt: skip
    status = bytearray()
    selector = selectors.DefaultSelector()
    for fd in (*captures, status_r):
        selector.register(fd, selectors.EVENT_READ)
    deadline = started + limits.timeout_seconds
    timed_out = False
    while selector.get_map():
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            if not timed_out:
                timed_out = True
                _kill_group(proc)
            deadline = time.monotonic() + 5.0  # pipes close once the namespace is gone
            remaining = 5.0
        for key, _ in selector.select(remaining):
            fd = int(key.fd)
            data = os.read(fd, 65536)
            if not data:
                selector.unregister(fd)
            elif fd == status_r:
                status += data
            else:
                captures[fd].add(data)
    selector.close()
    os.close(status_r)
    _reap(proc)
    out, err = captures[proc.stdout.fileno()], captures[proc.stderr.fileno()]
    proc.stdout.close()
    proc.stderr.close()
    return out, err, bytes(status), timed_out


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _reap(proc: subprocess.Popen[bytes]) -> None:
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        proc.wait()

"""The init process of one sandboxed run (executed by :mod:`assay.code.sandbox`, never imported).

It runs as PID 1 of a fresh PID namespace, inside fresh mount, network, IPC and UTS
namespaces created by ``unshare``, with the standard library only (``python -I -S``).
Its one argument is a JSON object (see ``sandbox._init_config``). In order it:

1. joins the per-run pids cgroup, if one was made (a process-count limit that holds as root);
2. makes every mount read-only and nosuid, then the work directory alone writable again;
3. forks the program's process, which drops to an unprivileged uid (or, inside a user
   namespace, drops every capability), sets the resource limits, enters the work
   directory and executes the interpreter with a scrubbed environment;
4. waits for that process, reaping orphans, and writes one JSON status line to the status
   file descriptor; then kills everything left in the namespace and exits (when PID 1
   exits the kernel kills whatever remains, so a ``setsid`` daemon dies with the run).

A failure of the sandbox itself (a mount, a uid change, an exec) is reported as
``{"sandbox_error": ...}``, never as the program's failure.
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import signal
import struct
import sys

MS_BIND = 0x1000
MS_REMOUNT = 0x20
MS_RDONLY = 0x1
MS_NOSUID = 0x2
AT_FDCWD = -100
AT_RECURSIVE = 0x8000
MOUNT_ATTR_RDONLY = 0x1
MOUNT_ATTR_NOSUID = 0x2
SYS_MOUNT_SETATTR = 442  # the same number on x86_64 and aarch64 (generic table)
PR_SET_NO_NEW_PRIVS = 38
PR_CAPBSET_DROP = 24
SYS_CAPSET = {"x86_64": 126, "aarch64": 91}

_LIBC = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def _bind_self(path: str) -> None:
    raw = path.encode()
    _check(_LIBC.mount(raw, raw, None, MS_BIND, None), f"bind mount {path}")


def _setattr(path: str, flags: int, attr_set: int, attr_clr: int) -> None:
    attr = struct.pack("QQQQ", attr_set, attr_clr, 0, 0)
    buf = ctypes.create_string_buffer(attr, len(attr))
    result = _LIBC.syscall(
        SYS_MOUNT_SETATTR, AT_FDCWD, path.encode(), flags, buf, ctypes.c_size_t(len(attr))
    )
    _check(result, f"mount_setattr {path}")


def _remount_each_read_only(work: str) -> None:
    """Fallback for kernels without mount_setattr (< 5.12): remount every mount read-only."""
    with open("/proc/self/mountinfo", encoding="utf-8") as handle:
        points = [line.split()[4] for line in handle]
    for point in sorted(set(points), key=len):
        if point != work:
            flags = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID
            _check(_LIBC.mount(None, point.encode(), None, flags, None), f"remount {point}")


def _read_only_except(work: str) -> None:
    _bind_self(work)
    try:
        _setattr("/", AT_RECURSIVE, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID, 0)
        _setattr(work, 0, 0, MOUNT_ATTR_RDONLY)
    except OSError as exc:
        if exc.errno != 38:  # ENOSYS
            raise
        _remount_each_read_only(work)


def _drop_capabilities() -> None:
    """Empty the bounding set and every capability set (uid 0 of a user namespace)."""
    for cap in range(64):
        if _LIBC.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 and ctypes.get_errno() == 22:
            break  # EINVAL: past the last capability this kernel knows
    number = SYS_CAPSET.get(os.uname().machine)
    if number is None:
        raise OSError(38, f"capset: unknown syscall number on {os.uname().machine}")
    header = ctypes.create_string_buffer(struct.pack("Ii", 0x20080522, 0), 8)
    data = ctypes.create_string_buffer(bytes(24), 24)
    _check(_LIBC.syscall(number, header, data), "capset")


def _limit(kind: int, soft: int, hard: int | None = None) -> None:
    resource.setrlimit(kind, (soft, soft if hard is None else hard))


def _set_limits(limits: dict[str, int]) -> None:
    _limit(resource.RLIMIT_CPU, limits["cpu_seconds"], limits["cpu_seconds"] + 1)
    _limit(resource.RLIMIT_AS, limits["address_space_bytes"])
    _limit(resource.RLIMIT_FSIZE, limits["file_size_bytes"])
    _limit(resource.RLIMIT_NOFILE, limits["open_files"])
    _limit(resource.RLIMIT_NPROC, limits["processes"])
    _limit(resource.RLIMIT_CORE, 0)


def _become_program(config: dict[str, object], error_w: int) -> None:
    """In the forked child: drop privileges, set limits, exec. Never returns."""
    try:
        uid = config["uid"]
        if isinstance(uid, int):
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
        else:
            _drop_capabilities()
        _check(_LIBC.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
        _set_limits(config["limits"])  # type: ignore[arg-type]
        os.chdir(str(config["work"]))
        argv = [str(a) for a in config["argv"]]  # type: ignore[attr-defined]
        os.execve(argv[0], argv, dict(config["env"]))  # type: ignore[call-overload]
    except BaseException as exc:  # noqa: BLE001 - every failure here is the sandbox's
        os.write(error_w, f"{type(exc).__name__}: {exc}".encode()[:1000])
    os._exit(127)


def _wait_for(pid: int) -> tuple[int, float]:
    """Reap children until ``pid`` exits; its wait status and CPU seconds."""
    while True:
        try:
            got, status, usage = os.wait4(-1, 0)
        except ChildProcessError:
            return 0, 0.0
        except InterruptedError:
            continue
        if got == pid:
            return status, usage.ru_utime + usage.ru_stime


def _run(config: dict[str, object], status_fd: int) -> dict[str, object]:
    cgroup = config.get("cgroup_procs")
    if isinstance(cgroup, str):
        with open(cgroup, "w", encoding="ascii") as handle:
            handle.write("0\n")
    if config.get("mounts"):
        _read_only_except(str(config["work"]))
    error_r, error_w = os.pipe2(os.O_CLOEXEC)
    pid = os.fork()
    if pid == 0:
        os.close(error_r)
        os.close(status_fd)
        _become_program(config, error_w)
    os.close(error_w)
    failure = os.read(error_r, 1000)
    os.close(error_r)
    status, cpu = _wait_for(pid)
    if failure:
        return {"sandbox_error": "could not start the program: " + failure.decode(errors="replace")}
    result: dict[str, object] = {"cpu_seconds": cpu}
    if os.WIFSIGNALED(status):
        result["signal"] = os.WTERMSIG(status)
    else:
        result["exit_code"] = os.WEXITSTATUS(status)
    return result


def main() -> None:
    """Run one program as described by the JSON in ``argv[1]``."""
    config = json.loads(sys.argv[1])
    status_fd = int(config["status_fd"])
    try:
        result = _run(config, status_fd)
    except Exception as exc:  # noqa: BLE001 - reported as the sandbox's own failure
        result = {"sandbox_error": f"{type(exc).__name__}: {exc}"}
    os.write(status_fd, (json.dumps(result, sort_keys=True) + "\n").encode())
    os.close(status_fd)
    if os.getpid() == 1:
        try:
            os.kill(-1, signal.SIGKILL)  # everything else in this PID namespace
        except ProcessLookupError:
            pass
    os._exit(0)


if __name__ == "__main__":
    main()

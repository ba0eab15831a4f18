"""The sandbox against hostile samples: each ends in its typed outcome, nothing is left behind.

Limits are small (3 s wall, 2 s CPU, 512 MiB) so the suite stays cheap on a shared machine.
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from assay.code import Limits, evaluate, probe
from assay.code.sandbox import _uid_for, processes_of

LIMITS = Limits(timeout_seconds=3, cpu_seconds=2, address_space_bytes=512 << 20, processes=16,
                output_bytes=4096)  # fmt: skip
ADD = {"task_id": "add", "prompt": "def add(a, b):\n", "entry_point": "add",
       "test": "def check(candidate):\n    assert candidate(2, 3) == 5\n"}  # fmt: skip
OK = "    return a + b\n"


@pytest.fixture(autouse=True, scope="module")
def private_tempdir() -> Iterator[None]:
    """A temporary folder of this module's own, so other runs' work folders don't count.

    World-searchable like /tmp, since samples run as an unprivileged user.
    """
    folder = tempfile.mkdtemp(prefix="assay-sandbox-test-")
    os.chmod(folder, 0o1777)
    saved = tempfile.tempdir
    tempfile.tempdir = folder
    try:
        yield
    finally:
        tempfile.tempdir = saved
        shutil.rmtree(folder, ignore_errors=True)


def _temp_dirs() -> set[str]:
    return {p.name for p in Path(tempfile.gettempdir()).glob("assay-code-*")}


def run_one(completion: str, limits: Limits = LIMITS) -> dict[str, object]:
    before = _temp_dirs()
    report = evaluate([ADD], [{"task_id": "add", "completion": completion}], k=(1,),
                      allow_execution=True, limits=limits)  # fmt: skip
    assert _temp_dirs() == before, "a work directory was left behind"
    assert processes_of(_uid_for(0)) == [], "a process of the sandbox uid is still alive"
    document = report.to_dict()
    assert document["accounting"]["total"] == 1
    assert document["processes_left_behind"] == 0
    (record,) = report.per_sample()
    return record


def test_platform_isolates_everything_it_claims() -> None:
    isolation = probe()
    assert isolation.backend == "unshare", isolation.error
    for feature in ("network", "filesystem", "processes", "process count", "environment"):
        assert feature in isolation.isolated


def test_good_and_wrong_samples() -> None:
    assert run_one(OK)["outcome"] == "passed"
    wrong = run_one("    return a - b\n")
    assert (wrong["outcome"], wrong["reason"]) == ("failed", "AssertionError")
    syntax = run_one("    return a +\n")
    assert syntax["outcome"] == "crashed" and "SyntaxError" in str(syntax["reason"])
    assert run_one(OK + "\nimport sys\nsys.exit(3)\n")["outcome"] == "crashed"
    killed = run_one(OK + "\nimport os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n")
    assert (killed["outcome"], killed["reason"]) == ("crashed", "killed by SIGSEGV")


def test_fork_bomb_hits_the_process_limit() -> None:
    record = run_one(OK + "\nimport os\nwhile True:\n    os.fork()\n")
    assert record["outcome"] == "crashed"
    assert "BlockingIOError" in str(record["reason"])


def test_infinite_loop_times_out() -> None:
    record = run_one("    while True:\n        pass\n")
    assert record["outcome"] == "timeout"


def test_cpu_limit_is_a_timeout() -> None:
    limits = Limits(timeout_seconds=20, cpu_seconds=1, address_space_bytes=512 << 20)
    record = run_one("    while True:\n        pass\n", limits)
    assert (record["outcome"], record["reason"]) == ("timeout", "CPU limit of 1 s")


def test_memory_bomb_and_configurable_address_space() -> None:
    bomb = run_one("    block = bytearray(64 * 2**30)\n    return a + b\n")
    assert (bomb["outcome"], bomb["reason"]) == ("memory", "MemoryError")
    sized = "    block = bytes(300 * 2**20)\n    return a + b\n"
    tight = Limits(timeout_seconds=3, cpu_seconds=2, address_space_bytes=256 << 20)
    assert run_one(sized, tight)["outcome"] == "memory"
    roomy = Limits(timeout_seconds=3, cpu_seconds=2, address_space_bytes=1 << 30)
    assert run_one(sized, roomy)["outcome"] == "passed"


def test_setsid_daemon_dies_with_the_run() -> None:
    daemon = OK + (
        "\nimport os, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
        "        time.sleep(60)\n    os._exit(0)\ntime.sleep(0.2)\n"
    )
    assert run_one(daemon)["outcome"] == "passed"  # run_one checks no process is left


def test_cannot_write_outside_its_directory() -> None:
    # A world-writable folder: only the read-only mount (not file permissions) stops it.
    world = Path(tempfile.mkdtemp(prefix="assay-test-world-"))
    try:
        os.chmod(world, 0o777)
        for target in (world / "escaped.txt", Path(tempfile.gettempdir()) / "assay-escape.txt"):
            record = run_one(OK + f"\nopen({str(target)!r}, 'w').write('x')\n")
            assert record["outcome"] == "crashed"
            assert "Read-only file system" in str(record["reason"])
            assert not target.exists()
    finally:
        world.rmdir()
    inside = run_one(OK + "\nopen('mine.txt', 'w').write('x' * 100)\nimport os\n"
                     "assert os.listdir('.') == ['mine.txt']\n")  # fmt: skip
    assert inside["outcome"] == "passed"


def test_parent_environment_secrets_are_out_of_reach(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASSAY_TEST_SECRET", "hunter2")
    search = OK + (
        "\nimport os\nfound = [v for v in os.environ.values() if 'hunter2' in v]\n"
        "for pid in [p for p in os.listdir('/proc') if p.isdigit()]:\n"
        "    try:\n        data = open(f'/proc/{pid}/environ', 'rb').read()\n"
        "    except OSError:\n        continue\n"
        "    if b'hunter2' in data:\n        found.append(pid)\n"
        "assert found, 'no secret in reach'\n"
    )
    record = run_one(search)
    assert (record["outcome"], record["reason"]) == ("failed", "AssertionError: no secret in reach")


@pytest.fixture
def loopback_server() -> Iterator[tuple[int, list[bytes]]]:
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    received: list[bytes] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            with conn:
                received.append(conn.recv(100))

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1], received
    stop.set()
    thread.join()
    server.close()


def test_no_network_to_loopback(loopback_server: tuple[int, list[bytes]]) -> None:
    port, received = loopback_server
    probe_self = socket.create_connection(("127.0.0.1", port))  # the server does answer us
    probe_self.sendall(b"outside")
    probe_self.close()
    record = run_one(OK + f"\nimport socket\nsocket.create_connection(('127.0.0.1', {port}), "
                     "timeout=2).sendall(b'inside')\n")  # fmt: skip
    assert record["outcome"] == "crashed"
    assert "Network is unreachable" in str(record["reason"])
    assert b"inside" not in received


def test_stdout_flood_is_capped() -> None:
    record = run_one(OK + "\nimport sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n")
    assert record["outcome"] == "timeout"
    assert record["stdout_truncated"] is True
    assert record["stdout"] == "x" * 4096
    assert int(record["stdout_bytes"]) > 4096  # type: ignore[call-overload]
    big = run_one(OK + "\nprint('y' * 100_000)\n")
    assert big["outcome"] == "passed" and big["stdout_bytes"] == 100_001
    assert len(str(big["stdout"])) == 4096 and big["stdout_truncated"] is True

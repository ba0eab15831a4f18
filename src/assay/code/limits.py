"""Resource limits of one sandboxed run, with stated defaults."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from assay.errors import InvalidOptionError

GIB = 1 << 30
MIB = 1 << 20


@dataclass(frozen=True, slots=True)
class Limits:
    """What one program may use. Every field is recorded in the report.

    Attributes:
        timeout_seconds: wall-clock limit, sandbox start-up included (default 10).
        cpu_seconds: CPU-time limit (``RLIMIT_CPU``; default 10).
        address_space_bytes: virtual memory limit (``RLIMIT_AS``; default 2 GiB).
        file_size_bytes: largest file the program may write (``RLIMIT_FSIZE``; default 16 MiB).
        open_files: open file descriptors (``RLIMIT_NOFILE``; default 64).
        processes: processes and threads (pids cgroup and ``RLIMIT_NPROC``; default 32).
        output_bytes: stdout and stderr kept, each (default 64 KiB; the rest is counted
            and dropped, and the record says it was truncated).
    """

    timeout_seconds: float = 10.0
    cpu_seconds: int = 10
    address_space_bytes: int = 2 * GIB
    file_size_bytes: int = 16 * MIB
    open_files: int = 64
    processes: int = 32
    output_bytes: int = 64 * 1024

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise InvalidOptionError(
                    f"limit {name} must be a positive number, got {value!r}; give e.g. "
                    f"{getattr(Limits(), name)!r}"
                )
        if self.processes < 2 or self.open_files < 8:
            raise InvalidOptionError(
                "limits processes >= 2 and open_files >= 8 are needed to start an interpreter; "
                "raise them"
            )

    def rlimits(self) -> dict[str, int]:
        """The integer limits the sandbox's init process applies."""
        return {
            "cpu_seconds": int(self.cpu_seconds),
            "address_space_bytes": int(self.address_space_bytes),
            "file_size_bytes": int(self.file_size_bytes),
            "open_files": int(self.open_files),
            "processes": int(self.processes),
        }

    def to_dict(self) -> dict[str, float | int]:
        """The canonical JSON form."""
        return asdict(self)

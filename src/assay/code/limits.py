"""Resource limits of one sandboxed run, with stated defaults."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from assay.errors import InvalidOptionError

GIB = 1 << 30
MIB = 1 << 20
DAY = 86_400

# The range of each limit: (smallest, largest, what a value is). Beyond the largest a value
# is a mistake (a day per sample, more memory than a 64-bit address space gives a program,
# more processes than Linux's pid_max allows, more output than assay should hold in memory),
# or one the kernel cannot take (RLIMIT values, pids.max): refused, never run.
RANGES: dict[str, tuple[float, float, str]] = {
    "timeout_seconds": (0.1, DAY, "seconds"),
    "cpu_seconds": (1, DAY, "seconds"),
    "address_space_bytes": (MIB, 1 << 47, "bytes"),
    "file_size_bytes": (1, 1 << 47, "bytes"),
    "open_files": (8, 1 << 20, "descriptors"),
    "processes": (2, 1 << 22, "processes"),
    "output_bytes": (1, GIB, "bytes"),
}
WHOLE = frozenset(RANGES) - {"timeout_seconds"}


def _shown(value: float, unit: str) -> str:
    sizes = ((1 << 40, "TiB"), (GIB, "GiB"), (MIB, "MiB"), (1 << 10, "KiB"))
    for size, name in sizes if unit == "bytes" else ():
        if value >= size and value % size == 0:
            return f"{int(value // size)}{name}"
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def check_limit(
    name: str, value: object, label: str | None = None, given: str | None = None
) -> None:
    """Refuse a limit outside its range in :data:`RANGES`.

    Also a value that is not a number, or a fraction where a whole number is needed. The
    message names ``label`` (the CLI option; default ``limit NAME``) and the value as
    ``given`` (the option's text; default the value's repr).

    Raises:
        InvalidOptionError: the one-line refusal with the range.
    """
    low, high, unit = RANGES[name]
    whole = name in WHOLE
    fits = (
        not isinstance(value, bool) and isinstance(value, (int, float))
        and (isinstance(value, int) or not whole)
        and low <= value <= high  # False for nan
    )  # fmt: skip
    if not fits:
        kind = "a whole number" if whole else "a number"
        raise InvalidOptionError(
            f"{label or 'limit ' + name} must be {kind} of {unit} from {_shown(low, unit)} to "
            f"{_shown(high, unit)}, got {given if given is not None else repr(value)}; give e.g. "
            f"{_shown(getattr(Limits(), name), unit)}"
        )


@dataclass(frozen=True, slots=True)
class Limits:
    """What one program may use. Every field is recorded in the report.

    Each is checked against its range (:data:`RANGES`; e.g. a timeout from 0.1 s to a day,
    processes from 2, which an interpreter needs, to 2**22).

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
            check_limit(name, value)

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

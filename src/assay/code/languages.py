"""Languages the runner can execute: each one a row (an interpreter command and two patterns).

A row says how to find the interpreter, how to call it on a program file, and how to
read its failure: the last non-blank line of stderr tells a test assertion (``failed``)
and an exhausted memory limit (``memory``) apart from any other error (``crashed``).
Adding a language is adding a row; a row whose interpreter is not on the machine is
not offered.
"""

from __future__ import annotations

import os
import shutil
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

import regex

from assay.errors import InvalidOptionError

# Only these directories are searched: the sandbox sees a scrubbed environment.
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"


@dataclass(frozen=True, slots=True)
class Language:
    """One executable language.

    Attributes:
        name: the ``language`` value in a problems file.
        suffix: the program file's suffix.
        interpreters: candidate interpreter names or paths, first usable wins.
        arguments: arguments before the program path.
        failed: pattern on stderr's last line that means a test assertion failed.
        memory: pattern on stderr's last line that means memory ran out.
        scope: where the patterns look: ``last-line`` (the last non-blank line of
            stderr, where Python prints the final exception) or ``tail`` (the kept end
            of stderr, for runtimes that print more after the error).
        env: variables the interpreter gets beside the scrubbed base environment
            (Python: ``PYTHONHASHSEED=0``, so set order does not vary between runs).
        error: pattern of the line shown as a crash's reason (first match in scope).
    """

    name: str
    suffix: str
    interpreters: tuple[str, ...]
    arguments: tuple[str, ...]
    failed: str
    memory: str
    scope: str = "last-line"
    env: tuple[tuple[str, str], ...] = ()
    error: str = r"\S"


LANGUAGES: dict[str, Language] = {
    "python": Language(
        name="python",
        suffix=".py",
        interpreters=("@current", "python3"),
        arguments=("-s", "-B"),
        env=(("PYTHONHASHSEED", "0"),),
        failed=r"^AssertionError\b",
        memory=r"^MemoryError\b",
    ),
    "javascript": Language(
        name="javascript",
        suffix=".js",
        interpreters=("node", "nodejs"),
        arguments=("--max-old-space-size=256",),
        failed=r"^AssertionError\b|ERR_ASSERTION",
        memory=r"heap out of memory|Allocation failed|Fatal process OOM",
        scope="tail",
        error=r"^[A-Z]\w*(Error|Exception)\b",
    ),
}


def reachable_by_others(path: Path) -> bool:
    """Whether a user who owns nothing can execute ``path`` (every folder o+x, file o+rx)."""
    real = path.resolve()
    try:
        mode = real.stat().st_mode
        if not (mode & stat.S_IROTH and mode & stat.S_IXOTH):
            return False
        return all(parent.stat().st_mode & stat.S_IXOTH for parent in real.parents)
    except OSError:
        return False


def _candidates(language: Language) -> list[Path]:
    found: list[Path] = []
    for name in language.interpreters:
        if name == "@current":
            base = getattr(sys, "_base_executable", None) or sys.executable
            found.append(Path(base))
            continue
        where = shutil.which(name, path=SYSTEM_PATH)
        if where:
            found.append(Path(where))
    return found


def interpreter(language: Language, *, for_other_user: bool) -> Path | None:
    """The interpreter to run, resolved to a real path, or ``None`` when absent.

    Args:
        language: the row.
        for_other_user: the program runs as an unprivileged uid, so the interpreter
            must be executable by a user who owns nothing.
    """
    for candidate in _candidates(language):
        real = candidate.resolve()
        if not real.is_file() or not os.access(real, os.X_OK):
            continue
        if for_other_user and not reachable_by_others(real):
            continue
        return real
    return None


def get_language(name: str) -> Language:
    """The row for ``name``.

    Raises:
        InvalidOptionError: an unknown language.
    """
    try:
        return LANGUAGES[name]
    except KeyError:
        known = ", ".join(sorted(LANGUAGES))
        raise InvalidOptionError(f"unknown language {name!r}; known languages: {known}") from None


def last_line(text: str) -> str:
    """The last non-blank line of ``text`` (stripped), or ``""``."""
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def matching_line(language: Language, pattern: str, stderr_tail: str) -> str | None:
    """The line of the language's ``scope`` of ``stderr_tail`` that ``pattern`` matches."""
    if language.scope == "last-line":
        lines = [last_line(stderr_tail)]
    else:
        lines = [line.strip() for line in stderr_tail.splitlines()]
    for line in lines:
        if regex.search(pattern, line) is not None:
            return line
    return None

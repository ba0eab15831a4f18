r"""User regular expressions in the ECMA-262 dialect, run with a time limit.

JSON Schema writes ``pattern`` and ``patternProperties`` in the ECMA-262 dialect
(with the ``u`` flag). They are run with the `regex` package, never Python's
``re``: it has Unicode property classes (``\p{Letter}``, ``\p{Script=Greek}``)
and a ``timeout``. Each pattern is translated once, then cached:

* ``\d``, ``\w``, ``\b`` and their negations are ASCII-only, as in ECMA-262 (inside a
  character class ``\D`` and ``\W`` keep the Unicode meaning: a known difference);
* ``\s``/``\S`` are ECMA whitespace (Unicode spaces, line terminators, U+FEFF);
* ``.`` matches anything but a line terminator (``\n``, ``\r``, U+2028, U+2029);
* ``$`` matches only at the very end (Python's ``$`` also matches before a final ``\n``);
* ``\u{...}`` code point escapes, ``\k<name>`` back references, ``[]`` and ``[^]``.

A search that runs past its time limit raises :class:`PatternTimeout` (reported as
the FORMAT reason ``schema.pattern_timeout``, never a hang). A pattern that does
not compile raises :class:`PatternError`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import regex

DEFAULT_TIMEOUT = 0.5  # seconds for one search of one user pattern (regex's timeout)

_WHITESPACE = (
    "\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
)
_DOT = "[^\\n\\r\\u2028\\u2029]"
_WORD = "A-Za-z0-9_"
_OUTSIDE = {
    "s": f"[{_WHITESPACE}]",
    "S": f"[^{_WHITESPACE}]",
    "d": "[0-9]",
    "D": "[^0-9]",
    "w": f"[{_WORD}]",
    "W": f"[^{_WORD}]",
    "b": f"(?:(?<=[{_WORD}])(?![{_WORD}])|(?<![{_WORD}])(?=[{_WORD}]))",
    "B": f"(?:(?<=[{_WORD}])(?=[{_WORD}])|(?<![{_WORD}])(?![{_WORD}]))",
}
_INSIDE = {"s": _WHITESPACE, "d": "0-9", "w": _WORD, "b": "\\x08"}


class PatternTimeout(Exception):  # noqa: N818 - a timeout, not an error of the input
    """A user pattern ran past its time limit."""

    def __init__(self, pattern: str, timeout: float) -> None:
        super().__init__(f"pattern {pattern!r} ran past its {timeout:g} s time limit")
        self.pattern = pattern
        self.timeout = timeout


class PatternError(ValueError):
    """A user pattern that is not a valid regular expression."""


def translate(pattern: str) -> str:
    """The `regex`-package spelling of an ECMA-262 ``pattern`` (see the module docstring)."""
    out: list[str] = []
    i, in_class = 0, False
    while i < len(pattern):
        char = pattern[i]
        if char == "\\" and i + 1 < len(pattern):
            piece, i = _escape(pattern, i, in_class)
            out.append(piece)
            continue
        if in_class:
            if char == "]":
                in_class = False
            elif char == "[":
                char = "\\["
            out.append(char)
        elif char == "[":
            piece, i, in_class = _open_class(pattern, i)
            out.append(piece)
            continue
        elif char == "(" and pattern.startswith("?", i + 1):
            _check_group(pattern, i)
            out.append(char)
        else:
            out.append({".": _DOT, "$": "\\Z"}.get(char, char))
        i += 1
    return "".join(out)


_GROUP_OPENERS = ("(?:", "(?=", "(?!", "(?<=", "(?<!")


def _check_group(pattern: str, i: int) -> None:
    """ECMA-262 groups only: no inline flags, comments or Python's ``(?P...)`` spelling."""
    if pattern.startswith(_GROUP_OPENERS, i):
        return
    if pattern.startswith("(?<", i) and pattern.find(">", i) > i + 3:
        return
    raise PatternError(
        f"pattern {pattern!r}: {pattern[i : i + 4]!r} at character {i + 1} is not ECMA-262 "
        "group syntax"
    )


def _open_class(pattern: str, i: int) -> tuple[str, int, bool]:
    """A ``[`` outside a class: ``[]`` matches nothing, ``[^]`` anything, else a class opens."""
    if pattern.startswith("[]", i):
        return "(?!)", i + 2, False
    if pattern.startswith("[^]", i):
        return "[\\s\\S]", i + 3, False
    if pattern.startswith("[^", i):
        return "[^", i + 2, True
    return "[", i + 1, True


def _escape(pattern: str, i: int, in_class: bool) -> tuple[str, int]:
    r"""The escape starting at ``pattern[i] == '\'`` and the index after it."""
    letter = pattern[i + 1]
    if not in_class and letter in _OUTSIDE:
        return _OUTSIDE[letter], i + 2
    if in_class and letter in _INSIDE:
        return _INSIDE[letter], i + 2
    if letter == "u" and pattern.startswith("{", i + 2):
        end = pattern.find("}", i + 3)
        if end != -1:
            digits = pattern[i + 3 : end]
            if digits and all(c in "0123456789abcdefABCDEF" for c in digits):
                return f"\\U{int(digits, 16):08x}", end + 1
    if letter == "k" and pattern.startswith("<", i + 2) and not in_class:
        end = pattern.find(">", i + 3)
        if end != -1:
            return f"(?P={pattern[i + 3 : end]})", end + 1
    if letter == "c" and i + 2 < len(pattern) and pattern[i + 2].isascii():
        if pattern[i + 2].isalpha():
            return f"\\x{ord(pattern[i + 2]) % 32:02x}", i + 3
    if letter.isascii() and letter.isalnum() and letter not in _LETTER_ESCAPES:
        raise PatternError(
            f"pattern {pattern!r}: \\{letter} at character {i + 1} is not an ECMA-262 escape"
        )
    if letter == "/":
        return "/", i + 2
    return pattern[i : i + 2], i + 2


# ECMA-262 escapes spelled with a letter or digit (anything else is not one)
_LETTER_ESCAPES = frozenset("bBdDfnrtvwWxupPk0123456789")


@lru_cache(maxsize=4096)
def compile_pattern(pattern: str) -> Any:
    """The compiled, translated ``pattern`` (cached).

    Raises:
        PatternError: the pattern does not compile.
    """
    try:
        return regex.compile(translate(pattern))
    except PatternError:
        raise
    except (regex.error, ValueError, OverflowError, RecursionError) as exc:
        raise PatternError(
            f"pattern {pattern!r} is not a valid regular expression: {exc}"
        ) from None


def search(pattern: str, text: str, timeout: float = DEFAULT_TIMEOUT) -> bool:
    """Whether ``pattern`` (ECMA-262) matches anywhere in ``text``, within ``timeout`` seconds.

    Raises:
        PatternTimeout: the search ran past ``timeout``.
        PatternError: the pattern does not compile.
    """
    compiled = compile_pattern(pattern)
    try:
        return compiled.search(text, timeout=timeout) is not None
    except TimeoutError:
        raise PatternTimeout(pattern, timeout) from None

"""The exception hierarchy of assay.

Every error assay raises on purpose derives from :class:`AssayError`, and every
message names the input that was wrong and what to do about it::

    AssayError
    ├── UnknownNameError (ValueError)          an unknown registry name; suggests close ones
    │   ├── UnknownMetricError
    │   ├── UnknownTokenizerError
    │   └── UnknownNormalizerError
    ├── InvalidOptionError (ValueError)        an option a metric does not take, or a bad value
    ├── InvalidInputError (ValueError)         a prediction/target that cannot be scored
    │   └── InvalidTypeError (TypeError)       ... because it has the wrong type
    ├── InputFileError (ValueError)            a file that cannot be read: names file, line, field
    │   └── OutputFileError                    a file that cannot be written: names file, option
    ├── MissingExtraError (ImportError)        an optional package is absent: names the extra
    ├── JudgeUnreachableError                  every judged item failed for one transport reason
    └── AccountingError (RuntimeError)         buckets that do not sum to their total (a bug)

The CLI maps each class to an exit code in one table (``assay.cli.main``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # annotations only: pathlib costs start-up time
    from pathlib import Path


def _rebuild(kind: type[AssayError], args: tuple[Any, ...], state: dict[str, Any]) -> AssayError:
    error = kind.__new__(kind)
    Exception.__init__(error, *args)
    error.__dict__.update(state)
    return error


class AssayError(Exception):
    """Root of all errors raised by assay on purpose.

    Errors pickle with their attributes (``path``, ``line``, ...), so an error raised
    on a Dask worker reaches the client as the same one-line message.
    """

    def __reduce__(self) -> tuple[Any, ...]:
        """Rebuild without calling the subclass ``__init__`` (whose signatures differ)."""
        return (_rebuild, (type(self), self.args, dict(self.__dict__)))


class UnknownNameError(AssayError, ValueError):
    """A name that is not in one of assay's registries."""

    kind = "name"

    def __init__(self, name: str, known: Iterable[str]) -> None:
        self.name = name
        self.known = sorted(known)
        import difflib  # only when a name is unknown

        close = difflib.get_close_matches(str(name), self.known, n=3, cutoff=0.5)
        self.suggestions = close
        hint = f" Did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        super().__init__(
            f"unknown {self.kind} {name!r}.{hint} Known {self.kind}s: {', '.join(self.known)}."
        )


class UnknownMetricError(UnknownNameError):
    """A metric name that is not registered."""

    kind = "metric"


class UnknownTokenizerError(UnknownNameError):
    """A tokenizer name that is not registered."""

    kind = "tokenizer"


class UnknownNormalizerError(UnknownNameError):
    """A normalizer name that is not registered."""

    kind = "normalizer"


class InvalidOptionError(AssayError, ValueError):
    """An option a metric does not accept, or an option value out of range."""


class InvalidInputError(AssayError, ValueError):
    """A prediction or target that cannot be scored (for example an empty targets list)."""


class InvalidTypeError(InvalidInputError, TypeError):
    """A prediction or target of the wrong type (for example a number instead of a string)."""


class InputFileError(AssayError, ValueError):
    """A file that cannot be read as expected.

    Attributes:
        path: the file.
        line: 1-based line number, or ``None`` when the problem concerns the whole file.
        field: the offending field, or ``None``.
        problem: what is wrong, and what to do about it.
    """

    def __init__(
        self,
        path: str | Path,
        problem: str,
        *,
        line: int | None = None,
        field: str | None = None,
    ) -> None:
        self.path = str(path)
        self.line = line
        self.field = field
        self.problem = problem
        where = self.path if line is None else f"{self.path}:{line}"
        what = f" field {field!r}:" if field else ""
        super().__init__(f"{where}:{what} {problem}")


class OutputFileError(InputFileError):
    """A file that cannot be written (``field`` names the option that asked for it)."""


class CoverageWarning(UserWarning):
    """Predictions that leave much of the gold unscored.

    Few gold ids matched, or rows without a prediction field: :func:`assay.evaluate`
    issues one per warning line it also returns in ``EvaluationResult.warnings`` (the
    CLI prints those instead).
    """


class AccountingError(AssayError, RuntimeError):
    """An accounting identity failed: buckets do not sum to their total (a bug, not user error)."""


class JudgeUnreachableError(AssayError):
    """Every item an LLM judge was asked about failed for one and the same transport reason.

    (The endpoint is unreachable, or refuses every request: a wrong URL, key or model.)
    The report is written first, as evidence; the command then exits with code 4.
    """


class MissingExtraError(AssayError, ImportError):
    """An optional integration whose package is not installed; the message gives the install."""

    def __init__(self, what: str, package: str, extra: str) -> None:
        self.package = package
        self.extra = extra
        super().__init__(
            f"{what}: the optional package {package!r} is not installed; "
            f"install it with: pip install 'assay[{extra}]'"
        )

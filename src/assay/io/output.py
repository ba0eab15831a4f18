"""Writing output files with errors that name the file, the option and the fix."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from assay.errors import OutputFileError


def _blocking_file(target: Path) -> Path | None:
    """The nearest ancestor of ``target`` that exists but is not a folder, if any."""
    for parent in target.parents:
        if parent.exists():
            return None if parent.is_dir() else parent
    return None


def check_output_path(path: str | Path, option: str | None = None) -> Path:
    """Refuse an output path that is a folder or lies under a file, before writing.

    Raises:
        OutputFileError: naming the path, the option and what to do.
    """
    target = Path(path)
    if target.is_dir():
        raise OutputFileError(target, "is a folder; give a file path", field=option)
    blocker = _blocking_file(target)
    if blocker is not None:
        raise OutputFileError(
            target, f"cannot create folder {blocker}: it is a file; choose another path",
            field=option,
        )  # fmt: skip
    return target


def write_file(
    path: str | Path,
    text: str,
    *,
    option: str | None = None,
    newline: str = "",
    errors: str = "backslashreplace",
) -> Path:
    """Write ``text`` as UTF-8 to ``path``, creating missing parent folders.

    A lone surrogate (valid in a JSON string escape, so possible in any input) is
    written as its backslash escape: JSON reads it back as the same character, and
    CSV/HTML/Markdown show it visibly, instead of failing the whole write.

    Args:
        path: the file to write.
        text: its content.
        option: the CLI option that named the file (for the message), or ``None``.
        newline: passed to :func:`open` (``""`` keeps line ends as given).
        errors: the encoder's error handler (default: ``backslashreplace``).

    Raises:
        OutputFileError: the path is a folder, a parent is a file, or the file cannot
            be written (permissions, full disk, ...).
    """
    target = check_output_path(path, option)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "w", encoding="utf-8", newline=newline, errors=errors) as handle:
            handle.write(text)
    except OSError as exc:
        raise OutputFileError(
            target,
            f"cannot write ({exc.strerror or exc}); check that the folder is writable",
            field=option,
        ) from None
    return target


def refuse_overwriting_inputs(
    outputs: Mapping[str, str | Path | None], inputs: Iterable[str | Path]
) -> None:
    """Refuse output paths that name an input file, or the same file twice.

    Args:
        outputs: option name → the path it asks to write (``None``: not asked).
        inputs: the files the command reads.

    Raises:
        OutputFileError: an output would overwrite an input or another output.
    """
    taken = {Path(p).resolve(): "an input file" for p in inputs}
    for option, path in outputs.items():
        if path is None:
            continue
        key = Path(path).resolve()
        if key in taken:
            raise OutputFileError(
                path,
                f"is also {taken[key]}; writing it would destroy that file, choose another path",
                field=option,
            )
        taken[key] = f"the file of {option}"

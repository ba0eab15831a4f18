"""The FORMAT contract: a JSON Schema (Draft 2020-12) checked before anything is scored.

The schema is validated with ``Draft202012Validator.check_schema`` when loaded; an
invalid contract raises :class:`~assay.errors.InputFileError` naming the file and
the schema location. Instances are validated with an explicit ``FormatChecker``,
so ``format`` keywords such as ``date`` are asserted (Draft 2020-12 makes them
annotations only unless a checker is given). Each violation becomes a
:class:`FieldError` with the JSON pointer of the offending field and the reason
code ``schema.<keyword>``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from assay.errors import InputFileError


def jsonschema_version() -> str:
    """The installed ``jsonschema`` version (recorded in every structured report)."""
    return metadata.version("jsonschema")


def json_pointer(parts: Iterable[str | int]) -> str:
    """RFC 6901 pointer for a path (``~`` → ``~0``, ``/`` → ``~1``); ``""`` is the root."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def field_name(parts: Iterable[str | int]) -> str:
    """A field label for counting: the pointer with array indices replaced by ``*``."""
    generic = ["*" if isinstance(p, int) else p for p in parts]
    return json_pointer(generic) or "/"


@dataclass(frozen=True, slots=True, order=True)
class FieldError:
    """One schema violation.

    Attributes:
        pointer: JSON pointer of the offending field in the response (``""`` = root).
        keyword: reason code, ``schema.<keyword>`` (for example ``schema.required``).
        field: the pointer with array indices as ``*`` (groups errors across items).
        message: jsonschema's message.
    """

    pointer: str
    keyword: str
    field: str
    message: str

    def to_dict(self) -> dict[str, str]:
        """Canonical JSON form."""
        return {
            "field": self.field,
            "keyword": self.keyword,
            "message": self.message,
            "pointer": self.pointer,
        }


@dataclass(frozen=True, slots=True)
class Contract:
    """A checked JSON Schema and a validator with an explicit format checker.

    Building one runs ``check_schema``; an invalid schema raises at once.

    Attributes:
        schema: the schema object.
        source: file name (or a label) the schema came from; named in errors.
        sha256: SHA-256 of the canonical JSON of the schema (computed).
        formats_asserted: ``format`` values in the schema that the checker asserts.
        formats_not_asserted: ``format`` values with no checker installed (annotations
            only; listed in the report so nobody assumes they were checked).

    Raises:
        InputFileError: the schema is not an object or not a valid Draft 2020-12 schema.
    """

    schema: dict[str, Any]
    source: str = "<schema>"
    sha256: str = field(default="", init=False)
    formats_asserted: tuple[str, ...] = field(default=(), init=False)
    formats_not_asserted: tuple[str, ...] = field(default=(), init=False)
    _validator: Any = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

        _check_schema(self.schema, self.source)
        checker = Draft202012Validator.FORMAT_CHECKER
        used = sorted(_formats_used(self.schema))
        canonical = json.dumps(self.schema, sort_keys=True, separators=(",", ":"))
        object.__setattr__(self, "sha256", hashlib.sha256(canonical.encode()).hexdigest())
        object.__setattr__(
            self, "formats_asserted", tuple(f for f in used if f in checker.checkers)
        )
        object.__setattr__(
            self, "formats_not_asserted", tuple(f for f in used if f not in checker.checkers)
        )
        validator = Draft202012Validator(self.schema, format_checker=checker)
        object.__setattr__(self, "_validator", validator)

    def check(self, instance: Any) -> tuple[FieldError, ...]:
        """All violations of ``instance``, sorted by (pointer, keyword, message).

        Raises:
            InputFileError: the schema has a ``$ref`` that cannot be resolved.
        """
        from referencing.exceptions import Unresolvable

        found: set[FieldError] = set()
        try:
            for error in self._validator.iter_errors(instance):
                found.update(_field_errors(error))
        except Unresolvable as exc:
            raise InputFileError(
                self.source,
                f"cannot resolve $ref ({exc}); inline the referenced schema under $defs",
                field="$ref",
            ) from None
        return tuple(sorted(found))

    def to_dict(self) -> dict[str, Any]:
        """Canonical JSON form (source, digest, draft, formats, jsonschema version)."""
        return {
            "draft": "2020-12",
            "format_checker": "jsonschema.Draft202012Validator.FORMAT_CHECKER",
            "formats_asserted": list(self.formats_asserted),
            "formats_not_asserted": list(self.formats_not_asserted),
            "jsonschema_version": jsonschema_version(),
            "sha256": self.sha256,
            "source": self.source,
        }


def _check_schema(schema: Any, source: str) -> None:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError  # type: ignore[import-untyped]

    if not isinstance(schema, dict):
        raise InputFileError(
            source, f"a contract must be a JSON object, got {type(schema).__name__}"
        )
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        where = json_pointer(exc.absolute_path) or "/"
        raise InputFileError(
            source,
            f"invalid JSON Schema (Draft 2020-12) at {where}: {exc.message}; fix the contract",
            field=where,
        ) from None


def _formats_used(schema: Any) -> set[str]:
    """Every string value of a ``format`` key anywhere in the schema."""
    if isinstance(schema, dict):
        found = {schema["format"]} if isinstance(schema.get("format"), str) else set()
        return found.union(*(_formats_used(v) for v in schema.values()))
    if isinstance(schema, list):
        return set().union(*(_formats_used(v) for v in schema))
    return set()


def contract_from_schema(schema: Any, source: str = "<schema>") -> Contract:
    """Check ``schema`` with ``check_schema`` and build a :class:`Contract`.

    Raises:
        InputFileError: the schema is not an object or is not a valid Draft 2020-12 schema.
    """
    return Contract(schema=schema, source=source)


def load_contract(path: str | Path) -> Contract:
    """Read a JSON Schema file and check it (see :func:`contract_from_schema`).

    Raises:
        InputFileError: the file cannot be read, is not JSON, or is not a valid schema.
    """
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise InputFileError(path, f"cannot open file ({exc.strerror}); check the path") from None
    except UnicodeDecodeError as exc:
        raise InputFileError(path, f"not UTF-8 text ({exc.reason}); re-encode as UTF-8") from None
    try:
        schema = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputFileError(
            path,
            f"invalid JSON ({exc.msg} at column {exc.colno}); fix the contract",
            line=exc.lineno,
        ) from None
    try:
        contract_from_schema(schema, source=str(path))  # errors name the full path
    except InputFileError as error:
        parts = _pointer_parts(error.field or "")
        raise InputFileError(
            path, error.problem, line=locate_line(text, parts), field=error.field
        ) from None
    return Contract(schema=schema, source=Path(path).name)


def _pointer_parts(pointer: str) -> list[str]:
    if pointer in ("", "/"):
        return []
    return [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]


def locate_line(text: str, keys: Sequence[str]) -> int | None:
    """Best-effort 1-based line of the last of ``keys`` (object keys, in order) in JSON ``text``.

    Each key is searched for as ``"key":`` after the previous one; purely numeric
    parts (array indices) are skipped. ``None`` when a key cannot be found.
    """
    position, found = 0, None
    for key in keys:
        if key.isdigit():
            continue
        match = re.compile(re.escape(json.dumps(key)) + r"\s*:").search(text, position)
        if match is None:
            return None
        position, found = match.end(), match.start()
    return None if found is None else text.count("\n", 0, found) + 1


def _field_errors(error: Any) -> list[FieldError]:
    """Expand one jsonschema error into field errors pointing at the field concerned.

    ``required`` errors point at the missing property and ``additionalProperties``
    errors at each extra property, rather than at their parent object.
    """
    path: list[str | int] = list(error.absolute_path)
    keyword = f"schema.{error.validator}"
    if error.validator == "required" and isinstance(error.instance, dict):
        missing = [p for p in error.validator_value if p not in error.instance]
        return [
            _make(path + [name], keyword, f"{name!r} is a required property") for name in missing
        ]
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        extras = _extra_properties(error.instance, error.schema)
        return [
            _make(path + [name], keyword, f"additional property {name!r} is not allowed")
            for name in extras
        ]
    return [_make(path, keyword, error.message)]


def _extra_properties(instance: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    """Properties of ``instance`` matched by neither ``properties`` nor ``patternProperties``."""
    declared = schema.get("properties", {})
    patterns = [re.compile(p) for p in schema.get("patternProperties", {})]
    return [
        name
        for name in instance
        if name not in declared and not any(p.search(name) for p in patterns)
    ]


def _make(path: Sequence[str | int], keyword: str, message: str) -> FieldError:
    return FieldError(
        pointer=json_pointer(path), keyword=keyword, field=field_name(path), message=message
    )

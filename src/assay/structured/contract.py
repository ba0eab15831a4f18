"""The FORMAT contract: a JSON Schema (Draft 2020-12) checked before anything is scored.

The schema file is read with the strict decoder every input uses (duplicate keys
and NaN refused). The schema may be an object or a boolean schema (``true`` /
``false``). It is validated with ``Draft202012Validator.check_schema`` when loaded,
every ``pattern`` is compiled (ECMA-262 dialect, :mod:`~assay.structured.ecma_regex`)
and every ``$ref`` is resolved inside the document, never fetched
(:mod:`~assay.structured.schema_refs`); an invalid contract raises
:class:`~assay.errors.InputFileError` naming the file, line and schema location.

Instances are validated with an explicit format checker
(:mod:`~assay.structured.schema_formats`), so ``format`` keywords such as ``date``
are asserted (Draft 2020-12 makes them annotations only unless a checker is given),
and with user patterns run under a time limit
(:mod:`~assay.structured.schema_keywords`). Each violation becomes a
:class:`FieldError` with the JSON pointer of the offending field and the reason
code ``schema.<keyword>`` (``schema.pattern_timeout`` for a pattern past its time
limit, ``nested_too_deep`` for a response too deep to validate).
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
from assay.io.jsonl import loads_strict
from assay.io.sources import display_name, open_source
from assay.structured.ecma_regex import DEFAULT_TIMEOUT, PatternError, compile_pattern
from assay.structured.schema_compiled import compile_schema
from assay.structured.schema_formats import format_checker
from assay.structured.schema_keywords import (
    RUN,
    TIMEOUT_KEYWORD,
    PatternRun,
    extra_properties,
    validator_class,
)
from assay.structured.schema_refs import check_refs, registry_for, subschemas

NESTED_TOO_DEEP = "nested_too_deep"


def jsonschema_version() -> str:
    """The installed ``jsonschema`` version (recorded in every structured report)."""
    return metadata.version("jsonschema")


def json_pointer(parts: Iterable[str | int]) -> str:
    """RFC 6901 pointer for a path (``~`` → ``~0``, ``/`` → ``~1``); ``""`` is the root."""
    names = [p if type(p) is str else str(p) for p in parts]
    if not names:
        return ""
    together = "".join(names)
    if "~" in together or "/" in together:
        names = [n.replace("~", "~0").replace("/", "~1") for n in names]
    return "/" + "/".join(names)


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

    Building one runs ``check_schema``, compiles every pattern and resolves every
    ``$ref`` (inside the document only); a bad schema raises at once.

    Attributes:
        schema: the schema: an object, or ``true``/``false`` (boolean schemas).
        source: file name (or a label) the schema came from; named in errors.
        pattern_timeout: time limit in seconds for one search of one user pattern.
        sha256: SHA-256 of the canonical JSON of the schema (computed).
        formats_asserted: ``format`` values in the schema that the checker asserts.
        formats_not_asserted: ``format`` values with no checker installed (annotations
            only; listed in the report so nobody assumes they were checked).

    Raises:
        InputFileError: the schema is not a valid Draft 2020-12 schema, a pattern
            does not compile, or a ``$ref`` points outside the document or loops.
    """

    schema: dict[str, Any] | bool
    source: str = "<schema>"
    pattern_timeout: float = DEFAULT_TIMEOUT
    sha256: str = field(default="", init=False)
    formats_asserted: tuple[str, ...] = field(default=(), init=False)
    formats_not_asserted: tuple[str, ...] = field(default=(), init=False)
    _validator: Any = field(default=None, init=False, compare=False, repr=False)
    _compiled: Any = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        _check_schema(self.schema, self.source)
        checker = format_checker()
        used = sorted(_formats_used(self.schema))
        canonical = json.dumps(self.schema, sort_keys=True, separators=(",", ":"))
        object.__setattr__(self, "sha256", hashlib.sha256(canonical.encode()).hexdigest())
        object.__setattr__(
            self, "formats_asserted", tuple(f for f in used if f in checker.checkers)
        )
        object.__setattr__(
            self, "formats_not_asserted", tuple(f for f in used if f not in checker.checkers)
        )
        validator = validator_class()(
            self.schema, format_checker=checker, registry=registry_for(self.schema)
        )
        object.__setattr__(self, "_validator", validator)
        object.__setattr__(self, "_compiled", compile_schema(self.schema, checker))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the inputs (the validator is rebuilt, and rechecked, where it is loaded)."""
        return (_rebuild, (self.schema, self.source, self.pattern_timeout))

    def check(self, instance: Any) -> tuple[FieldError, ...]:
        """All violations of ``instance``, sorted by (pointer, keyword, message).

        A pattern search past the time limit is a ``schema.pattern_timeout`` error
        (at the root when a ``not``/``anyOf`` swallowed it); a response nested too
        deeply to validate is one ``nested_too_deep`` error at the root.

        The schema's compiled form (:mod:`~assay.structured.schema_compiled`) gives the
        errors when it can; a schema it does not cover, or a check that met a pattern
        time limit or Python's recursion limit, is run through jsonschema instead.

        Raises:
            InputFileError: a ``$ref`` cannot be resolved (already refused at load).
        """
        if self._compiled is not None:
            found = self._check_compiled(instance)
            if found is not None:
                return found
        return self.check_with_jsonschema(instance)

    def _check_compiled(self, instance: Any) -> tuple[FieldError, ...] | None:
        run = PatternRun(timeout=self.pattern_timeout)
        token = RUN.set(run)
        try:
            raw = self._compiled(instance)
        except RecursionError:
            return None
        finally:
            RUN.reset(token)
        if run.timeouts:
            return None
        if not raw:
            return ()
        return tuple(sorted({_make(path, "schema." + kind, text) for path, kind, text in raw}))

    def check_with_jsonschema(self, instance: Any) -> tuple[FieldError, ...]:
        """:meth:`check` through jsonschema alone (the reference the compiled form is tested on).

        Raises:
            InputFileError: a ``$ref`` cannot be resolved (already refused at load).
        """
        from referencing.exceptions import Unresolvable

        run = PatternRun(timeout=self.pattern_timeout)
        token = RUN.set(run)
        found: set[FieldError] = set()
        try:
            for error in self._validator.iter_errors(instance):
                found.update(_field_errors(error))
        except Unresolvable as exc:  # refs are resolved at load; a safety net, not a path
            raise InputFileError(
                self.source, f"cannot resolve $ref ({exc}); inline it under $defs", field="$ref"
            ) from None
        except RecursionError:
            message = "the response is nested too deeply to validate; flatten it"
            return (_make([], NESTED_TOO_DEEP, message),)
        finally:
            RUN.reset(token)
        timeout_keyword = f"schema.{TIMEOUT_KEYWORD}"
        if run.timeouts and not any(e.keyword == timeout_keyword for e in found):
            found.add(_make([], timeout_keyword, str(run.timeouts[0])))
        return tuple(sorted(found))

    def to_dict(self) -> dict[str, Any]:
        """Canonical JSON form (source, digest, draft, formats, patterns, jsonschema version)."""
        return {
            "draft": "2020-12",
            "format_checker": "jsonschema.Draft202012Validator.FORMAT_CHECKER "
            "with assay email, uuid, regex",
            "formats_asserted": list(self.formats_asserted),
            "formats_not_asserted": list(self.formats_not_asserted),
            "jsonschema_version": jsonschema_version(),
            "pattern_dialect": "ECMA-262 via regex",
            "pattern_timeout_seconds": self.pattern_timeout,
            "ref_policy": "inside the schema document only; never fetched",
            "sha256": self.sha256,
            "source": self.source,
        }


def _rebuild(schema: Any, source: str, pattern_timeout: float) -> Contract:
    return Contract(schema=schema, source=source, pattern_timeout=pattern_timeout)


def _check_schema(schema: Any, source: str) -> None:
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
    from jsonschema.exceptions import SchemaError  # type: ignore[import-untyped]

    if not isinstance(schema, (dict, bool)):
        raise InputFileError(
            source,
            f"a contract must be a JSON object or true/false, got {type(schema).__name__}",
        )
    _check_patterns(schema, source)
    try:
        Draft202012Validator.check_schema(schema, format_checker=format_checker())
    except SchemaError as exc:
        where = json_pointer(exc.absolute_path) or "/"
        raise InputFileError(
            source,
            f"invalid JSON Schema (Draft 2020-12) at {where}: {exc.message}; fix the contract",
            field=where,
        ) from None
    except RecursionError:
        raise InputFileError(
            source, "the schema is nested too deeply to check; flatten it (use $defs)"
        ) from None
    check_refs(schema, source)


def _check_patterns(schema: Any, source: str) -> None:
    """Every ``pattern`` and ``patternProperties`` key must compile (ECMA-262 dialect)."""
    for pointer, sub in subschemas(schema):
        patterns = [(f"{pointer}/pattern", sub.get("pattern"))]
        if isinstance(sub.get("patternProperties"), dict):
            patterns += [(f"{pointer}/patternProperties", p) for p in sub["patternProperties"]]
        for where, pattern in patterns:
            if not isinstance(pattern, str):
                continue
            try:
                compile_pattern(pattern)
            except PatternError as exc:
                raise InputFileError(
                    source, f"{exc}; write an ECMA-262 regular expression", field=where
                ) from None


def _formats_used(schema: Any) -> set[str]:
    """Every string value of a ``format`` keyword in the schema's subschemas."""
    return {sub["format"] for _, sub in subschemas(schema) if isinstance(sub.get("format"), str)}


def contract_from_schema(
    schema: Any, source: str = "<schema>", *, pattern_timeout: float = DEFAULT_TIMEOUT
) -> Contract:
    """Check ``schema`` with ``check_schema`` and build a :class:`Contract`.

    Raises:
        InputFileError: the schema is not a valid Draft 2020-12 schema (see :class:`Contract`).
    """
    return Contract(schema=schema, source=source, pattern_timeout=pattern_timeout)


def load_contract(path: str | Path, *, pattern_timeout: float = DEFAULT_TIMEOUT) -> Contract:
    """Read a JSON Schema file with the strict decoder and check it.

    Duplicate keys and NaN/Infinity are refused, as in every other input. ``-`` is
    standard input; gzip/bz2/xz/zstd files are read decompressed, as every input is
    (:func:`assay.io.sources.open_source`).

    Raises:
        InputFileError: the file cannot be read, is not strict JSON, or is not a valid
            schema; the message names the file, line and field.
    """
    name = display_name(path)
    try:
        with open_source(path) as handle:
            text = handle.read().decode("utf-8-sig")
    except OSError as exc:
        raise InputFileError(name, f"cannot read file ({exc.strerror}); check the path") from None
    except UnicodeDecodeError as exc:
        raise InputFileError(name, f"not UTF-8 text ({exc.reason}); re-encode as UTF-8") from None
    path = name
    try:
        schema = loads_strict(text, path, None)
    except InputFileError as error:
        if error.line is not None or error.field is None:
            raise
        line = duplicate_key_line(text)
        raise InputFileError(path, error.problem, line=line, field=error.field) from None
    try:
        contract_from_schema(schema, source=str(path))  # errors name the full path
    except InputFileError as error:
        parts = _pointer_parts(error.field or "")
        raise InputFileError(
            path, error.problem, line=locate_line(text, parts), field=error.field
        ) from None
    return Contract(schema=schema, source=Path(path).name, pattern_timeout=pattern_timeout)


def _pointer_parts(pointer: str) -> list[str]:
    if pointer in ("", "/"):
        return []
    return [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)


def duplicate_key_line(text: str) -> int | None:
    """1-based line of the first key given twice in one object of JSON ``text`` (or ``None``).

    A small scan of the (already known to be well-formed up to there) text: a stack
    of the keys seen in each open object; strings right after ``{`` or ``,`` in an
    object are keys.
    """
    stack: list[set[str] | None] = []  # a set per open object, None per open array
    expect_key, position = False, 0
    while (match := re.compile(r'["{}\[\],]').search(text, position)) is not None:
        char, position = match.group(), match.end()
        if char == '"':
            literal = _STRING.match(text, match.start())
            if literal is None:
                return None
            position = literal.end()
            keys = stack[-1] if stack else None
            if expect_key and keys is not None:
                key = json.loads(literal.group())
                if key in keys:
                    return text.count("\n", 0, match.start()) + 1
                keys.add(key)
            expect_key = False
        elif char in "{[":
            stack.append(set() if char == "{" else None)
            expect_key = char == "{"
        elif char in "}]":
            if stack:
                stack.pop()
            expect_key = False
        else:
            expect_key = bool(stack) and stack[-1] is not None
    return None


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
    keyword = f"schema.{error.validator}" if error.validator is not None else "schema.false"
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
    return extra_properties(instance, schema)


def _make(path: Sequence[str | int], keyword: str, message: str) -> FieldError:
    return FieldError(
        pointer=json_pointer(path), keyword=keyword, field=field_name(path), message=message
    )

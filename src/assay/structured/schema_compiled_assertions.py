"""The assertion keywords of a compiled schema: one closure each, with jsonschema's messages.

:mod:`~assay.structured.schema_compiled` compiles a contract's schema into closures.
The keywords here are Draft 2020-12's validation vocabulary and ``format``: they test
the instance itself (``type``, ``enum``, ``const``, the numeric bounds and
``multipleOf``, the length and size limits, ``pattern``, ``required``,
``dependentRequired``, ``uniqueItems``) and compile no subschema, so their builders
read nothing of the compiler but its format checker. Each check appends the
``(path, keyword, message)`` jsonschema would report, in jsonschema's words. The JSON
Schema meaning of a type and of equality (``true`` is not ``1``, ``1`` is ``1.0``) is
:data:`TYPES` and :func:`json_equal`. ``minContains`` and ``maxContains`` are checked
with ``contains``, in the compiler.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from fractions import Fraction
from typing import Any, Protocol

from assay.structured.schema_keywords import pattern_matches

Path = tuple[str | int, ...]
RawError = tuple[Path, str, str]  # (path, keyword, message)
Node = Callable[[Any, Path, list[RawError]], None]


class Compiler(Protocol):
    """What an assertion's builder may read of the compiler: its format checker."""

    formats: Any


def _is_number(value: Any) -> bool:
    kind = type(value)
    if kind is int or kind is float:
        return True
    return not isinstance(value, bool) and isinstance(value, numbers.Number)


def _is_integer(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


TYPES: dict[str, Callable[[Any], bool]] = {
    "array": lambda v: isinstance(v, list),
    "boolean": lambda v: isinstance(v, bool),
    "integer": _is_integer,
    "null": lambda v: v is None,
    "number": _is_number,
    "object": lambda v: isinstance(v, dict),
    "string": lambda v: isinstance(v, str),
}


def json_equal(one: Any, two: Any) -> bool:
    """JSON Schema equality (``enum``, ``const``): ``true`` ≠ ``1`` and ``1`` = ``1.0``."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return bool(one == two)
    if isinstance(one, list) and isinstance(two, list):
        return len(one) == len(two) and all(map(json_equal, one, two))
    if isinstance(one, dict) and isinstance(two, dict):
        return len(one) == len(two) and all(
            k in two and json_equal(v, two[k]) for k, v in one.items()
        )
    if isinstance(one, bool) or isinstance(two, bool):
        return isinstance(one, bool) and isinstance(two, bool) and one == two
    if isinstance(one, (list, dict)) or isinstance(two, (list, dict)):
        return False
    return bool(one == two)


def _type(c: Compiler, types: Any, schema: dict[str, Any]) -> Node:
    names = [types] if isinstance(types, str) else list(types)
    tests = [TYPES[t] for t in names]
    reprs = ", ".join(repr(t) for t in names)

    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        for test in tests:
            if test(instance):
                return
        out.append((path, "type", f"{instance!r} is not of type {reprs}"))

    return check


def _enum(c: Compiler, enums: Any, schema: dict[str, Any]) -> Node:
    strings = {e for e in enums if isinstance(e, str)} if isinstance(enums, list) else set()
    only_strings = isinstance(enums, list) and len(strings) == len(enums)

    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        if only_strings and isinstance(instance, str):
            if instance in strings:
                return
        elif any(json_equal(each, instance) for each in enums):
            return
        out.append((path, "enum", f"{instance!r} is not one of {enums!r}"))

    return check


def _const(c: Compiler, const: Any, schema: dict[str, Any]) -> Node:
    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        if not json_equal(instance, const):
            out.append((path, "const", f"{const!r} was expected"))

    return check


def _required(c: Compiler, required: Any, schema: dict[str, Any]) -> Node:
    names = list(required)

    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        if isinstance(instance, dict):
            for name in names:
                if name not in instance:
                    out.append(((*path, name), "required", f"{name!r} is a required property"))

    return check


def _dependent_required(c: Compiler, dependencies: Any, schema: dict[str, Any]) -> Node:
    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        if isinstance(instance, dict):
            for name, needed in dependencies.items():
                if name in instance:
                    for each in needed:
                        if each not in instance:
                            out.append((path, "dependentRequired",
                                        f"{each!r} is a dependency of {name!r}"))  # fmt: skip

    return check


def _size(kind: Callable[[Any], bool], keyword: str, low: bool, one: str, many: str) -> Any:
    """``minLength``-style keywords: ``one`` for the limit 1 (low) or 0 (high), else ``many``."""

    def build(c: Compiler, limit: Any, schema: dict[str, Any]) -> Node:
        message = one if limit == (1 if low else 0) else many

        def check(instance: Any, path: Path, out: list[RawError]) -> None:
            if kind(instance) and (len(instance) < limit if low else len(instance) > limit):
                out.append((path, keyword, f"{instance!r} {message}"))

        return check

    return build


def _is_str(v: Any) -> bool:
    return isinstance(v, str)


def _is_list(v: Any) -> bool:
    return isinstance(v, list)


def _is_dict(v: Any) -> bool:
    return isinstance(v, dict)


def _bound(keyword: str, fails: Callable[[Any, Any], bool], text: str) -> Any:
    def build(c: Compiler, limit: Any, schema: dict[str, Any]) -> Node:
        def check(instance: Any, path: Path, out: list[RawError]) -> None:
            if _is_number(instance) and fails(instance, limit):
                out.append((path, keyword, f"{instance!r} {text} {limit!r}"))

        return check

    return build


def _multiple_of(c: Compiler, divisor: Any, schema: dict[str, Any]) -> Node:
    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        if not _is_number(instance):
            return
        if isinstance(divisor, float):
            quotient = instance / divisor
            try:
                failed = int(quotient) != quotient
            except OverflowError:
                failed = (Fraction(instance) / Fraction(divisor)).denominator != 1
        else:
            failed = bool(instance % divisor)
        if failed:
            out.append((path, "multipleOf", f"{instance!r} is not a multiple of {divisor}"))

    return check


def _pattern(c: Compiler, pattern: Any, schema: dict[str, Any]) -> Node:
    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        if isinstance(instance, str) and pattern_matches(pattern, instance) is False:
            out.append((path, "pattern", f"{instance!r} does not match {pattern!r}"))

    return check


def _format(c: Compiler, name: Any, schema: dict[str, Any]) -> Node | None:
    checker = c.formats
    if name not in checker.checkers:
        return None
    from jsonschema.exceptions import FormatError  # type: ignore[import-untyped]

    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        try:
            checker.check(instance, name)
        except FormatError as error:
            out.append((path, "format", error.message))

    return check


def _unique(c: Compiler, unique: Any, schema: dict[str, Any]) -> Node | None:
    if not unique:
        return None
    # jsonschema's own test (sorted neighbours, then pairs): it is the definition here
    from jsonschema._utils import uniq  # type: ignore[import-untyped]

    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        if isinstance(instance, list) and not uniq(instance):
            out.append((path, "uniqueItems", f"{instance!r} has non-unique elements"))

    return check


ASSERTIONS: dict[str, Callable[[Compiler, Any, dict[str, Any]], Node | None]] = {
    "const": _const,
    "dependentRequired": _dependent_required,
    "enum": _enum,
    "exclusiveMaximum": _bound("exclusiveMaximum", lambda i, m: i >= m,
                               "is greater than or equal to the maximum of"),
    "exclusiveMinimum": _bound("exclusiveMinimum", lambda i, m: i <= m,
                               "is less than or equal to the minimum of"),
    "format": _format,
    "maxItems": _size(_is_list, "maxItems", False, "is expected to be empty", "is too long"),
    "maxLength": _size(_is_str, "maxLength", False, "is expected to be empty", "is too long"),
    "maxProperties": _size(_is_dict, "maxProperties", False, "is expected to be empty",
                           "has too many properties"),
    "maximum": _bound("maximum", lambda i, m: i > m, "is greater than the maximum of"),
    "minItems": _size(_is_list, "minItems", True, "should be non-empty", "is too short"),
    "minLength": _size(_is_str, "minLength", True, "should be non-empty", "is too short"),
    "minProperties": _size(_is_dict, "minProperties", True, "should be non-empty",
                           "does not have enough properties"),
    "minimum": _bound("minimum", lambda i, m: i < m, "is less than the minimum of"),
    "multipleOf": _multiple_of,
    "pattern": _pattern,
    "required": _required,
    "type": _type,
    "uniqueItems": _unique,
}  # fmt: skip

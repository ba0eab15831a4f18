"""A contract's schema compiled once into Python closures: jsonschema's errors, without its cost.

jsonschema interprets the schema for every response (a validator object per
subschema, per instance). :func:`compile_schema` walks the schema once and builds one
closure per keyword; running them on a parsed response yields, for every keyword
assay's validator (:mod:`~assay.structured.schema_keywords`) would report, the same
``(path, keyword, message)`` — the path from the root, the keyword jsonschema names
the error after, and jsonschema's message text. The contract turns these into the
same :class:`~assay.structured.contract.FieldError` set as from jsonschema
(``tests/test_structured_compiled.py`` holds jsonschema as the oracle over the
official test suite and random responses).

It covers the Draft 2020-12 assertion and applicator keywords that do not depend on
annotations or dynamic scope. A schema using anything else — ``unevaluatedProperties``,
``unevaluatedItems``, ``$dynamicRef``, ``$anchor``/``$dynamicAnchor``, an embedded
``$id`` below the root, a ``$schema`` below the root or other than 2020-12, a ``$ref``
that is not a ``#`` JSON pointer into the document — is not compiled
(:func:`compile_schema` returns ``None``) and jsonschema validates it, as before. A
response whose check meets a pattern time limit, or that is nested deeper than
:data:`MAX_DEPTH`, is also left to jsonschema (the caller re-runs it there), so where
jsonschema runs out of stack (``nested_too_deep``) stays where it was.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from assay.structured.schema_keywords import _matches, extra_properties

Path = tuple[str | int, ...]
RawError = tuple[Path, str, str]  # (path, keyword, message)
Node = Callable[[Any, Path, list[RawError]], None]

#: Responses nested deeper are checked by jsonschema, whose own recursion limit (about 165
#: levels) then decides ``nested_too_deep`` exactly as before.
MAX_DEPTH = 32
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
UNSUPPORTED = frozenset(
    {"unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$dynamicAnchor", "$anchor",
     "$recursiveRef", "$recursiveAnchor"}
)  # fmt: skip


class Unsupported(Exception):  # noqa: N818 - a signal to leave the schema to jsonschema
    """The schema uses something this compiler does not reproduce exactly."""


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


def compile_schema(schema: Any, format_checker: Any) -> Callable[[Any], list[RawError]] | None:
    """The schema as a function ``instance -> [(path, keyword, message), ...]``, or ``None``.

    ``None`` means the schema uses something not reproduced here; validate with
    jsonschema instead. The function raises ``RecursionError`` on a response nested
    past Python's limit (the caller re-runs it through jsonschema).
    """
    try:
        _refuse_unsupported(schema)
        compiler = _Compiler(schema, format_checker)
        root = compiler.node(schema)
    except Unsupported:
        return None

    def check(instance: Any) -> list[RawError]:
        out: list[RawError] = []
        root(instance, (), out)
        return out

    return check


def _refuse_unsupported(schema: Any) -> None:
    from assay.structured.schema_refs import subschemas

    for pointer, sub in subschemas(schema):
        if UNSUPPORTED & sub.keys():
            raise Unsupported(pointer)
        if pointer and ("$id" in sub or "$schema" in sub):
            raise Unsupported(pointer)
        if not pointer and str(sub.get("$schema", DRAFT_2020_12)).rstrip("#") != DRAFT_2020_12:
            raise Unsupported("$schema")
        ref = sub.get("$ref")
        if ref is not None and (not isinstance(ref, str) or not ref.startswith("#") or "%" in ref):
            raise Unsupported(pointer)


class _Compiler:
    """Builds one closure per subschema (memoised, so recursive ``$ref`` works)."""

    def __init__(self, root: Any, format_checker: Any) -> None:
        self.root = root
        self.formats = format_checker
        self.done: dict[int, Node] = {}

    def node(self, schema: Any) -> Node:
        if schema is True:
            return _nothing
        if schema is False:
            return _false
        if not isinstance(schema, dict):
            raise Unsupported("not a schema")
        key = id(schema)
        if key in self.done:
            return self.done[key]
        slot: list[Node] = []
        self.done[key] = lambda i, p, o: slot[0](i, p, o)  # for recursive references
        checks = [c for c in (self._keyword(k, v, schema) for k, v in schema.items()) if c]
        compiled = _sequence(checks)
        slot.append(compiled)
        self.done[key] = compiled
        return compiled

    def _keyword(self, name: str, value: Any, schema: dict[str, Any]) -> Node | None:
        build = _BUILDERS.get(name)
        return None if build is None else build(self, value, schema)

    def resolve(self, ref: str) -> Any:
        target = self.root
        pointer = ref[1:]
        if pointer and not pointer.startswith("/"):
            raise Unsupported(ref)
        for part in pointer.split("/")[1:] if pointer else []:
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(target, dict) and part in target:
                target = target[part]
            elif isinstance(target, list) and part.isdigit() and int(part) < len(target):
                target = target[int(part)]
            else:
                raise Unsupported(ref)
        return target


def _nothing(instance: Any, path: Path, out: list[RawError]) -> None:
    return None


def _false(instance: Any, path: Path, out: list[RawError]) -> None:
    out.append((path, "false", f"False schema does not allow {instance!r}"))


def _sequence(checks: list[Node]) -> Node:
    if not checks:
        return _nothing
    if len(checks) == 1:
        return checks[0]

    def run(instance: Any, path: Path, out: list[RawError]) -> None:
        for check in checks:
            check(instance, path, out)

    return run


def _valid(node: Node, instance: Any, path: Path) -> bool:
    errors: list[RawError] = []
    node(instance, path, errors)
    return not errors


def _deeper(path: Path) -> None:
    """Refuse to descend past :data:`MAX_DEPTH` (jsonschema decides such responses)."""
    if len(path) >= MAX_DEPTH:
        raise RecursionError(f"deeper than {MAX_DEPTH} levels")


def _type(c: _Compiler, types: Any, schema: dict[str, Any]) -> Node:
    names = [types] if isinstance(types, str) else list(types)
    tests = [TYPES[t] for t in names]
    reprs = ", ".join(repr(t) for t in names)

    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        for test in tests:
            if test(instance):
                return
        out.append((path, "type", f"{instance!r} is not of type {reprs}"))

    return check


def _enum(c: _Compiler, enums: Any, schema: dict[str, Any]) -> Node:
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


def _const(c: _Compiler, const: Any, schema: dict[str, Any]) -> Node:
    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        if not json_equal(instance, const):
            out.append((path, "const", f"{const!r} was expected"))

    return check


def _properties(c: _Compiler, properties: Any, schema: dict[str, Any]) -> Node:
    pairs = [(name, c.node(sub)) for name, sub in properties.items()]

    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        if isinstance(instance, dict):
            _deeper(path)
            for name, node in pairs:
                if name in instance:
                    node(instance[name], (*path, name), out)

    return check


def _required(c: _Compiler, required: Any, schema: dict[str, Any]) -> Node:
    names = list(required)

    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        if isinstance(instance, dict):
            for name in names:
                if name not in instance:
                    out.append(((*path, name), "required", f"{name!r} is a required property"))

    return check


def _additional(c: _Compiler, additional: Any, schema: dict[str, Any]) -> Node | None:
    node = c.node(additional) if isinstance(additional, dict) else None
    if node is None and additional is not False:
        return None
    declared = schema.get("properties", {})
    plain = "patternProperties" not in schema

    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        if not isinstance(instance, dict):
            return
        if plain:
            extras = [k for k in instance if k not in declared]
        else:
            extras = extra_properties(instance, schema)
        _deeper(path)
        for key in extras:
            if node is not None:
                node(instance[key], (*path, key), out)
            else:
                out.append(((*path, key), "additionalProperties",
                            f"additional property {key!r} is not allowed"))  # fmt: skip

    return check


def _pattern_properties(c: _Compiler, patterns: Any, schema: dict[str, Any]) -> Node:
    pairs = [(pattern, c.node(sub)) for pattern, sub in patterns.items()]

    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        if isinstance(instance, dict):
            _deeper(path)
            for pattern, node in pairs:
                for key, value in instance.items():
                    if _matches(pattern, key):  # a timeout (None) is re-run by jsonschema
                        node(value, (*path, key), out)

    return check


def _property_names(c: _Compiler, names: Any, schema: dict[str, Any]) -> Node:
    node = c.node(names)

    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        if isinstance(instance, dict):
            for key in instance:
                node(key, path, out)

    return check


def _dependent_required(c: _Compiler, dependencies: Any, schema: dict[str, Any]) -> Node:
    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        if isinstance(instance, dict):
            for name, needed in dependencies.items():
                if name in instance:
                    for each in needed:
                        if each not in instance:
                            out.append((path, "dependentRequired",
                                        f"{each!r} is a dependency of {name!r}"))  # fmt: skip

    return check


def _dependent_schemas(c: _Compiler, dependencies: Any, schema: dict[str, Any]) -> Node:
    pairs = [(name, c.node(sub)) for name, sub in dependencies.items()]

    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        if isinstance(instance, dict):
            _deeper(path)
            for name, node in pairs:
                if name in instance:
                    node(instance, path, out)

    return check


def _size(kind: Callable[[Any], bool], keyword: str, low: bool, one: str, many: str) -> Any:
    """``minLength``-style keywords: ``one`` for the limit 1 (low) or 0 (high), else ``many``."""

    def build(c: _Compiler, limit: Any, schema: dict[str, Any]) -> Node:
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
    def build(c: _Compiler, limit: Any, schema: dict[str, Any]) -> Node:
        def check(instance: Any, path: Path, out: list[RawError]) -> None:
            if _is_number(instance) and fails(instance, limit):
                out.append((path, keyword, f"{instance!r} {text} {limit!r}"))

        return check

    return build


def _multiple_of(c: _Compiler, divisor: Any, schema: dict[str, Any]) -> Node:
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


def _pattern(c: _Compiler, pattern: Any, schema: dict[str, Any]) -> Node:
    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        if isinstance(instance, str) and _matches(pattern, instance) is False:
            out.append((path, "pattern", f"{instance!r} does not match {pattern!r}"))

    return check


def _format(c: _Compiler, name: Any, schema: dict[str, Any]) -> Node | None:
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


def _items(c: _Compiler, items: Any, schema: dict[str, Any]) -> Node:
    prefix = len(schema.get("prefixItems", []))
    node = c.node(items)

    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        if not isinstance(instance, list) or len(instance) <= prefix:
            return
        extra = len(instance) - prefix
        if items is False:
            rest = instance[prefix:] if extra != 1 else instance[prefix]
            noun = "items" if prefix != 1 else "item"
            message = f"Expected at most {prefix} {noun} but found {extra} extra: {rest!r}"
            out.append((path, "items", message))
            return
        _deeper(path)
        for index in range(prefix, len(instance)):
            node(instance[index], (*path, index), out)

    return check


def _prefix_items(c: _Compiler, prefix: Any, schema: dict[str, Any]) -> Node:
    nodes = [c.node(sub) for sub in prefix]

    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        if isinstance(instance, list):
            _deeper(path)
            for index, (item, node) in enumerate(zip(instance, nodes, strict=False)):
                node(item, (*path, index), out)

    return check


def _contains(c: _Compiler, contains: Any, schema: dict[str, Any]) -> Node:
    node = c.node(contains)
    least = schema.get("minContains", 1)

    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        if not isinstance(instance, list):
            return
        most = schema.get("maxContains", len(instance))
        matches = 0
        _deeper(path)
        for index, each in enumerate(instance):
            if _valid(node, each, (*path, index)):
                matches += 1
                if matches > most:
                    out.append((path, "maxContains", "Too many items match the given schema "
                                f"(expected at most {most})"))  # fmt: skip
                    return
        if matches < least:
            if not matches:
                message = f"{instance!r} does not contain items matching the given schema"
                out.append((path, "contains", message))
            else:
                out.append((path, "minContains", "Too few items match the given schema "
                            f"(expected at least {least} but only {matches} matched)"))  # fmt: skip

    return check


def _unique(c: _Compiler, unique: Any, schema: dict[str, Any]) -> Node | None:
    if not unique:
        return None
    # jsonschema's own test (sorted neighbours, then pairs): it is the definition here
    from jsonschema._utils import uniq  # type: ignore[import-untyped]

    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        if isinstance(instance, list) and not uniq(instance):
            out.append((path, "uniqueItems", f"{instance!r} has non-unique elements"))

    return check


def _all_of(c: _Compiler, schemas: Any, schema: dict[str, Any]) -> Node:
    return _sequence([c.node(sub) for sub in schemas])


def _any_of(c: _Compiler, schemas: Any, schema: dict[str, Any]) -> Node:
    nodes = [c.node(sub) for sub in schemas]

    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        if not any(_valid(node, instance, path) for node in nodes):
            out.append((path, "anyOf", f"{instance!r} is not valid under any of the given schemas"))

    return check


def _one_of(c: _Compiler, schemas: Any, schema: dict[str, Any]) -> Node:
    nodes = [c.node(sub) for sub in schemas]

    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        first = next((i for i, node in enumerate(nodes) if _valid(node, instance, path)), None)
        if first is None:
            out.append((path, "oneOf", f"{instance!r} is not valid under any of the given schemas"))
            return
        rest = range(first + 1, len(nodes))
        more = [schemas[i] for i in rest if _valid(nodes[i], instance, path)]
        if more:
            reprs = ", ".join(repr(s) for s in [*more, schemas[first]])
            out.append((path, "oneOf", f"{instance!r} is valid under each of {reprs}"))

    return check


def _not(c: _Compiler, negated: Any, schema: dict[str, Any]) -> Node:
    node = c.node(negated)

    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        if _valid(node, instance, path):
            out.append((path, "not", f"{instance!r} should not be valid under {negated!r}"))

    return check


def _if(c: _Compiler, condition: Any, schema: dict[str, Any]) -> Node:
    test = c.node(condition)
    then = c.node(schema["then"]) if "then" in schema else None
    otherwise = c.node(schema["else"]) if "else" in schema else None

    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        branch = then if _valid(test, instance, path) else otherwise
        if branch is not None:
            branch(instance, path, out)

    return check


def _ref(c: _Compiler, ref: Any, schema: dict[str, Any]) -> Node:
    target = c.resolve(ref)
    if target is c.root and isinstance(target, dict) and "$schema" in target:
        # jsonschema validates under such a reference with its stock Draft 2020-12 class
        # (Python ``re`` patterns), not assay's: leave the whole schema to it
        raise Unsupported(ref)
    return c.node(target)


_BUILDERS: dict[str, Callable[[_Compiler, Any, dict[str, Any]], Node | None]] = {
    "$ref": _ref,
    "additionalProperties": _additional,
    "allOf": _all_of,
    "anyOf": _any_of,
    "const": _const,
    "contains": _contains,
    "dependentRequired": _dependent_required,
    "dependentSchemas": _dependent_schemas,
    "enum": _enum,
    "exclusiveMaximum": _bound("exclusiveMaximum", lambda i, m: i >= m,
                               "is greater than or equal to the maximum of"),
    "exclusiveMinimum": _bound("exclusiveMinimum", lambda i, m: i <= m,
                               "is less than or equal to the minimum of"),
    "format": _format,
    "if": _if,
    "items": _items,
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
    "not": _not,
    "oneOf": _one_of,
    "pattern": _pattern,
    "patternProperties": _pattern_properties,
    "prefixItems": _prefix_items,
    "properties": _properties,
    "propertyNames": _property_names,
    "required": _required,
    "type": _type,
    "uniqueItems": _unique,
}  # fmt: skip

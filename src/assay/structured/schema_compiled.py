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

The applicator keywords, which compile subschemas (``properties``, ``items``,
``allOf``, ``$ref``, ...), are built here; the assertion keywords, which test the
instance itself, in :mod:`~assay.structured.schema_compiled_assertions`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from assay.structured.schema_compiled_assertions import ASSERTIONS, Node, Path, RawError
from assay.structured.schema_keywords import extra_properties, pattern_matches

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


def _properties(c: _Compiler, properties: Any, schema: dict[str, Any]) -> Node:
    pairs = [(name, c.node(sub)) for name, sub in properties.items()]

    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        if isinstance(instance, dict):
            _deeper(path)
            for name, node in pairs:
                if name in instance:
                    node(instance[name], (*path, name), out)

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
                    if pattern_matches(pattern, key):  # a timeout (None) is re-run by jsonschema
                        node(value, (*path, key), out)

    return check


def _property_names(c: _Compiler, names: Any, schema: dict[str, Any]) -> Node:
    node = c.node(names)

    def check(instance: Any, path: Path, out: list[RawError]) -> None:
        if isinstance(instance, dict):
            for key in instance:
                node(key, path, out)

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
    **ASSERTIONS,
    "$ref": _ref,
    "additionalProperties": _additional,
    "allOf": _all_of,
    "anyOf": _any_of,
    "contains": _contains,
    "dependentSchemas": _dependent_schemas,
    "if": _if,
    "items": _items,
    "not": _not,
    "oneOf": _one_of,
    "patternProperties": _pattern_properties,
    "prefixItems": _prefix_items,
    "properties": _properties,
    "propertyNames": _property_names,
}  # fmt: skip

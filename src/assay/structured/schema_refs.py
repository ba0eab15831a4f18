"""``$ref`` policy of a contract: resolved inside the schema document only, never fetched.

A scoring run never touches the network. The registry a contract validates with
has a ``retrieve`` function that refuses every URI, so jsonschema cannot fetch an
``http://``/``https://`` (or any other) reference. Every ``$ref`` and
``$dynamicRef`` is also resolved once when the contract is loaded, so one that
points outside the document is an :class:`~assay.errors.InputFileError` naming
the ``$ref`` before anything is scored. A URI that an embedded ``$id`` in the
same document defines (``"$id": "http://example.com/item"``) resolves, since
nothing is fetched for it.

References are also checked for cycles that never consume any of the instance
(``{"$ref": "#"}`` at the root, or ``a → b → a`` through ``$ref``, ``allOf``,
``anyOf``, ``oneOf``, ``not``, ``if``/``then``/``else``, ``dependentSchemas``):
they would recurse forever on any response and are refused at load.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from assay.errors import InputFileError

_ONE = (
    "additionalProperties",
    "contains",
    "contentSchema",
    "else",
    "if",
    "items",
    "not",
    "propertyNames",
    "then",
    "unevaluatedItems",
    "unevaluatedProperties",
)
_MANY = ("allOf", "anyOf", "oneOf", "prefixItems")
_MAP = ("$defs", "definitions", "dependentSchemas", "patternProperties", "properties")
_IN_PLACE_ONE = ("else", "if", "not", "then")
_IN_PLACE_MANY = ("allOf", "anyOf", "oneOf")
_REF_KEYWORDS = ("$ref", "$dynamicRef")


class RemoteRefRefused(Exception):  # noqa: N818 - the refusal handed to referencing
    """Raised by the registry's ``retrieve``: nothing outside the document is fetched."""


def _refuse(uri: str) -> Any:
    raise RemoteRefRefused(uri)


def registry_for(schema: Any) -> Any:
    """A registry of ``schema`` and jsonschema's bundled meta-schemas; ``retrieve`` refuses all."""
    from jsonschema_specifications import REGISTRY  # type: ignore[import-untyped]
    from referencing import Registry
    from referencing.jsonschema import DRAFT202012

    resource = DRAFT202012.create_resource(schema)
    refusing = Registry(retrieve=_refuse)  # type: ignore[call-arg]
    return refusing.combine(REGISTRY).with_resource(uri="", resource=resource)


def _root_resolver(registry: Any, schema: Any) -> Any:
    """The resolver jsonschema validates with: based at the root's ``$id`` (if any)."""
    from referencing.jsonschema import DRAFT202012

    return registry.resolver_with_root(DRAFT202012.create_resource(schema))


@dataclass(frozen=True, slots=True)
class _Node:
    pointer: str
    contents: Any
    resolver: Any


def check_refs(schema: Any, source: str) -> None:
    """Resolve every ``$ref`` in ``schema`` without fetching; refuse non-consuming cycles.

    Raises:
        InputFileError: a ``$ref`` points outside the document (or to nothing in it),
            or references form a cycle that consumes no part of the instance.
    """
    registry = registry_for(schema)
    root = _Node("", schema, _root_resolver(registry, schema))
    nodes: dict[int, _Node] = {}
    edges: dict[int, list[int]] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node.contents) in nodes or not isinstance(node.contents, dict):
            continue
        nodes[id(node.contents)] = node
        targets = list(_resolve_refs(node, source))
        stack.extend(t for t in targets if id(t.contents) not in nodes)
        stack.extend(_children(node))
        edges[id(node.contents)] = [id(t.contents) for t in targets] + [
            id(c) for c in _in_place(node.contents)
        ]
    _refuse_cycles(nodes, edges, source)


def _resolve_refs(node: _Node, source: str) -> Iterator[_Node]:
    from referencing.exceptions import Unresolvable

    for keyword in _REF_KEYWORDS:
        ref = node.contents.get(keyword)
        if not isinstance(ref, str):
            continue
        where = f"{node.pointer}/{keyword}"
        try:
            resolved = node.resolver.lookup(ref)
        except Unresolvable:
            raise InputFileError(
                source,
                f"{keyword} {ref!r} points outside this schema document; assay resolves "
                "references only inside the schema and never fetches one (no network): "
                "copy the referenced schema under $defs and point at it",
                field=where,
            ) from None
        pointer = ref[1:] if ref.startswith("#/") else where
        yield _Node(pointer, resolved.contents, resolved.resolver)


def _children(node: _Node) -> Iterator[_Node]:
    """Every subschema directly under ``node``, each with the resolver of its own base URI."""
    from referencing.jsonschema import DRAFT202012

    for pointer, sub in _direct(node.pointer, node.contents):
        if isinstance(sub, dict):
            resolver = node.resolver.in_subresource(DRAFT202012.create_resource(sub))
            yield _Node(pointer, sub, resolver)


def _in_place(contents: dict[str, Any]) -> Iterator[Any]:
    """Subschemas applied to the same instance location (no part of it consumed)."""
    for keyword in _IN_PLACE_ONE:
        if isinstance(contents.get(keyword), dict):
            yield contents[keyword]
    for keyword in _IN_PLACE_MANY:
        if isinstance(contents.get(keyword), list):
            yield from (s for s in contents[keyword] if isinstance(s, dict))
    if isinstance(contents.get("dependentSchemas"), dict):
        yield from (s for s in contents["dependentSchemas"].values() if isinstance(s, dict))


def subschemas(schema: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(pointer, subschema)`` for every object subschema in ``schema`` (iterative walk)."""
    stack: list[tuple[str, Any]] = [("", schema)]
    while stack:
        pointer, sub = stack.pop()
        if not isinstance(sub, dict):
            continue
        yield pointer, sub
        stack.extend(reversed(list(_direct(pointer, sub))))


def _direct(pointer: str, contents: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """The subschemas directly under ``contents`` with their pointers."""
    for keyword in _ONE:
        if keyword in contents:
            yield f"{pointer}/{keyword}", contents[keyword]
    for keyword in _MANY:
        if isinstance(contents.get(keyword), list):
            yield from ((f"{pointer}/{keyword}/{i}", s) for i, s in enumerate(contents[keyword]))
    for keyword in _MAP:
        if isinstance(contents.get(keyword), dict):
            items = contents[keyword].items()
            yield from ((f"{pointer}/{keyword}/{_escape(k)}", s) for k, s in items)


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _refuse_cycles(nodes: dict[int, _Node], edges: dict[int, list[int]], source: str) -> None:
    """Iterative depth-first search for a cycle among in-place edges."""
    state: dict[int, int] = {}  # 1 = on the current path, 2 = done
    for start in nodes:
        if start in state:
            continue
        path: list[tuple[int, Iterator[int]]] = [(start, iter(edges.get(start, ())))]
        state[start] = 1
        while path:
            current, pending = path[-1]
            following = next(pending, None)
            if following is None:
                state[current] = 2
                path.pop()
            elif state.get(following) == 1:
                where = nodes[following].pointer or "/"
                raise InputFileError(
                    source,
                    f"$ref cycle through {where} that consumes no part of the response "
                    "(it would recurse forever); break the cycle",
                    field=where,
                )
            elif following not in state and following in nodes:
                state[following] = 1
                path.append((following, iter(edges.get(following, ()))))

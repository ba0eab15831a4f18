r"""The Draft 2020-12 validator assay runs: user patterns through `regex`, with a time limit.

jsonschema's own ``pattern``, ``patternProperties``, ``additionalProperties`` and
``unevaluatedProperties`` call Python's ``re`` (no time limit, no ``\p{...}``).
:func:`validator_class` extends ``Draft202012Validator`` with versions of these four
keywords that search through :mod:`assay.structured.ecma_regex` instead; every other
keyword is jsonschema's.

A search that runs past the time limit yields an error whose keyword is
``pattern_timeout`` (reason code ``schema.pattern_timeout``) and is also recorded in
the current :class:`PatternRun`, so a timeout inside ``not``/``anyOf`` (where the
error itself would be swallowed) still fails the response instead of deciding it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from assay.structured.ecma_regex import DEFAULT_TIMEOUT, PatternTimeout, search

TIMEOUT_KEYWORD = "pattern_timeout"


@dataclass(slots=True)
class PatternRun:
    """The time limit for one validation and the timeouts it met."""

    timeout: float = DEFAULT_TIMEOUT
    timeouts: list[PatternTimeout] = field(default_factory=list)


RUN: ContextVar[PatternRun | None] = ContextVar("assay_pattern_run", default=None)


def pattern_matches(pattern: str, text: str) -> bool | None:
    """Whether ``pattern`` matches in ``text``; ``None`` when the search timed out."""
    run = RUN.get() or PatternRun()
    try:
        return search(pattern, text, run.timeout)
    except PatternTimeout as exc:
        run.timeouts.append(exc)
        return None


def _timeout_error(pattern: str, text: str, path: tuple[str, ...] = ()) -> Any:
    from jsonschema.exceptions import ValidationError  # type: ignore[import-untyped]

    run = RUN.get() or PatternRun()
    shown = text if len(text) <= 60 else text[:57] + "..."
    return ValidationError(
        f"pattern {pattern!r} ran past its {run.timeout:g} s time limit on {shown!r}",
        validator=TIMEOUT_KEYWORD,
        path=path,
    )


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "string"):
        return
    found = pattern_matches(pattern, instance)
    if found is None:
        yield _timeout_error(pattern, instance)
    elif not found:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(
    validator: Any, patterns: dict[str, Any], instance: Any, schema: Any
) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            found = pattern_matches(pattern, key)
            if found is None:
                yield _timeout_error(pattern, key, (key,))
            elif found:
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def extra_properties(instance: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    """Keys matched by neither ``properties`` nor a ``patternProperties`` pattern.

    A key whose match timed out is not called extra: the timeout already fails it.
    """
    declared = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    extras = []
    for key in instance:
        if key in declared:
            continue
        outcomes = [pattern_matches(p, key) for p in patterns]
        if not any(o is not False for o in outcomes):
            extras.append(key)
    return extras


def _additional_properties(
    validator: Any, additional: Any, instance: Any, schema: Any
) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "object"):
        return
    extras = extra_properties(instance, schema)
    if validator.is_type(additional, "object"):
        for key in extras:
            yield from validator.descend(instance[key], additional, path=key)
    elif additional is False and extras:
        names = ", ".join(repr(k) for k in sorted(extras))
        yield ValidationError(f"Additional properties are not allowed ({names} unexpected)")


def evaluated_keys(validator: Any, instance: dict[str, Any], schema: Any) -> set[str]:
    """Keys of ``instance`` evaluated by ``schema`` and its successful in-place subschemas."""
    if not isinstance(schema, dict):
        return set()
    keys: set[str] = set()
    for keyword in ("$ref", "$dynamicRef"):
        if isinstance(schema.get(keyword), str):
            resolved = validator._resolver.lookup(schema[keyword])
            inner = validator.evolve(schema=resolved.contents, _resolver=resolved.resolver)
            keys |= evaluated_keys(inner, instance, resolved.contents)
    properties = schema.get("properties")
    if isinstance(properties, dict):
        keys |= properties.keys() & instance.keys()
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        if keyword in schema:
            keys |= {k for k, v in instance.items() if _valid(validator, v, schema[keyword])}
    for pattern in schema.get("patternProperties", {}):
        keys |= {k for k in instance if pattern_matches(pattern, k) is not False}
    for name, subschema in schema.get("dependentSchemas", {}).items():
        if name in instance:
            keys |= evaluated_keys(validator, instance, subschema)
    for keyword in ("allOf", "oneOf", "anyOf"):
        for subschema in schema.get(keyword, []):
            if _valid(validator, instance, subschema):
                keys |= evaluated_keys(validator, instance, subschema)
    if "if" in schema:
        branch = "then" if _valid(validator, instance, schema["if"]) else "else"
        if branch == "then":
            keys |= evaluated_keys(validator, instance, schema["if"])
        keys |= evaluated_keys(validator, instance, schema.get(branch))
    return keys


def _valid(validator: Any, instance: Any, subschema: Any) -> bool:
    return next(validator.descend(instance, subschema), None) is None


def _unevaluated_properties(
    validator: Any, unevaluated: Any, instance: Any, schema: Any
) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "object"):
        return
    seen = evaluated_keys(validator, instance, schema)
    bad = [
        key
        for key in instance
        if key not in seen and not _valid_at(validator, instance[key], unevaluated, key)
    ]
    if bad:
        names = ", ".join(repr(k) for k in sorted(bad))
        if unevaluated is False:
            yield ValidationError(f"Unevaluated properties are not allowed ({names} unexpected)")
        else:
            yield ValidationError(f"Unevaluated properties are not valid ({names})")


def _valid_at(validator: Any, value: Any, subschema: Any, key: str) -> bool:
    return next(validator.descend(value, subschema, path=key, schema_path=key), None) is None


@lru_cache(maxsize=1)
def validator_class() -> Any:
    """``Draft202012Validator`` with the four pattern keywords replaced (see module docstring)."""
    from jsonschema import Draft202012Validator, validators  # type: ignore[import-untyped]

    cls = validators.extend(
        Draft202012Validator,
        validators={
            "additionalProperties": _additional_properties,
            "pattern": _pattern,
            "patternProperties": _pattern_properties,
            "unevaluatedProperties": _unevaluated_properties,
        },
    )
    cls.descend = _descend_keeping_false_paths(cls.descend)
    return cls


def _descend_keeping_false_paths(descend: Any) -> Any:
    """``descend`` whose error for a ``false`` subschema keeps the path to the field.

    jsonschema yields that error before it records ``path``, so a ``false`` property
    schema would otherwise be reported at the root instead of at the property.
    """
    from jsonschema.exceptions import ValidationError

    def wrapped(
        self: Any, instance: Any, schema: Any, path: Any = None, schema_path: Any = None, **kw: Any
    ) -> Iterator[Any]:
        if schema is not False:
            yield from descend(self, instance, schema, path=path, schema_path=schema_path, **kw)
            return
        error = ValidationError(
            f"False schema does not allow {instance!r}", validator="false", instance=instance
        )
        if path is not None:
            error.path.appendleft(path)
        if schema_path is not None:
            error.schema_path.appendleft(schema_path)
        yield error

    return wrapped

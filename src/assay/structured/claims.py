"""Claims read from a parsed answer, and the reference facts they are judged against.

**Claims.** Every leaf of a parsed JSON object or array is one claim ``(field,
value)``: a leaf is a scalar or an array of scalars (compared as a whole). Nested
objects and arrays of objects are walked; the field name joins keys and array
indices with dots (``dimensions.width_mm``, ``variants.0.sku``). ``null`` states
nothing and is not a claim. A top-level scalar has no fields and yields no claims.

**References** take one of two forms (``reference`` on an item, or a row
``{"id", "reference"}`` of a references file):

* *plain mapping* — ``{"price": 12.5, "name": "Desk Lamp"}``: field → expected
  value, nested objects flattened like claims, every field required, each
  compared with the **default rule**: numbers (not booleans) use ``number`` with
  tolerance 0; strings use ``casefold``; anything else uses ``exact``.
* *full form* — an object whose keys are all among ``fields``, ``required``,
  ``statements``, ``contradictions``::

      {"fields": {"price": {"value": 12.5, "rule": "number", "tolerance": 0.01},
                  "colour": {"value": ["red", "crimson"], "rule": "one_of"},
                  "name": {"value": "Desk Lamp", "aliases": ["Lamp, desk"]},
                  "sku": "DL-1"},
       "required": ["name", "price"],
       "statements": ["the lamp ships with a bulb"],
       "contradictions": ["the lamp is cordless"]}

  A field entry is either an object with ``value`` (and optional ``rule``,
  ``tolerance``, ``aliases``) or a bare value (default rule). ``required``
  defaults to every field. ``statements``/``contradictions`` are the reference
  material for free-text claims.

**Rules** (fixed in the input before scoring):

============ ================================================================
``exact``     JSON equality (``1`` ≠ ``true``; ``1`` = ``1.0``)
``casefold``  strings equal after NFKC, ``str.casefold`` and whitespace collapse
``number``    ``|claim − expected| <= tolerance`` (absolute; default 0),
              computed exactly on the decimals as written; a numeric
              string claim is read as a number
``date``      both ISO ``YYYY-MM-DD`` and the same calendar day
``one_of``    ``value`` is a non-empty list; the claim matches one of them
              (``casefold`` for strings, ``exact`` otherwise)
============ ================================================================

``aliases`` add accepted values under the same rule. An unknown rule, a bad
tolerance or a ``date`` value that is not a date is an
:class:`~assay.errors.InputFileError` naming the file, line and field.
"""

from __future__ import annotations

import datetime as _dt
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from assay.errors import InputFileError

RULES: tuple[str, ...] = ("casefold", "date", "exact", "number", "one_of")
FULL_FORM_KEYS = frozenset({"fields", "required", "statements", "contradictions"})
FIELD_SPEC_KEYS = frozenset({"value", "rule", "tolerance", "aliases"})


def default_rule(value: Any) -> str:
    """The rule a bare expected value is compared with (see the module docstring)."""
    if isinstance(value, bool):
        return "exact"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "casefold"
    return "exact"


@dataclass(frozen=True, slots=True)
class FieldReference:
    """The expected value of one field and how a claim is compared with it."""

    field: str
    value: Any
    rule: str
    aliases: tuple[Any, ...] = ()
    tolerance: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """Canonical JSON form."""
        out: dict[str, Any] = {"field": self.field, "rule": self.rule, "value": self.value}
        if self.aliases:
            out["aliases"] = list(self.aliases)
        if self.rule == "number":
            out["tolerance"] = self.tolerance
        return out


@dataclass(frozen=True, slots=True)
class Reference:
    """Reference facts for one item.

    Attributes:
        fields: expected values, sorted by field name.
        required: required information items (field names) for coverage.
        statements: reference statements that support free-text claims.
        contradictions: reference statements that contradict free-text claims.
        form: ``"plain"`` or ``"full"``.
    """

    fields: tuple[FieldReference, ...]
    required: tuple[str, ...]
    statements: tuple[str, ...] = ()
    contradictions: tuple[str, ...] = ()
    form: str = "plain"

    def get(self, field: str) -> FieldReference | None:
        """The reference of ``field``, or ``None``."""
        return next((f for f in self.fields if f.field == field), None)

    def to_dict(self) -> dict[str, Any]:
        """Canonical JSON form."""
        return {
            "contradictions": list(self.contradictions),
            "fields": [f.to_dict() for f in self.fields],
            "form": self.form,
            "required": list(self.required),
            "statements": list(self.statements),
        }


@dataclass(frozen=True, slots=True)
class Claim:
    """One claim: a field and its stated value, or a free-text statement.

    Attributes:
        field: dotted field name (``variants.0.sku``), or ``claims.N`` for free text.
        value: the stated value (the text for a free-text claim).
        pointer: JSON pointer into the parsed answer; ``None`` for free text.
        free_text: whether the claim is a free-text statement.
    """

    field: str
    value: Any
    pointer: str | None = None
    free_text: bool = False


def iter_leaves(
    value: Any, prefix: tuple[str | int, ...] = ()
) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """Yield ``(path, leaf)`` for every non-null leaf under ``value`` (see module docstring).

    The walk keeps its own stack, so a deeply nested value cannot exhaust Python's.
    """
    stack: list[tuple[tuple[str | int, ...], Any]] = [(prefix, value)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, dict):
            stack.extend((path + (k,), node[k]) for k in reversed(list(node)))
        elif isinstance(node, list) and any(isinstance(v, (dict, list)) for v in node):
            stack.extend((path + (i,), node[i]) for i in reversed(range(len(node))))
        elif node is not None and path:
            yield path, node


def extract_claims(value: Any) -> tuple[Claim, ...]:
    """The claims of a parsed answer, in document order.

    The same walk as :func:`iter_leaves`, carrying each leaf's field name and JSON
    pointer as text (built once per level instead of once per leaf).
    """
    claims: list[Claim] = []
    stack: list[tuple[str, str, Any, bool]] = [("", "", value, False)]
    while stack:
        field, pointer, node, inside = stack.pop()
        if isinstance(node, dict):
            keys = [str(k) for k in node]
            values = list(node.values())
        elif isinstance(node, list) and any(isinstance(v, (dict, list)) for v in node):
            keys, values = [str(i) for i in range(len(node))], node
        else:
            if node is not None and inside:
                claims.append(Claim(field, node, pointer))
            continue
        dotted = field + "." if inside else ""
        for key, child in zip(reversed(keys), reversed(values), strict=True):
            step = key.replace("~", "~0").replace("/", "~1") if "~" in key or "/" in key else key
            stack.append((dotted + key, pointer + "/" + step, child, True))
    return tuple(claims)


def text_claims(statements: tuple[str, ...]) -> tuple[Claim, ...]:
    """Free-text claims, named ``claims.0``, ``claims.1`` and so on."""
    return tuple(
        Claim(field=f"claims.{i}", value=text, free_text=True) for i, text in enumerate(statements)
    )


class _Where:
    """File, line and field prefix for reference errors."""

    def __init__(self, path: str, line: int | None, prefix: str) -> None:
        self.path, self.line, self.prefix = path, line, prefix

    def error(self, field: str, problem: str) -> InputFileError:
        name = ".".join(part for part in (self.prefix, field) if part)
        return InputFileError(self.path, problem, line=self.line, field=name)


def parse_reference(
    obj: Any, *, path: str = "<reference>", line: int | None = None, prefix: str = "reference"
) -> Reference:
    """Validate a reference object (plain or full form) into a :class:`Reference`.

    Raises:
        InputFileError: naming ``path``, ``line`` and the offending field.
    """
    where = _Where(path, line, prefix)
    if not isinstance(obj, dict):
        raise where.error("", f"must be a JSON object, got {type(obj).__name__}")
    if obj and set(obj) <= FULL_FORM_KEYS:
        return _parse_full(obj, where)
    if _is_spec_mapping(obj):
        return _parse_full({"fields": obj}, where)
    fields = tuple(
        sorted(
            (
                _bare_field(".".join(str(p) for p in leaf_path), leaf)
                for leaf_path, leaf in iter_leaves(obj)
            ),
            key=lambda f: f.field,
        )
    )
    return Reference(fields=fields, required=tuple(f.field for f in fields), form="plain")


def _is_field_spec(value: Any) -> bool:
    """A ``{value, rule?, tolerance?, aliases?}`` entry with at least one of the optional keys."""
    return (
        isinstance(value, dict)
        and "value" in value
        and len(value) > 1
        and set(value) <= FIELD_SPEC_KEYS
    )


def _is_spec_mapping(obj: dict[str, Any]) -> bool:
    """Field → spec without the ``fields`` wrapper: every object entry is a field spec.

    ``{"date": {"value": "2024-01-31", "rule": "date"}, "sku": "A-1"}`` reads as
    ``{"fields": {...}}``; a plain mapping with ordinary nested objects does not.
    """
    specs = [v for v in obj.values() if isinstance(v, dict)]
    return bool(specs) and all(_is_field_spec(v) for v in specs)


def _bare_field(field: str, value: Any) -> FieldReference:
    return FieldReference(field=field, value=value, rule=default_rule(value))


def _parse_full(obj: dict[str, Any], where: _Where) -> Reference:
    raw_fields = obj.get("fields", {})
    if not isinstance(raw_fields, dict):
        raise where.error("fields", "must be an object mapping field name → expected value")
    fields = tuple(_parse_field(name, raw_fields[name], where) for name in sorted(raw_fields))
    required = _string_list(obj, "required", where, default=[f.field for f in fields])
    if len(set(required)) != len(required):
        raise where.error("required", "lists a field twice; give each required item once")
    return Reference(
        fields=fields,
        required=tuple(required),
        statements=tuple(_string_list(obj, "statements", where, default=[])),
        contradictions=tuple(_string_list(obj, "contradictions", where, default=[])),
        form="full",
    )


def _string_list(obj: Mapping[str, Any], key: str, where: _Where, default: list[str]) -> list[str]:
    value = obj.get(key, default)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise where.error(key, f"must be a list of strings, got {value!r}")
    return list(value)


def _parse_field(name: str, spec: Any, where: _Where) -> FieldReference:
    """One entry of ``fields``: a bare value or ``{value, rule, tolerance, aliases}``."""
    if not isinstance(spec, dict):
        return _bare_field(name, spec)
    label = f"fields.{name}"
    if "value" not in spec:
        raise where.error(label, 'an object entry needs "value"; write {"value": ...}')
    if not FIELD_SPEC_KEYS.issuperset(spec):
        unknown = sorted(set(spec) - FIELD_SPEC_KEYS)
        raise where.error(
            f"{label}.{unknown[0]}", f"unknown key; allowed: {', '.join(sorted(FIELD_SPEC_KEYS))}"
        )
    value = spec["value"]
    rule = spec["rule"] if "rule" in spec else default_rule(value)
    if rule not in RULES:
        raise where.error(
            f"{label}.rule",
            f"unknown comparison rule {rule!r}; use one of: {', '.join(RULES)}",
        )
    aliases = spec["aliases"] if "aliases" in spec else []
    if not isinstance(aliases, list):
        raise where.error(f"{label}.aliases", f"must be a list, got {aliases!r}")
    tolerance = _tolerance(spec, rule, label, where) if "tolerance" in spec else 0.0
    if rule != "exact":  # exact compares any JSON value: nothing to check
        _check_value(rule, [value] if rule == "one_of" else [value, *aliases], label, where)
    return FieldReference(name, value, rule, tuple(aliases), tolerance)


def _tolerance(spec: Mapping[str, Any], rule: str, field: str, where: _Where) -> float:
    """The entry's tolerance (``field``: its label, ``fields.NAME``)."""
    if "tolerance" not in spec:
        return 0.0
    label = f"{field}.tolerance"
    tolerance = spec["tolerance"]
    if rule != "number":
        raise where.error(label, f"only the number rule takes a tolerance (rule is {rule!r})")
    if (
        isinstance(tolerance, bool)
        or not isinstance(tolerance, (int, float))
        or not 0 <= tolerance < math.inf
    ):
        raise where.error(label, f"must be a finite number >= 0, got {_short(tolerance)}")
    return tolerance  # kept exact (a huge int stays an int; compared with Fraction)


def _check_value(rule: str, values: list[Any], label: str, where: _Where) -> None:
    """Reject expected values the rule cannot compare."""
    for value in values:
        if rule == "number" and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise where.error(f"{label}.value", f"the number rule needs a number, got {value!r}")
        if rule == "number" and isinstance(value, float) and not math.isfinite(value):
            raise where.error(
                f"{label}.value",
                f"the number rule needs a finite number, got {value!r} "
                "(a literal too large for a double); write it as an integer or a smaller value",
            )
        if rule == "casefold" and not isinstance(value, str):
            raise where.error(f"{label}.value", f"the casefold rule needs a string, got {value!r}")
        if rule == "date" and parse_iso_date(value) is None:
            raise where.error(
                f"{label}.value", f"the date rule needs an ISO date YYYY-MM-DD, got {value!r}"
            )
        if rule == "one_of" and (not isinstance(value, list) or not value):
            raise where.error(
                f"{label}.value", f"the one_of rule needs a non-empty list, got {value!r}"
            )


def _short(value: Any) -> str:
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**50 else "a huge integer"
    return text if len(text) <= 60 else text[:57] + "..."


def parse_iso_date(value: Any) -> _dt.date | None:
    """``YYYY-MM-DD`` (exactly, ASCII digits) as a date, else ``None``."""
    if not isinstance(value, str) or len(value) != 10 or not value.isascii():
        return None
    if value[4] != "-" or value[7] != "-" or not value.replace("-", "").isdigit():
        return None
    try:
        return _dt.date.fromisoformat(value)
    except ValueError:
        return None

"""Canonical signature strings: every number carries the settings that made it.

A signature is ``name|key:value|...|v:VERSION`` with a fixed key order: tokenizer
(``tok``), normalizer (``norm``), the metric's own options in declaration order,
the multi-target policy (``multi``) and the metric definition version (``v``).
Example: ``f1|tok:word|norm:none|multi:max|v:0.1.0``.
"""

from __future__ import annotations

from collections.abc import Sequence


def format_value(value: object) -> str:
    """Render an option value the way it appears in a signature (``True`` → ``yes``)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def build_signature(name: str, parts: Sequence[tuple[str, object]], version: str) -> str:
    """Join a metric name, ``(key, value)`` parts and a version into a signature."""
    body = "|".join(f"{key}:{format_value(value)}" for key, value in parts)
    return f"{name}|{body}|v:{version}" if body else f"{name}|v:{version}"

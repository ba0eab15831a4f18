"""Metrics: one module per family, one descriptor per metric, one registry.

The names below load on first use (PEP 562), so importing one family module (as
``assay eval`` does with :mod:`assay.metrics.edit`) does not load every family.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from assay.metrics.base import BoundMetric, MetricSpec, Param, Settings
    from assay.metrics.registry import REGISTRY, get_metric, metric_names

__all__ = [
    "REGISTRY",
    "BoundMetric",
    "MetricSpec",
    "Param",
    "Settings",
    "get_metric",
    "metric_names",
]

_HOMES = {
    "REGISTRY": "registry", "get_metric": "registry", "metric_names": "registry",
    "BoundMetric": "base", "MetricSpec": "base", "Param": "base", "Settings": "base",
}  # fmt: skip


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'assay.metrics' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"assay.metrics.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})

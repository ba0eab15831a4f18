"""The one explicit metric registry: name → :class:`MetricSpec`.

Each metric family module exposes a ``METRICS`` tuple; this module lists the
modules, and nothing else decides which metrics exist.
"""

from __future__ import annotations

from types import MappingProxyType

from assay.errors import UnknownMetricError
from assay.metrics import bleu, chrf, edit, exact, gleu, overlap, rouge, squad
from assay.metrics.base import MetricSpec

_FAMILIES = (exact, overlap, squad, edit, bleu, gleu, rouge, chrf)


def _build() -> dict[str, MetricSpec]:
    registry: dict[str, MetricSpec] = {}
    for module in _FAMILIES:
        for spec in module.METRICS:
            if spec.name in registry:
                raise RuntimeError(f"metric {spec.name!r} registered twice")
            registry[spec.name] = spec
    return registry


REGISTRY = MappingProxyType(_build())


def get_metric(name: str) -> MetricSpec:
    """Return the descriptor of metric ``name``.

    Raises:
        UnknownMetricError: not registered; the message suggests close names.
    """
    try:
        return REGISTRY[name]
    except (KeyError, TypeError):
        raise UnknownMetricError(name, REGISTRY) from None


def metric_names() -> list[str]:
    """All registered metric names, sorted."""
    return sorted(REGISTRY)

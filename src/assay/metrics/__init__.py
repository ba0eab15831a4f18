"""Metrics: one module per family, one descriptor per metric, one registry."""

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

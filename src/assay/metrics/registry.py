"""The one explicit metric registry: name → :class:`MetricSpec`.

Each metric family module exposes a ``METRICS`` tuple; this module lists the
modules, and nothing else decides which metrics exist.
"""

from __future__ import annotations

from types import MappingProxyType

from assay.errors import UnknownMetricError
from assay.metrics import (
    anls_star,
    bleu,
    chrf,
    edit,
    error_rate,
    exact,
    gleu,
    overlap,
    rouge,
    semantic,
    squad,
    ter,
)
from assay.metrics.base import MetricSpec

_FAMILIES = (
    exact, overlap, squad, edit, anls_star, error_rate, ter, bleu, gleu, rouge, chrf, semantic
)


def _build() -> dict[str, MetricSpec]:
    registry: dict[str, MetricSpec] = {}
    for module in _FAMILIES:
        for spec in module.METRICS:
            if spec.name in registry:
                raise RuntimeError(f"metric {spec.name!r} registered twice")
            registry[spec.name] = spec
    return registry


REGISTRY = MappingProxyType(_build())

# Spellings other tools use for the same definitions; each maps to one registered name.
# Deliberately short and exact (no case or separator folding), so a typo such as
# ``f_1`` still raises UnknownMetricError with suggestions.
ALIASES = MappingProxyType(
    {
        "chrF": "chrf",
        "chrF++": "chrf++",
        "chrfpp": "chrf++",
        "chrf_pp": "chrf++",
        "chrFpp": "chrf++",
        "GLEU": "gleu",
        "google_bleu": "gleu",
        "anls_docvqa": "anls.docvqa",
        "anls-docvqa": "anls.docvqa",
        "docvqa_anls": "anls.docvqa",
        "anls*": "anls_star",
        "ANLS*": "anls_star",
        **{f"rouge{n}": f"rouge_{n}" for n in range(1, 10)},
        "rougeL": "rouge_l",
        "rougeLsum": "rouge_lsum",
    }
)


def get_metric(name: str) -> MetricSpec:
    """Return the descriptor of metric ``name`` (a registered name or an alias).

    An alias (:data:`ALIASES`: ``chrF++``, ``rougeL``, ``anls_docvqa``, ...) returns
    the spec of its registered name, which is what signatures and results record.

    Raises:
        UnknownMetricError: not registered; the message suggests close names.
    """
    try:
        return REGISTRY[ALIASES.get(name, name)]
    except (KeyError, TypeError):
        raise UnknownMetricError(name, REGISTRY) from None


def metric_names() -> list[str]:
    """All registered metric names, sorted."""
    return sorted(REGISTRY)

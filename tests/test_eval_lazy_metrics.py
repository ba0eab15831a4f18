"""An evaluation loads only the metric families it scores with; signatures unchanged."""

from __future__ import annotations

import subprocess
import sys

import pytest

import assay.metrics
from assay.api import signature
from assay.evaluation.profiles import metric_signatures
from assay.metrics.registry import REGISTRY, get_metric, metric_names


@pytest.mark.parametrize("profile", ["assay", "xldocbench"])
def test_signatures_are_the_registered_metrics_signatures(profile: str) -> None:
    found = metric_signatures(profile)
    assert found["token_f1"] == signature("token_f1.set")
    assert found["anls"] == signature("anls", normalizer="strip-lower")


def test_the_package_names_still_resolve() -> None:
    assert assay.metrics.REGISTRY is REGISTRY
    assert assay.metrics.get_metric is get_metric and assay.metrics.metric_names is metric_names
    assert {"REGISTRY", "BoundMetric", "MetricSpec", "Param", "Settings"} <= set(dir(assay.metrics))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = assay.metrics.nope  # type: ignore[attr-defined]


EVALUATE = """
import sys
from assay.evaluation.runs import SystemInput, evaluate
gold = [{"id": "q1", "question": "?", "answer": "Paris", "answer_format": "String"}]
result = evaluate(gold, [SystemInput("s", [{"id": "q1", "prediction": "paris"}])])
assert result.systems[0].overall.accuracy == 1.0, result
print(sorted(m for m in sys.modules if m.startswith("assay.metrics")))
"""


def test_an_evaluation_does_not_load_the_registry() -> None:
    done = subprocess.run(
        [sys.executable, "-c", EVALUATE], capture_output=True, text=True, check=True
    )
    loaded = done.stdout.strip()
    assert "assay.metrics.edit" in loaded and "assay.metrics.overlap" in loaded
    for family in ("registry", "ter", "semantic", "chrf", "bleu"):
        assert f"'assay.metrics.{family}'" not in loaded, loaded

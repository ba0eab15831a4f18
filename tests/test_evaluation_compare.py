"""The result document's statistics, checked by hand and against the stats functions."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from assay.evaluation.compare import CompareOptions, result_document
from assay.evaluation.runs import SystemInput, evaluate
from assay.stats import (
    clustered_mean_interval,
    mcnemar_exact,
    paired_approximate_randomization,
    paired_bootstrap,
)
from compare_helpers import CLUSTERS, GOLD_DIR, VECTORS, write_predictions

Z975 = 1.959963984540054  # normal 97.5% quantile
Z80 = 0.8416212335729143  # normal 80% quantile


def _document(tmp_path: Path, **options: Any) -> dict[str, Any]:
    files = write_predictions(tmp_path / "pred")
    systems = [SystemInput(f.stem, (str(f),)) for f in files]
    gold = [GOLD_DIR / "qa_single_doc.jsonl", GOLD_DIR / "qa_cross_doc.jsonl"]
    return result_document(evaluate(gold, systems), CompareOptions(**options))


@pytest.fixture(scope="module")
def document(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return _document(tmp_path_factory.mktemp("cmp"), n_resamples=2000)


def test_per_item_scores_and_clusters(document: dict[str, Any]) -> None:
    assert [item["cluster"] for item in document["items"]] == CLUSTERS
    for name, vector in VECTORS.items():
        got = [item["results"][name]["accuracy"] for item in document["items"]]
        assert got == [float(v) for v in vector]
        assert [item["results"][name]["anls"] for item in document["items"]] == got


def test_clustered_interval_by_hand(document: dict[str, Any]) -> None:
    alpha = next(s for s in document["systems"] if s["system"] == "alpha")
    estimate = alpha["overall"]["accuracy"]
    # mean 5/6; residuals 1/6 x5 and -5/6 (g6). Cluster sums: D1 (g1, g5) 2/6,
    # D2 (g2, g3, g6) 1/6 + 1/6 - 5/6 = -3/6, D1+D2 (g4) 1/6. C = 3.
    # SE = sqrt(C/(C-1) * sum of squared cluster sums) / n = sqrt(1.5 * 14/36) / 6
    se = math.sqrt(1.5 * 14 / 36) / 6
    assert estimate["se_method"] == "clustered" and estimate["n_clusters"] == 3
    assert estimate["mean"] == pytest.approx(5 / 6)
    assert estimate["se"] == pytest.approx(se, rel=1e-12)
    assert estimate["df"] == 2
    # t(0.975, df=2) = 4.302652729911275
    assert estimate["lower"] == pytest.approx(5 / 6 - 4.302652729911275 * se, rel=1e-9)
    # 5/6 + 4.3027 * 0.1273 = 1.381 > 1: the upper bound is cut to 1 and says so.
    assert estimate["upper"] == 1.0 and estimate["clipped"] is True
    direct = clustered_mean_interval(VECTORS["alpha"], CLUSTERS).to_dict()
    assert estimate == {**direct, "upper": 1.0, "clipped": True, "interval_method": "t"}


def test_wilson_by_hand(document: dict[str, Any]) -> None:
    rate = next(s for s in document["systems"] if s["system"] == "alpha")["accuracy_rate"]
    n, p, z2 = 6, 5 / 6, Z975**2
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z975 / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    assert (rate["k"], rate["n"]) == (5, 6)
    assert rate["lower"] == pytest.approx(centre - half, rel=1e-9)
    assert rate["upper"] == pytest.approx(centre + half, rel=1e-9)


def _pair(document: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    return next(p for p in document["comparison"]["pairs"] if (p["a"], p["b"]) == (a, b))


def test_paired_difference_and_mdd_by_hand(document: dict[str, Any]) -> None:
    diff = _pair(document, "alpha", "beta")["difference"]
    # d = [0, 1, 0, 1, 0, 0]: mean 1/3, sd = sqrt((4 (1/3)^2 + 2 (2/3)^2) / 5) = sqrt(12/45)
    se = math.sqrt(12 / 45) / math.sqrt(6)
    assert diff["difference"] == pytest.approx(1 / 3)
    assert diff["se"] == pytest.approx(se, rel=1e-12)
    assert diff["mdd"] == pytest.approx((Z975 + Z80) * se, rel=1e-9)


def test_mcnemar_by_hand(document: dict[str, Any]) -> None:
    # alpha vs beta: discordant g2, g4 (alpha only) -> p = 2 * (1/2)^2 = 0.5
    # alpha vs gamma: 4 discordant, all alpha -> p = 2 * (1/2)^4 = 0.125
    assert _pair(document, "alpha", "beta")["mcnemar"]["p_value"] == 0.5
    assert _pair(document, "alpha", "gamma")["mcnemar"]["p_value"] == 0.125
    assert _pair(document, "beta", "gamma")["mcnemar"]["a_only"] == 2


def test_ar_p_values_wired_and_recorded(document: dict[str, Any]) -> None:
    comparison = document["comparison"]
    assert (comparison["seed"], comparison["n_resamples"]) == (12345, 2000)
    for pair in comparison["pairs"]:
        direct = paired_approximate_randomization(
            VECTORS[pair["a"]], VECTORS[pair["b"]], n_trials=2000, seed=12345, ties_count=True
        )
        assert pair["test"] == direct.to_dict()
        # For 0/1 scores the exact randomisation distribution is McNemar's: AR agrees
        # within Monte-Carlo error (3 binomial SDs at 2000 trials).
        exact = mcnemar_exact(VECTORS[pair["a"]], VECTORS[pair["b"]]).p_value
        assert exact is not None
        assert abs(pair["test"]["p_value"] - exact) < 3 * math.sqrt(0.25 / 2000) + 1e-3


def test_holm_and_tie_groups_by_hand(document: dict[str, Any]) -> None:
    pairs = document["comparison"]["pairs"]
    raw = [p["test"]["p_value"] for p in pairs]
    order = sorted(range(3), key=lambda i: raw[i])
    adjusted, running = [0.0] * 3, 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (3 - rank) * raw[i]))
        adjusted[i] = running
    assert [p["p_holm"] for p in pairs] == pytest.approx(adjusted)
    # every adjacent Holm p is far above 0.05 with six questions: one tie group
    assert document["comparison"]["tie_groups"]["groups"] == [1, 1, 1]
    assert [s["tie_group"] for s in document["systems"]] == [1, 1, 1]
    assert [s["system"] for s in document["systems"]] == ["alpha", "beta", "gamma"]


def test_strict_rule_is_sacrebleus(tmp_path: Path) -> None:
    document = _document(tmp_path, n_resamples=500, ties_count=False)
    pair = _pair(document, "alpha", "beta")
    # alpha wins both discordant items: no swap can exceed the observed difference,
    # so sacrebleu's strict rule gives the smallest possible p = 1/501.
    assert pair["test"]["count"] == 0 and pair["test"]["p_value"] == 1 / 501
    assert pair["test"]["count_rule"] == "greater"


def test_bootstrap_option_and_metric(tmp_path: Path) -> None:
    document = _document(tmp_path, method="paired_bootstrap", n_resamples=300, metric="token_f1")
    comparison = document["comparison"]
    assert comparison["metric"] == "token_f1" and comparison["method"] == "paired_bootstrap"
    pair = _pair(document, "alpha", "gamma")
    direct = paired_bootstrap(
        VECTORS["alpha"], VECTORS["gamma"], n_resamples=300, seed=12345, ties_count=True
    )
    assert pair["test"] == direct.to_dict()


def test_intervals_are_cut_to_the_unit_range() -> None:
    from assay.evaluation.compare import mean_estimate

    # [1, 0] with iid SE: mean 0.5, SD sqrt(0.5), SE 0.5, t(0.975, df=1) = 12.706 -> far outside.
    estimate = mean_estimate([1.0, 0.0], None, 0.95)
    assert (estimate["lower"], estimate["upper"], estimate["clipped"]) == (0.0, 1.0, True)
    # [0.4, 0.6]: SE 0.1, half-width 12.706 * 0.1 = 1.27 -> also cut; the mean stays 0.5.
    assert mean_estimate([0.4, 0.6], None, 0.95)["mean"] == 0.5
    inside = mean_estimate([0.5] * 3 + [0.6] * 3, None, 0.95)
    assert inside["clipped"] is False and 0.0 < inside["lower"] < inside["upper"] < 1.0


def test_zero_spread_binary_sample_gets_a_wilson_interval() -> None:
    from assay.evaluation.compare import mean_estimate

    # [1, 1]: SE 0, so a t interval would be [1, 1]. Wilson for k=2, n=2, z=1.959964:
    # denominator 1 + z²/2 = 2.920729; centre (1 + z²/4) / 2.920729 = 0.671190;
    # half z / 2.920729 * sqrt(z² / 16) = 0.328810 -> [0.342380, 1].
    estimate = mean_estimate([1.0, 1.0], None, 0.95)
    assert estimate["interval_method"] == "wilson" and estimate["mean"] == 1.0
    assert estimate["lower"] == pytest.approx(0.342380, abs=2e-6) and estimate["upper"] == 1.0
    # Scores that are not 0/1 keep the t interval even with no spread.
    assert mean_estimate([0.5, 0.5], None, 0.95)["interval_method"] == "t"

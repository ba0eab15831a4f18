"""Paired bootstrap / approximate randomisation against sacrebleu's own functions.

Both sides see the same per-segment BLEU sufficient statistics (sacrebleu's
``_extract_corpus_statistics``) and the same corpus-BLEU-from-statistics function
(sacrebleu's ``_compute_score_from_stats``, used here as the reducer). assay
mirrors sacrebleu's resampling order, so with the same seed the p-values are
*identical*, not merely close. sacrebleu sums statistics in float32; the BLEU
counts are small integers, so the sums are exact and only the resampled scores
differ, by float32 rounding (checked to 1e-6 relative).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from sacrebleu import significance
from sacrebleu.metrics import BLEU

from assay.stats import bootstrap, paired_approximate_randomization, paired_bootstrap
from assay.stats.bootstrap import resampled_scores

WORDS = "the a cat dog sat on mat rug red blue big small ran home".split()


def _corpus() -> tuple[list[str], list[str], list[str]]:
    rnd = random.Random(0)
    refs = [" ".join(rnd.choice(WORDS) for _ in range(rnd.randint(4, 12))) for _ in range(60)]

    def perturb(sentence: str, rate: float) -> str:
        return " ".join(w if rnd.random() > rate else rnd.choice(WORDS) for w in sentence.split())

    return refs, [perturb(r, 0.3) for r in refs], [perturb(r, 0.4) for r in refs]


@pytest.fixture(scope="module")
def setup() -> dict[str, object]:
    refs, hyp_a, hyp_b = _corpus()
    bleu = BLEU()
    stats_a = bleu._extract_corpus_statistics(hyp_a, [refs])
    stats_b = bleu._extract_corpus_statistics(hyp_b, [refs])

    def reducer(sums: np.ndarray) -> np.ndarray:
        return np.array([bleu._compute_score_from_stats(list(row)).score for row in sums])

    baseline = {"BLEU": (stats_a, significance.Result(bleu._aggregate_and_compute(stats_a).score))}
    return {
        "bleu": bleu,
        "refs": refs,
        "hyp_b": hyp_b,
        "a": stats_a,
        "b": stats_b,
        "reducer": reducer,
        "baseline": baseline,
    }


def _sacrebleu_result(setup: dict, test: Callable[..., Any], n_samples: int, seed: int) -> Any:
    """sacrebleu's paired test of system b against the baseline a: its BLEU result."""
    _, ref = test(
        setup["baseline"],
        "b",
        setup["hyp_b"],
        [setup["refs"]],
        {"BLEU": setup["bleu"]},
        n_samples=n_samples,
        seed=seed,
    )
    return ref["BLEU"]


@pytest.mark.parametrize("seed", [12345, 7])
def test_paired_bootstrap_p_value_identical_to_sacrebleu(setup: dict, seed: int) -> None:
    ref = _sacrebleu_result(setup, significance._paired_bs_test, 1000, seed)
    ours = paired_bootstrap(
        setup["a"], setup["b"], setup["reducer"], n_resamples=1000, seed=seed,
        count_rule="sacrebleu",
    )  # fmt: skip
    assert ours.p_value == ref.p_value
    assert ours.score_b == pytest.approx(ref.score, rel=1e-12)
    assert ours.n_resamples == 1000 and ours.seed == seed


@pytest.mark.parametrize("seed", [12345, 7])
def test_approximate_randomization_p_value_identical_to_sacrebleu(setup: dict, seed: int) -> None:
    ref = _sacrebleu_result(setup, significance._paired_ar_test, 2000, seed)
    ours = paired_approximate_randomization(
        setup["a"], setup["b"], setup["reducer"], n_trials=2000, seed=seed, count_rule="sacrebleu"
    )
    assert ours.p_value == ref.p_value and ours.count_rule == "greater"
    assert ours.n_resamples == 2000 and ours.seed == seed


def test_other_seed_agrees_within_monte_carlo_error(setup: dict) -> None:
    # A different seed is a different Monte-Carlo draw; the p-values agree within a few
    # binomial standard errors, sqrt(p (1 - p) / trials) each.
    ref = _sacrebleu_result(setup, significance._paired_ar_test, 2000, 12345)
    ours = paired_approximate_randomization(
        setup["a"], setup["b"], setup["reducer"], n_trials=2000, seed=99, count_rule="greater"
    )
    p = ref.p_value
    assert abs(ours.p_value - p) < 4 * np.sqrt(2 * p * (1 - p) / 2000)


def test_bootstrap_resamples_match_sacrebleu(setup: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    # sacrebleu's single-system resampler reads the seed from SACREBLEU_SEED (default 12345).
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    _, ref_scores = significance._bootstrap_resample(setup["a"], setup["bleu"], 300)
    ref = np.array([s.score for s in ref_scores])
    stats = np.asarray(setup["a"], dtype=np.float64)
    (ours,) = resampled_scores([stats], setup["reducer"], 300, 12345)
    np.testing.assert_allclose(ours, ref, rtol=1e-6)
    est = bootstrap(setup["a"], setup["reducer"], n_resamples=300, seed=12345)
    assert est.mean == pytest.approx(ref.mean(), rel=1e-6)

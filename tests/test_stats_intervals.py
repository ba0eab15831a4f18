"""assay.stats.intervals against hand computations written out here."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from assay.errors import InvalidInputError, InvalidOptionError, InvalidTypeError
from assay.stats import clustered_mean_interval, mean_interval, wilson_interval
from assay.stats._dist import t_quantile

Z95 = 1.959963984540054  # standard normal 0.975 quantile


@pytest.mark.parametrize(
    ("df", "table"),
    # Student t 0.975 quantiles from a printed table (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2).
    [(1, 12.706), (2, 4.303), (3, 3.182), (5, 2.571), (10, 2.228), (30, 2.042), (100, 1.984)],
)
def test_t_quantile_matches_printed_table(df: int, table: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(table, abs=5e-4)


def test_t_quantile_closed_forms() -> None:
    # df = 1 is the Cauchy distribution: q(p) = tan(pi (p - 1/2)).
    assert t_quantile(0.975, 1) == pytest.approx(math.tan(math.pi * 0.475), rel=1e-10)
    # df = 2: q(p) = (2p - 1) / sqrt(2 p (1 - p)).
    assert t_quantile(0.9, 2) == pytest.approx(0.8 / math.sqrt(2 * 0.9 * 0.1), rel=1e-10)
    assert t_quantile(0.1, 2) == pytest.approx(-0.8 / math.sqrt(2 * 0.9 * 0.1), rel=1e-10)


def test_mean_se_of_1_2_3_4_by_hand() -> None:
    # mean 2.5; squared deviations 2.25 + 0.25 + 0.25 + 2.25 = 5; s^2 = 5 / 3;
    # SE = sqrt(5/3) / sqrt(4) = sqrt(5/12); interval 2.5 +/- t_{0.975, 3} * SE.
    est = mean_interval([1, 2, 3, 4])
    se = math.sqrt(5 / 12)
    assert est.n == 4 and est.mean == 2.5 and est.status == "ok"
    assert est.se == pytest.approx(se, rel=1e-12)
    assert est.df == 3 and est.method == "t" and est.se_method == "iid"
    assert est.lower == pytest.approx(2.5 - 3.182446305 * se, abs=1e-8)
    assert est.upper == pytest.approx(2.5 + 3.182446305 * se, abs=1e-8)


def test_mean_normal_interval() -> None:
    est = mean_interval([1, 2, 3, 4], method="normal")
    se = math.sqrt(5 / 12)
    assert est.lower == pytest.approx(2.5 - Z95 * se, rel=1e-12)
    assert est.upper == pytest.approx(2.5 + Z95 * se, rel=1e-12)
    assert est.df is None


def test_mean_honest_defaults() -> None:
    empty = mean_interval([])
    assert empty.status == "empty" and empty.n == 0
    assert empty.mean is None and empty.se is None and empty.lower is None
    one = mean_interval([0.7])
    assert one.status == "not_available" and one.mean == 0.7
    assert one.se is None and one.lower is None and one.upper is None and one.df is None
    assert "2 items" in (one.reason or "")
    assert not one.available


def test_constant_values_have_zero_se_honestly() -> None:
    est = mean_interval([1.0, 1.0, 1.0])
    assert est.se == 0.0 and est.lower == est.upper == 1.0 and est.status == "ok"


def test_clustered_se_by_hand() -> None:
    # clusters A: [1, 1], B: [0, 1], C: [0, 0]; n = 6, mean = 0.5.
    # residual sums: A = 0.5 + 0.5 = 1; B = -0.5 + 0.5 = 0; C = -0.5 - 0.5 = -1.
    # Var = C/(C-1) * sum S_c^2 / n^2 = 3/2 * 2 / 36 = 1/12; df = C - 1 = 2.
    values = [1, 1, 0, 1, 0, 0]
    clusters = ["A", "A", "B", "B", "C", "C"]
    est = clustered_mean_interval(values, clusters)
    assert est.mean == 0.5 and est.n_clusters == 3 and est.df == 2
    assert est.se_method == "clustered"
    assert est.se == pytest.approx(math.sqrt(1 / 12), rel=1e-12)
    assert est.lower == pytest.approx(0.5 - 4.302652730 * math.sqrt(1 / 12), abs=1e-8)
    # The iid SE ignores the clustering and is smaller: sqrt(0.3 / 6).
    assert mean_interval(values).se == pytest.approx(math.sqrt(0.05), rel=1e-12)


def test_clustered_interleaved_keys_and_singletons() -> None:
    values = [1, 0, 1, 0, 1, 0]
    shuffled = clustered_mean_interval([1, 0, 1, 1, 0, 0], ["A", "B", "A", "B", "C", "C"])
    ordered = clustered_mean_interval([1, 1, 0, 1, 0, 0], ["A", "A", "B", "B", "C", "C"])
    assert shuffled.se == pytest.approx(ordered.se, rel=1e-12)
    # One item per cluster: C/(C-1) * sum e^2 / n^2 = sum e^2 / (n (n-1)) = iid SE^2.
    singletons = clustered_mean_interval(values, list(range(6)))
    assert singletons.se == pytest.approx(mean_interval(values).se, rel=1e-12)


def test_clustered_honest_defaults_and_errors() -> None:
    one = clustered_mean_interval([1, 0, 1], ["doc", "doc", "doc"])
    assert one.status == "not_available" and one.mean == pytest.approx(2 / 3)
    assert one.se is None and one.n_clusters == 1
    assert clustered_mean_interval([], []).status == "empty"
    with pytest.raises(InvalidInputError, match="one cluster key per item"):
        clustered_mean_interval([1, 2], ["a"])
    with pytest.raises(InvalidInputError, match="no cluster key"):
        clustered_mean_interval([1, 2], ["a", None])
    with pytest.raises(InvalidTypeError, match="unhashable"):
        clustered_mean_interval([1, 2], ["a", ["b"]])


def test_wilson_8_of_10_by_the_formula() -> None:
    k, n, z = 8, 10, Z95
    p = k / n
    centre = (p + z**2 / (2 * n)) / (1 + z**2 / n)
    half = z / (1 + z**2 / n) * math.sqrt(p * (1 - p) / n + z**2 / (4 * n**2))
    est = wilson_interval(8, 10)
    assert est.rate == 0.8 and est.k == 8 and est.n == 10 and est.method == "wilson"
    assert est.lower == pytest.approx(centre - half, rel=1e-12)
    assert est.upper == pytest.approx(centre + half, rel=1e-12)
    assert round(est.lower, 4) == 0.4902 and round(est.upper, 4) == 0.9433


@pytest.mark.parametrize(
    ("k", "n", "lower", "upper"),
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion",
    # Stat. Med. 17:857-872, Table I, method 3 (Wilson score, no continuity correction).
    [
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_matches_newcombe_table(k: int, n: int, lower: float, upper: float) -> None:
    est = wilson_interval(k, n)
    assert (round(est.lower, 4), round(est.upper, 4)) == (lower, upper)


def test_wilson_edges() -> None:
    zero = wilson_interval(0, 10)
    assert zero.lower == 0.0 and zero.rate == 0.0
    # k = 0: upper = z^2/n / (1 + z^2/n).
    assert zero.upper == pytest.approx((Z95**2 / 10) / (1 + Z95**2 / 10), rel=1e-12)
    full = wilson_interval(10, 10)
    assert full.upper == 1.0
    empty = wilson_interval(0, 0)
    assert empty.status == "empty" and empty.rate is None and empty.lower is None


def test_wilson_bad_input() -> None:
    with pytest.raises(InvalidInputError, match="0 <= k <= n"):
        wilson_interval(11, 10)
    with pytest.raises(InvalidTypeError):
        wilson_interval(1.5, 10)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="confidence"):
        wilson_interval(1, 10, confidence=95)


def test_bad_values_are_typed_errors() -> None:
    with pytest.raises(InvalidInputError, match="item 1 is NaN"):
        mean_interval([1.0, float("nan")])
    with pytest.raises(InvalidTypeError):
        mean_interval(["a", "b"])
    with pytest.raises(InvalidInputError, match="one-dimensional"):
        mean_interval([[1, 2], [3, 4]])
    with pytest.raises(InvalidOptionError, match="interval method"):
        mean_interval([1, 2], method="z")


def test_to_dict_is_canonical_json() -> None:
    record = mean_interval(np.array([1.0, 2.0, 3.0, 4.0])).to_dict()
    assert list(record) == sorted(record)
    assert json.loads(json.dumps(record)) == record
    assert record["status"] == "ok" and record["confidence"] == 0.95
    assert mean_interval([]).to_dict()["mean"] is None
    assert wilson_interval(8, 10).to_dict()["k"] == 8

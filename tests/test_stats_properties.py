"""Property tests (hypothesis) for assay.stats invariants."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from assay.stats import (
    bootstrap,
    clustered_mean_interval,
    holm,
    mcnemar_exact,
    mean_interval,
    paired_approximate_randomization,
    paired_difference,
    wilson_interval,
)

scores = st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=2, max_size=40)
unit = st.lists(st.floats(0.0, 1.0), min_size=2, max_size=30)
FAST = settings(max_examples=60, deadline=None)


@FAST
@given(scores)
def test_mean_interval_contains_mean(values: list[float]) -> None:
    est = mean_interval(values)
    assert est.lower is not None and est.upper is not None and est.mean is not None
    assert est.lower <= est.mean <= est.upper
    assert est.se is not None and est.se >= 0


@FAST
@given(st.integers(1, 10_000), st.data())
def test_wilson_within_unit_interval(n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, n))
    est = wilson_interval(k, n)
    assert est.rate is not None and est.lower is not None and est.upper is not None
    assert 0.0 <= est.lower <= est.rate <= est.upper <= 1.0


@FAST
@given(unit, st.data())
def test_clustered_interval_contains_mean(values: list[float], data: st.DataObject) -> None:
    keys = data.draw(st.lists(st.sampled_from("abcd"), min_size=len(values), max_size=len(values)))
    est = clustered_mean_interval(values, keys)
    if est.status == "ok":
        assert est.lower is not None and est.upper is not None and est.mean is not None
        assert est.lower <= est.mean <= est.upper
    else:
        assert len(set(keys)) == 1 and est.se is None


@settings(max_examples=25, deadline=None)
@given(unit, st.integers(0, 2**32))
def test_bootstrap_interval_and_determinism(values: list[float], seed: int) -> None:
    est = bootstrap(values, n_resamples=50, seed=seed)
    assert est.lower is not None and est.upper is not None
    assert min(values) - 1e-12 <= est.lower <= est.upper <= max(values) + 1e-12
    again = bootstrap(values, n_resamples=50, seed=seed)
    assert json.dumps(est.to_dict()) == json.dumps(again.to_dict())


@FAST
@given(unit, st.data())
def test_paired_difference_interval_contains_difference(
    a: list[float], data: st.DataObject
) -> None:
    b = data.draw(st.lists(st.floats(0.0, 1.0), min_size=len(a), max_size=len(a)))
    res = paired_difference(a, b)
    assert res.lower is not None and res.upper is not None and res.difference is not None
    assert res.lower <= res.difference <= res.upper
    if res.correlation is not None:
        assert -1.0 <= res.correlation <= 1.0


@settings(max_examples=20, deadline=None)
@given(unit, st.data())
def test_approximate_randomization_p_in_range(a: list[float], data: st.DataObject) -> None:
    b = data.draw(st.lists(st.floats(0.0, 1.0), min_size=len(a), max_size=len(a)))
    res = paired_approximate_randomization(a, b, n_trials=50, seed=0)
    assert res.p_value is not None and 1 / 51 <= res.p_value <= 1.0


@FAST
@given(st.lists(st.booleans(), min_size=1, max_size=60), st.data())
def test_mcnemar_symmetric_and_in_range(a: list[bool], data: st.DataObject) -> None:
    b = data.draw(st.lists(st.booleans(), min_size=len(a), max_size=len(a)))
    forward, backward = mcnemar_exact(a, b), mcnemar_exact(b, a)
    assert forward.p_value == backward.p_value
    assert forward.p_value is not None and 0.0 < forward.p_value <= 1.0


@FAST
@given(st.lists(st.floats(0.0, 1.0), max_size=20))
def test_holm_adjusted_dominates_raw_and_keeps_order(p_values: list[float]) -> None:
    res = holm(p_values)
    for raw, adjusted in zip(res.p_values, res.adjusted, strict=True):
        assert raw <= adjusted <= 1.0
    pairs = sorted(zip(res.p_values, res.adjusted, strict=True))
    assert all(x[1] <= y[1] for x, y in zip(pairs, pairs[1:], strict=False))

"""Analytic intervals: mean with standard error, clustered standard error, Wilson rates.

Formulas (n items with values y_i, mean m):

* **Mean, iid standard error.** ``s^2 = sum (y_i - m)^2 / (n - 1)``, ``SE = s / sqrt(n)``.
  The interval is ``m +/- q * SE`` with ``q`` the Student t quantile on ``n - 1``
  degrees of freedom (``method="t"``, the default: honest for small n, and within
  1 % of the normal quantile from n = 60 on) or the standard normal quantile
  (``method="normal"``).
* **Clustered standard error** (items sharing a key, e.g. questions about the same
  document; Cameron & Miller 2015, "A Practitioner's Guide to Cluster-Robust
  Inference", eq. 11 with one regressor): with C clusters and residual sums
  ``S_c = sum_{i in c} (y_i - m)``, ``Var(m) = C / (C - 1) * sum_c S_c^2 / n^2``.
  The interval uses the t quantile on ``C - 1`` degrees of freedom (Stata's
  convention). With every item in its own cluster this equals the iid SE.
* **Wilson score interval** for a rate k/n (Wilson 1927)::

      centre = (p + z^2 / 2n) / (1 + z^2 / n)
      half   = z / (1 + z^2 / n) * sqrt(p (1 - p) / n + z^2 / 4n^2)

Honest defaults: an empty input gives ``status="empty"`` and ``None`` for every
number (never 0.0). One item (one cluster) has a mean but no standard error:
``status="not_available"`` and ``None`` for the SE and bounds (never +/- 0).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from assay.errors import InvalidInputError, InvalidOptionError, InvalidTypeError
from assay.stats._common import (
    EMPTY,
    NOT_AVAILABLE,
    OK,
    FloatArray,
    as_values,
    check_confidence,
    record_dict,
)
from assay.stats._dist import normal_quantile, t_quantile

INTERVAL_METHODS = ("t", "normal")


@dataclass(frozen=True, slots=True)
class MeanEstimate:
    """A mean with its standard error and interval.

    Attributes:
        n: number of items.
        mean: the mean, or ``None`` when ``n == 0``.
        se: standard error, or ``None`` when it is not available.
        lower: lower interval bound, or ``None``.
        upper: upper interval bound, or ``None``.
        confidence: nominal coverage of the interval (0.95).
        method: quantile used for the interval: ``"t"`` or ``"normal"``.
        df: degrees of freedom of the t quantile (``None`` for normal or when unavailable).
        se_method: ``"iid"`` or ``"clustered"``.
        n_clusters: number of clusters for the clustered SE, else ``None``.
        status: ``"ok"``, ``"empty"`` (no items) or ``"not_available"`` (too few items).
        reason: why a number is missing, else ``None``.
    """

    n: int
    mean: float | None
    se: float | None
    lower: float | None
    upper: float | None
    confidence: float
    method: str
    df: int | None
    se_method: str
    n_clusters: int | None
    status: str
    reason: str | None

    @property
    def available(self) -> bool:
        """Whether the standard error and interval exist."""
        return self.status == OK

    def to_dict(self) -> dict[str, Any]:
        """Return the canonical JSON form (sorted keys; missing numbers are ``None``)."""
        return record_dict(self)


@dataclass(frozen=True, slots=True)
class RateEstimate:
    """A rate k/n with its Wilson score interval.

    Attributes:
        k: number of successes.
        n: number of trials.
        rate: ``k / n``, or ``None`` when ``n == 0``.
        lower: lower Wilson bound, or ``None`` when ``n == 0``.
        upper: upper Wilson bound, or ``None`` when ``n == 0``.
        confidence: nominal coverage (0.95).
        method: ``"wilson"``.
        status: ``"ok"`` or ``"empty"``.
        reason: why the numbers are missing, else ``None``.
    """

    k: int
    n: int
    rate: float | None
    lower: float | None
    upper: float | None
    confidence: float
    method: str
    status: str
    reason: str | None

    def to_dict(self) -> dict[str, Any]:
        """Return the canonical JSON form (sorted keys; missing numbers are ``None``)."""
        return record_dict(self)


def _check_method(method: str) -> str:
    """Return ``method`` if it names an interval method."""
    if method not in INTERVAL_METHODS:
        raise InvalidOptionError(
            f"interval method must be one of {', '.join(INTERVAL_METHODS)}, got {method!r}."
        )
    return method


def interval_quantile(confidence: float, method: str, df: int) -> float:
    """Return the two-sided quantile for ``confidence`` (t on ``df`` degrees, or normal)."""
    _check_method(method)
    upper_tail = 0.5 + confidence / 2.0
    return t_quantile(upper_tail, df) if method == "t" else normal_quantile(upper_tail)


def _estimate(
    n: int,
    mean: float | None,
    se: float | None,
    *,
    confidence: float,
    method: str,
    df: int | None,
    se_method: str = "iid",
    n_clusters: int | None = None,
    reason: str | None = None,
) -> MeanEstimate:
    """Build a :class:`MeanEstimate`, deriving bounds and status from ``se``."""
    lower = upper = None
    if mean is None:
        status = EMPTY
    elif se is None or df is None:
        status, df = NOT_AVAILABLE, None
    else:
        half = interval_quantile(confidence, method, df) * se
        lower, upper, status = mean - half, mean + half, OK
        df = df if method == "t" else None
    return MeanEstimate(
        n=n,
        mean=mean,
        se=se,
        lower=lower,
        upper=upper,
        confidence=confidence,
        method=method,
        df=df,
        se_method=se_method,
        n_clusters=n_clusters,
        status=status,
        reason=reason,
    )


def mean_interval(
    values: ArrayLike, *, confidence: float = 0.95, method: str = "t"
) -> MeanEstimate:
    """Return the mean of per-item values with its analytic SE (n - 1) and interval.

    Args:
        values: per-item scores (finite numbers).
        confidence: nominal coverage of the two-sided interval.
        method: ``"t"`` (Student t on n - 1 degrees of freedom) or ``"normal"``.

    Returns:
        A :class:`MeanEstimate`; ``status`` is ``"empty"`` for no items and
        ``"not_available"`` (SE and bounds ``None``) for a single item.

    Raises:
        InvalidInputError: values hold NaN/inf or are not one-dimensional.
        InvalidOptionError: bad ``confidence`` or ``method``.
    """
    confidence = check_confidence(confidence)
    _check_method(method)
    array = as_values(values)
    n = int(array.size)
    if n == 0:
        return _estimate(
            0, None, None, confidence=confidence, method=method, df=None, reason="no items"
        )
    mean = float(array.mean())
    if n < 2:
        reason = "a standard error needs at least 2 items"
        return _estimate(
            n, mean, None, confidence=confidence, method=method, df=None, reason=reason
        )
    se = float(array.std(ddof=1)) / math.sqrt(n)
    return _estimate(n, mean, se, confidence=confidence, method=method, df=n - 1)


def _cluster_ids(clusters: Sequence[Hashable], n: int) -> list[int]:
    """Map cluster keys to dense integer ids in order of first appearance."""
    if len(clusters) != n:
        raise InvalidInputError(
            f"clusters: expected one cluster key per item ({n} items), got {len(clusters)}."
        )
    ids: dict[Hashable, int] = {}
    out: list[int] = []
    for position, key in enumerate(clusters):
        if key is None:
            raise InvalidInputError(
                f"clusters: item {position} has no cluster key (None); give every item a key, "
                "or use mean_interval for independent items."
            )
        try:
            out.append(ids.setdefault(key, len(ids)))
        except TypeError:
            raise InvalidTypeError(
                f"clusters: item {position} has an unhashable key {key!r}; use a string or int."
            ) from None
    return out


def clustered_se(values: FloatArray, cluster_ids: Sequence[int]) -> tuple[float, int]:
    """Return (cluster-robust SE of the mean, number of clusters); needs >= 2 clusters."""
    n = values.size
    ids = np.asarray(cluster_ids, dtype=np.intp)
    n_clusters = int(ids.max()) + 1
    residual_sums = np.bincount(ids, weights=values - values.mean(), minlength=n_clusters)
    variance = n_clusters / (n_clusters - 1) * float(np.sum(residual_sums**2)) / (n * n)
    return math.sqrt(variance), n_clusters


def clustered_mean_interval(
    values: ArrayLike,
    clusters: Sequence[Hashable],
    *,
    confidence: float = 0.95,
    method: str = "t",
) -> MeanEstimate:
    """Return the item mean with a cluster-robust SE and interval.

    Args:
        values: per-item scores.
        clusters: one hashable cluster key per item (e.g. the source document id).
        confidence: nominal coverage of the two-sided interval.
        method: ``"t"`` (t on C - 1 degrees of freedom) or ``"normal"``.

    Returns:
        A :class:`MeanEstimate` with ``se_method="clustered"``; ``"not_available"``
        when there are fewer than two clusters, ``"empty"`` when there are no items.

    Raises:
        InvalidInputError: lengths differ, a key is missing, or values are not finite.
    """
    confidence = check_confidence(confidence)
    _check_method(method)
    array = as_values(values)
    ids = _cluster_ids(clusters, int(array.size))
    n = int(array.size)
    common: dict[str, Any] = {"confidence": confidence, "method": method, "se_method": "clustered"}
    if n == 0:
        return _estimate(0, None, None, df=None, n_clusters=0, reason="no items", **common)
    mean = float(array.mean())
    n_clusters = max(ids) + 1
    if n_clusters < 2:
        reason = "a clustered standard error needs at least 2 clusters"
        return _estimate(n, mean, None, df=None, n_clusters=n_clusters, reason=reason, **common)
    se, n_clusters = clustered_se(array, ids)
    return _estimate(n, mean, se, df=n_clusters - 1, n_clusters=n_clusters, **common)


def _check_counts(k: int, n: int) -> None:
    """Raise unless ``0 <= k <= n`` are integers."""
    for name, value in (("k", k), ("n", n)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise InvalidTypeError(f"wilson_interval: {name} must be an integer, got {value!r}.")
    if n < 0 or k < 0 or k > n:
        raise InvalidInputError(
            f"wilson_interval: need 0 <= k <= n, got k={k}, n={n} "
            "(k counts successes among n trials)."
        )


def wilson_interval(k: int, n: int, confidence: float = 0.95) -> RateEstimate:
    """Return the rate k/n with its Wilson score interval.

    The interval is defined for every n >= 1 (for n = 1 it is wide, as it should
    be); n = 0 gives ``status="empty"`` with ``None`` numbers, never 0.0.

    Args:
        k: successes.
        n: trials.
        confidence: nominal coverage of the two-sided interval.

    Raises:
        InvalidTypeError: k or n is not an integer.
        InvalidInputError: not ``0 <= k <= n``.
        InvalidOptionError: bad ``confidence``.
    """
    confidence = check_confidence(confidence)
    _check_counts(k, n)
    k, n = int(k), int(n)
    if n == 0:
        return RateEstimate(k, n, None, None, None, confidence, "wilson", EMPTY, "no trials")
    p = k / n
    z = normal_quantile(0.5 + confidence / 2.0)
    z2 = z * z
    denominator = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1.0 - p) / n + z2 / (4 * n * n))
    lower = 0.0 if k == 0 else max(0.0, centre - half)
    upper = 1.0 if k == n else min(1.0, centre + half)
    return RateEstimate(k, n, p, lower, upper, confidence, "wilson", OK, None)

"""Exact-match metrics.

``exact_match``
    1.0 if ``prediction.strip()`` equals any ``target.strip()``, else 0.0
    (normalizer ``strip``; case, punctuation and inner spacing all count).
``accuracy``
    Exact match against the single target after the ``lower-space`` normalizer:
    ``str.lower()``, surrounding whitespace removed, inner whitespace runs collapsed
    to one space. Nothing else is changed: punctuation, articles, accents and
    Unicode forms count. Exactly one target is allowed.

Edge cases (both metrics): empty vs empty → 1; empty vs non-empty → 0;
whitespace-only equals empty; punctuation-only texts must match exactly.
"""

from __future__ import annotations

from assay.metrics.base import MetricSpec, Settings


def normalized_equal(prediction: str, target: str, settings: Settings) -> float:
    """1.0 if the normalised prediction equals the normalised target, else 0.0."""
    return 1.0 if settings.normalize(prediction) == settings.normalize(target) else 0.0


_EDGES = {
    "empty prediction": "0 unless the target is empty or whitespace-only",
    "empty target": "1 only for an empty or whitespace-only prediction",
    "both empty": "1",
    "whitespace-only": "same as empty",
    "punctuation-only": "compared literally",
    "no shared tokens": "0",
    "exact match": "1",
    "repeated tokens": "compared literally ('a a' ≠ 'a')",
}

METRICS = (
    MetricSpec(
        name="exact_match",
        fn=normalized_equal,
        description="1 if the stripped prediction equals any stripped target",
        citation="exact string match after stripping surrounding whitespace",
        family="qa",
        normalizer="strip",
        multi="max",
        edge_cases=_EDGES,
    ),
    MetricSpec(
        name="accuracy",
        fn=normalized_equal,
        description="exact match with the single target after lowercasing and whitespace collapse",
        citation="exact match after str.lower(), strip and whitespace collapse",
        family="qa",
        normalizer="lower-space",
        multi="single",
        edge_cases=_EDGES,
    ),
)

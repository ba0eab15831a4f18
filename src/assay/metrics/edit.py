"""Edit-distance metrics: ANLS (Biten et al. 2019) and plain edit similarity.

``edit_similarity``: ``1 − lev(p, t) / max(len p, len t)`` over code points after
the ``lower-space`` normalizer (lowercase, strip, collapse whitespace); both empty
→ 1, exactly one empty → 0. Max over targets. Levenshtein distance from rapidfuzz.

``anls``: the same similarity, kept when ``≥ threshold`` (default 0.5; exactly 0.5
is kept, as in the official DocVQA script's ``< threshold → 0`` test), else 0.

``anls.docvqa``: the official DocVQA script's arithmetic, including its quirk: the
distance is computed on the normalised texts but divided by
``max(len(target.upper()), len(prediction.upper()))`` of the *raw* texts. Leading,
trailing or repeated spaces therefore inflate the denominator and raise the score
(``"  paris  "`` vs ``"paris"`` → 1 − 0/9). Both raw texts empty → 1.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rapidfuzz.distance import Levenshtein

from assay.metrics.base import MetricSpec, Param, Settings, check_probability
from assay.text.normalize import normalize_lower_space

PARALLEL_FROM = 100_000
"""Code points of a corpus's predictions from which ``edit_similarity`` uses threads."""
LONG_TEXT = 256
"""Mean prediction length (code points) from which ``edit_similarity`` uses threads."""
PARALLEL_WORKERS = -1
"""rapidfuzz ``workers`` for such corpora: one thread per core."""


def similarity(a: str, b: str) -> float:
    """``1 − lev(a, b) / max(len a, len b)``; both empty → 1.0."""
    longest = max(len(a), len(b))
    if longest == 0:
        return 1.0
    return 1.0 - Levenshtein.distance(a, b) / longest


def similarity_bound(a: str, b: str) -> float:
    """An upper bound of :func:`similarity` from the lengths alone (no distance computed).

    The distance is at least the length difference, and ``1 − d / n`` only falls as
    ``d`` grows (in floating point too), so ``similarity_bound(a, b) < t`` proves
    ``similarity(a, b) < t``.
    """
    longest = max(len(a), len(b))
    if longest == 0:
        return 1.0
    return 1.0 - abs(len(a) - len(b)) / longest


def kept_distance(length: int, threshold: float) -> int:
    """The largest distance ``d`` with ``1.0 − d / length ≥ threshold`` (both > 0).

    ``d / length`` only grows with ``d`` (in floating point too), so the distances whose
    similarity is kept are exactly ``0 … kept_distance``; the integer guess is corrected
    by evaluating the very expression the metrics test.
    """
    d = int(length * (1.0 - threshold))
    while d > 0 and not 1.0 - d / length >= threshold:
        d -= 1
    while 1.0 - (d + 1) / length >= threshold:
        d += 1
    return d


def distance_if_kept(a: str, b: str, length: int, threshold: float) -> int | None:
    """``lev(a, b)`` when ``1 − lev / length ≥ threshold``, else ``None`` (``length`` > 0).

    With a threshold above 0 the distance is computed only as far as the threshold needs
    (rapidfuzz's ``score_cutoff`` bounds its work), the same integer when it is kept.
    """
    if threshold <= 0:
        return Levenshtein.distance(a, b)
    cutoff = kept_distance(length, threshold)
    distance = Levenshtein.distance(a, b, score_cutoff=cutoff)
    return distance if distance <= cutoff else None


def thresholded_similarity(a: str, b: str, threshold: float) -> float:
    """:func:`similarity` when it is ``≥ threshold``, else 0 (the distance cut off early)."""
    longest = max(len(a), len(b))
    if longest == 0:
        return 1.0
    distance = distance_if_kept(a, b, longest, threshold)
    if distance is None:
        return 0.0
    value = 1.0 - distance / longest
    return value if value >= threshold else 0.0


def _edit_similarity(prediction: str, target: str, s: Settings) -> float:
    return similarity(s.normalize(prediction), s.normalize(target))


def _anls(prediction: str, target: str, s: Settings) -> float:
    return thresholded_similarity(s.normalize(prediction), s.normalize(target),
                                  s.params["threshold"])  # fmt: skip


def _best_similarity_batch(
    predictions: Sequence[str],
    targets_list: Sequence[Sequence[str]],
    normalize: Callable[[str], str],
    threshold: float,
) -> list[float]:
    """Per item the best :func:`thresholded_similarity` over its targets, each text normalised once.

    The same arithmetic as :func:`thresholded_similarity`: with a threshold above 0 the
    distance is cut off at :func:`kept_distance` of the longer length (memoised per
    length); with threshold 0 it is plain :func:`similarity`.
    """
    distance = Levenshtein.distance
    cutoffs: dict[int, int] = {}  # kept_distance per length
    out: list[float] = []
    for prediction, targets in zip(predictions, targets_list, strict=True):
        pred = normalize(prediction)
        best = 0.0
        for target in targets:
            text = normalize(target)
            longest = len(pred) if len(pred) > len(text) else len(text)
            if longest == 0:
                value = 1.0
            elif threshold <= 0:
                value = 1.0 - distance(pred, text) / longest
            else:
                cutoff = cutoffs.get(longest)
                if cutoff is None:
                    cutoff = cutoffs[longest] = kept_distance(longest, threshold)
                d = distance(pred, text, score_cutoff=cutoff)
                value = 0.0 if d > cutoff else 1.0 - d / longest
            if value >= threshold and value > best:
                best = value
        out.append(best)
    return out


def _edit_similarity_batch(
    predictions: Sequence[str], targets_list: Sequence[Sequence[str]], s: Settings
) -> list[float]:
    """:func:`_edit_similarity` for a corpus: the best similarity, no threshold.

    Once the predictions hold ``PARALLEL_FROM`` code points, ``LONG_TEXT`` per item on
    average, every (prediction,
    target) pair's distance comes from one ``process.cpdist`` call in
    ``PARALLEL_WORKERS`` threads (rapidfuzz's batch API: the same C++ distance, exact
    integers); the similarity is then the arithmetic of :func:`similarity`, best over
    the targets (0 with none). Smaller corpora keep the loop of
    :func:`_best_similarity_batch`: there the pair lists and threads cost more than
    the distances.
    """
    chars = sum(map(len, predictions))
    if chars < PARALLEL_FROM or chars < LONG_TEXT * len(predictions):
        return _best_similarity_batch(predictions, targets_list, s.normalize, 0.0)
    from rapidfuzz import process

    normalize = s.normalize
    left: list[str] = []
    right: list[str] = []
    sizes: list[int] = []
    for prediction, targets in zip(predictions, targets_list, strict=True):
        pred = normalize(prediction)
        texts = [normalize(target) for target in targets]
        left += [pred] * len(texts)
        right += texts
        sizes.append(len(texts))
    distances: list[int] = (
        process.cpdist(left, right, scorer=Levenshtein.distance, workers=PARALLEL_WORKERS).tolist()
        if left
        else []
    )
    out: list[float] = []
    k = 0
    for size in sizes:
        best = 0.0
        for a, b, d in zip(left[k : k + size], right[k : k + size], distances[k : k + size],
                           strict=True):  # fmt: skip
            longest = len(a) if len(a) > len(b) else len(b)
            value = 1.0 if longest == 0 else 1.0 - d / longest
            if value > best:
                best = value
        out.append(best)
        k += size
    return out


def _anls_batch(
    predictions: Sequence[str], targets_list: Sequence[Sequence[str]], s: Settings
) -> list[float]:
    """:func:`_anls` for a corpus: the best similarity at the metric's threshold."""
    return _best_similarity_batch(predictions, targets_list, s.normalize, s.params["threshold"])


def _anls_docvqa(prediction: str, target: str, s: Settings) -> float:
    length = max(len(target.upper()), len(prediction.upper()))
    if length == 0:
        return 1.0
    threshold = s.params["threshold"]
    distance = distance_if_kept(
        normalize_lower_space(target), normalize_lower_space(prediction), length, threshold
    )
    if distance is None:
        return 0.0
    value = max(0.0, 1.0 - distance / length)
    return value if value >= threshold else 0.0


_THRESHOLD = Param("threshold", 0.5, "thr", check_probability, "similarity below this → 0")
_EDGES = {
    "empty prediction": "0 unless the target is empty or whitespace-only",
    "empty target": "0 unless the prediction is empty or whitespace-only",
    "both empty": "1",
    "whitespace-only": "same as empty after normalisation",
    "punctuation-only": "compared as characters",
    "no shared tokens": "character similarity, usually below the threshold",
    "exact match": "1 (case and spacing ignored)",
    "repeated tokens": "compared as characters",
}

METRICS = (
    MetricSpec(
        name="anls",
        fn=_anls,
        description="average normalised Levenshtein similarity, thresholded (0.5 kept)",
        citation="Biten et al. 2019, Scene Text VQA (ANLS)",
        family="edit",
        normalizer="lower-space",
        params=(_THRESHOLD,),
        edge_cases=_EDGES,
        batch_fn=_anls_batch,
    ),
    MetricSpec(
        name="anls.docvqa",
        fn=_anls_docvqa,
        description="ANLS as the official DocVQA script computes it (raw-length denominator)",
        citation="Mathew et al. 2021, DocVQA official evaluation script",
        family="edit",
        normalizer="lower-space",
        fixed_text=True,
        params=(_THRESHOLD,),
        edge_cases={**_EDGES, "whitespace-only": "raw length inflates the denominator"},
    ),
    MetricSpec(
        name="edit_similarity",
        fn=_edit_similarity,
        description="1 − Levenshtein distance / max length (no threshold)",
        citation="Levenshtein 1966; normalised by the longer string",
        family="edit",
        normalizer="lower-space",
        edge_cases=_EDGES,
        batch_fn=_edit_similarity_batch,
    ),
)

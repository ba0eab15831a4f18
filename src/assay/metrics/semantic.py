"""Offline semantic similarity over static token embeddings (extra ``assay[semantic]``).

Both metrics use the model shipped inside the ``wordllama`` wheel
(:mod:`assay.metrics.static_embeddings`: Llama-2 tokenizer, 256-dimensional static
embedding per token; no download at run time). Texts are tokenised by that model's
tokenizer (no special tokens), so ``tokenizer``/``normalizer`` are fixed.

``embedding_cosine`` — mean-pooled sentence cosine, as ``wordllama``'s
``WordLlamaInference.similarity`` computes it (average of the token vectors, then
cosine)::

    u = mean(E[pred tokens]),  v = mean(E[target tokens])
    embedding_cosine = max(0, u·v / (|u| |v|))

``greedy_match`` — greedy token matching over static token embeddings, the
arithmetic of BERTScore (Zhang et al. 2020, without idf weighting and without
baseline rescaling) applied to *static* (context-free) vectors, hence not called
BERTScore::

    s(i, j)   = cos(E[pred_i], E[target_j])
    precision = mean_i max_j s(i, j),   recall = mean_j max_i s(i, j)
    f         = 2·P·R / (P + R)

``measure`` picks ``f`` (default), ``p`` or ``r``.

Edge cases (both metrics): no tokens on both sides (only the empty string has
none: spaces, newlines and punctuation are tokens) → 1.0; no tokens on one side →
0.0. A cosine below 0 (opposed directions) counts as 0, and rounding above 1 as 1,
so every value is in [0, 1] like every other assay metric; P and R are clipped the
same way before F. A token compared with the same token has similarity exactly 1
(and texts with the same token multiset have ``embedding_cosine`` exactly 1), so
float rounding cannot turn a perfect match into 0.9999999999999999. Multi-target:
the max over targets. The signature records the model name, the ``wordllama``
version and a SHA-256 prefix of the weights file.
Computation is float64 over the float32 weights, deterministic for a given model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay.metrics import static_embeddings
from assay.metrics.base import MetricSpec, Param, Settings
from assay.metrics.rouge import check_measure

if TYPE_CHECKING:
    from assay.metrics.static_embeddings import Matrix


def _clip(value: float) -> float:
    return min(1.0, max(0.0, value))


def _unit_rows(matrix: Matrix) -> Matrix:
    import numpy as np

    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    unit = np.zeros_like(matrix)
    np.divide(matrix, norms, out=unit, where=norms > 0)
    return unit


def mean_pooled_cosine(prediction: str, target: str) -> float:
    """``embedding_cosine`` of two texts (see the module docstring)."""
    model = static_embeddings.load()
    ids_u, ids_v = model.token_ids(prediction), model.token_ids(target)
    if not ids_u or not ids_v:
        return 1.0 if ids_u == ids_v else 0.0
    if sorted(ids_u) == sorted(ids_v):  # the same tokens: the same mean, cosine 1 exactly
        return 1.0
    u, v = model.vectors(ids_u), model.vectors(ids_v)
    a, b = u.mean(axis=0), v.mean(axis=0)
    norm = float((a @ a) ** 0.5 * (b @ b) ** 0.5)
    return _clip(float(a @ b) / norm) if norm > 0 else 0.0


def greedy_match_prf(prediction: str, target: str) -> tuple[float, float, float]:
    """Greedy-matching precision, recall and F of two texts (see the module docstring)."""
    model = static_embeddings.load()
    ids_x, ids_y = model.token_ids(prediction), model.token_ids(target)
    if not ids_x or not ids_y:
        same = 1.0 if ids_x == ids_y else 0.0
        return same, same, same
    sims = _unit_rows(model.vectors(ids_x)) @ _unit_rows(model.vectors(ids_y)).T
    same_token = [[i == j for j in ids_y] for i in ids_x]
    sims[same_token] = 1.0  # a token against itself: cosine 1 exactly
    precision = _clip(float(sims.max(axis=1).mean()))
    recall = _clip(float(sims.max(axis=0).mean()))
    total = precision + recall
    f = 2 * precision * recall / total if total > 0 else 0.0
    return precision, recall, _clip(f)


def _embedding_cosine(prediction: str, target: str, s: Settings) -> float:
    return mean_pooled_cosine(prediction, target)


def _greedy_match(prediction: str, target: str, s: Settings) -> float:
    p, r, f = greedy_match_prf(prediction, target)
    return {"p": p, "r": r, "f": f}[s.params["measure"]]


_EDGES = {
    "empty prediction": "0 (1 if the target has no tokens either)",
    "empty target": "0 (1 if the prediction has no tokens either)",
    "both empty": "1",
    "whitespace-only": "scored: the tokenizer has tokens for spaces and newlines",
    "punctuation-only": "scored: punctuation has tokens and vectors",
    "exact match": "1",
}

METRICS = (
    MetricSpec(
        name="embedding_cosine",
        fn=_embedding_cosine,
        description="mean-pooled sentence cosine over wordllama static embeddings (offline)",
        citation="wordllama l2_supercat_256 (Lee Miller 2024, MIT licence), mean pooling + cosine",
        family="semantic",
        fixed_text=True,
        edge_cases=_EDGES,
        model_parts=static_embeddings.model_parts,
    ),
    MetricSpec(
        name="greedy_match",
        fn=_greedy_match,
        description="greedy token matching P/R/F over static token embeddings (offline)",
        citation="BERTScore's greedy matching (Zhang et al. 2020) over wordllama static "
        "token embeddings",
        family="semantic",
        fixed_text=True,
        params=(Param("measure", "f", "measure", check_measure, "f, p or r"),),
        edge_cases=_EDGES,
        model_parts=static_embeddings.model_parts,
    ),
)

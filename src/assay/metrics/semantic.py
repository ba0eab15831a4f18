r"""Offline semantic similarity over static token embeddings (extra ``assay[semantic]``).

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
the max over targets. A lone surrogate (``"\ud800"`` in JSON; not UTF-8, so the
tokenizer cannot take it) is scored as a character the vocabulary lacks: the byte tokens
of its three ``surrogatepass`` bytes (:mod:`assay.metrics.static_embeddings`). The
signature records the model name, the ``wordllama`` version and a SHA-256 prefix of the
weights file.
Computation is float64 over the float32 weights, deterministic for a given model.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from assay.metrics import static_embeddings
from assay.metrics.base import MetricSpec, Param, Settings
from assay.metrics.rouge import check_measure

if TYPE_CHECKING:
    from assay.metrics.static_embeddings import Matrix, StaticEmbeddings

_NO_SETTINGS = Settings(tokenize=str.split, normalize=str, params={"measure": "f"})


def _clip(value: float) -> float:
    return min(1.0, max(0.0, value))


def _unit_rows(matrix: Matrix) -> Matrix:
    import numpy as np

    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    unit = np.zeros_like(matrix)
    np.divide(matrix, norms, out=unit, where=norms > 0)
    return unit


def _pooled(model: StaticEmbeddings, ids: list[int]) -> Matrix:
    """The mean of the token vectors, accumulated in float64 row after row."""
    import numpy as np

    total = np.add.reduce(model.weights[ids], axis=0, dtype=np.float64)
    return total / len(ids)  # type: ignore[no-any-return]


def _cosine_of_ids(model: StaticEmbeddings, ids_u: list[int], ids_v: list[int]) -> float:
    if not ids_u or not ids_v:
        return 1.0 if ids_u == ids_v else 0.0
    if len(ids_u) == len(ids_v) and sorted(ids_u) == sorted(ids_v):
        return 1.0  # the same tokens: the same mean, cosine 1 exactly
    a, b = _pooled(model, ids_u), _pooled(model, ids_v)
    norm = float((a @ a) ** 0.5 * (b @ b) ** 0.5)
    return _clip(float(a @ b) / norm) if norm > 0 else 0.0


def mean_pooled_cosine(prediction: str, target: str) -> float:
    """``embedding_cosine`` of two texts (see the module docstring)."""
    return _embedding_cosine_batch([prediction], [[target]], _NO_SETTINGS)[0]


def _distinct(ids: list[int]) -> tuple[list[int], list[int]]:
    """The distinct ids, sorted, and each id's position among them."""
    distinct = sorted(set(ids))
    where = {token: i for i, token in enumerate(distinct)}
    return distinct, [where[token] for token in ids]


class _UnitVectors:
    """Unit-length float64 rows of the token ids of one corpus, each computed once."""

    def __init__(self, model: StaticEmbeddings, id_lists: Sequence[list[int]]) -> None:
        import numpy as np

        ids = sorted({token for ids in id_lists for token in ids})
        self.row = {token: i for i, token in enumerate(ids)}
        self.unit = _unit_rows(model.weights[ids].astype(np.float64))

    def greedy_prf(self, ids_x: list[int], ids_y: list[int]) -> tuple[float, float, float]:
        """Greedy-matching P, R and F of two token-id lists (module docstring).

        Each distinct token is compared once: a row's best match depends only on
        its token, so the best values are spread back over the repeated tokens.
        """
        if not ids_x or not ids_y:
            same = 1.0 if ids_x == ids_y else 0.0
            return same, same, same
        (ux, inv_x), (uy, inv_y) = _distinct(ids_x), _distinct(ids_y)
        row = self.row
        sims = self.unit[[row[t] for t in ux]] @ self.unit[[row[t] for t in uy]].T
        col = {token: j for j, token in enumerate(uy)}
        matched = [(i, col[t]) for i, t in enumerate(ux) if t in col]
        if matched:  # a token against itself: cosine 1 exactly
            sims[tuple(zip(*matched, strict=True))] = 1.0
        precision = _clip(float(sims.max(axis=1)[inv_x].mean()))
        recall = _clip(float(sims.max(axis=0)[inv_y].mean()))
        total = precision + recall
        f = 2 * precision * recall / total if total > 0 else 0.0
        return precision, recall, _clip(f)


def greedy_match_prf(prediction: str, target: str) -> tuple[float, float, float]:
    """Greedy-matching precision, recall and F of two texts (see the module docstring)."""
    model = static_embeddings.load()
    ids_x, ids_y = model.token_id_lists([prediction, target])
    return _UnitVectors(model, [ids_x, ids_y]).greedy_prf(ids_x, ids_y)


def _split(
    predictions: Sequence[str], targets_list: Sequence[Sequence[str]]
) -> tuple[StaticEmbeddings, list[list[int]], list[list[list[int]]]]:
    """Token ids of every prediction and target, each distinct text tokenised once."""
    model = static_embeddings.load()
    texts = list(dict.fromkeys([*predictions, *(t for ts in targets_list for t in ts)]))
    arrays = dict(zip(texts, model.token_id_lists(texts), strict=True))
    preds = [arrays[p] for p in predictions]
    return model, preds, [[arrays[t] for t in ts] for ts in targets_list]


def _embedding_cosine_batch(
    predictions: Sequence[str], targets_list: Sequence[Sequence[str]], s: Settings
) -> list[float]:
    model, preds, targets = _split(predictions, targets_list)
    return [
        max(_cosine_of_ids(model, p, t) for t in ts) for p, ts in zip(preds, targets, strict=True)
    ]


def _greedy_match_batch(
    predictions: Sequence[str], targets_list: Sequence[Sequence[str]], s: Settings
) -> list[float]:
    model, preds, targets = _split(predictions, targets_list)
    units = _UnitVectors(model, [*preds, *(t for ts in targets for t in ts)])
    pick = ("p", "r", "f").index(s.params["measure"])
    return [
        max(units.greedy_prf(p, t)[pick] for t in ts) for p, ts in zip(preds, targets, strict=True)
    ]


def _embedding_cosine(prediction: str, target: str, s: Settings) -> float:
    return _embedding_cosine_batch([prediction], [[target]], s)[0]


def _greedy_match(prediction: str, target: str, s: Settings) -> float:
    return _greedy_match_batch([prediction], [[target]], s)[0]


_EDGES = {
    "empty prediction": "0 (1 if the target has no tokens either)",
    "empty target": "0 (1 if the prediction has no tokens either)",
    "both empty": "1",
    "whitespace-only": "scored: the tokenizer has tokens for spaces and newlines",
    "punctuation-only": "scored: punctuation has tokens and vectors",
    "exact match": "1",
    "lone surrogate": "scored: spelled by the byte tokens of its surrogatepass UTF-8 bytes",
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
        batch_fn=_embedding_cosine_batch,
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
        batch_fn=_greedy_match_batch,
    ),
)

"""The official SQuAD v1.1 and v2.0 evaluation scripts' EM and F1, exactly.

Both versions normalise with ``normalize_answer`` (normalizer ``squad``) and split
on whitespace; both take the max over gold answers. They differ on purpose:

* **v1.1** ``f1_score`` returns 0 when there is no common token, so a prediction
  and a gold that both normalise to empty get F1 = **0** (EM = 1).
* **v2.0** ``compute_f1`` returns ``int(gold_toks == pred_toks)`` when either side
  is empty, so both-empty gets F1 = **1**. v2.0 also drops gold answers that
  normalise to empty before taking the max, and uses ``['']`` when none is left.

Through ``score_corpus`` (``batch_fn``) each text is normalised once, into its tokens
(:func:`~assay.text.normalize.squad_tokens`); EM compares the token lists, which are
equal iff the normalised texts are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from assay.metrics.base import MetricSpec, Settings
from assay.metrics.overlap import harmonic_f1, multiset_overlap
from assay.text.normalize import normalize_squad, squad_tokens

Tokens = list[str]


def squad_v1_f1(prediction: str, target: str, _s: Settings | None = None) -> float:
    """v1.1 ``f1_score``: no common token (including both empty) → 0."""
    return _v1_f1_tokens(squad_tokens(prediction), squad_tokens(target))


def squad_em(prediction: str, target: str, _s: Settings | None = None) -> float:
    """``exact_match_score`` / ``compute_exact``: equal after ``normalize_answer``."""
    return 1.0 if normalize_squad(prediction) == normalize_squad(target) else 0.0


def squad_v2_f1_single(prediction: str, target: str) -> float:
    """v2.0 ``compute_f1``: either side empty → 1 iff both are."""
    return _v2_f1_tokens(squad_tokens(prediction), squad_tokens(target))


def v2_gold_answers(targets: Sequence[str]) -> list[str]:
    """v2.0 keeps gold answers that do not normalise to empty, else ``['']``."""
    kept = [t for t in targets if normalize_squad(t)]
    return kept or [""]


def squad_v2_f1(prediction: str, targets: Sequence[str], _s: Settings) -> float:
    """v2.0 F1: max of ``compute_f1`` over the filtered gold answers."""
    return max(squad_v2_f1_single(prediction, t) for t in v2_gold_answers(targets))


def squad_v2_em(prediction: str, targets: Sequence[str], _s: Settings) -> float:
    """v2.0 EM: max of ``compute_exact`` over the filtered gold answers."""
    return max(squad_em(prediction, t) for t in v2_gold_answers(targets))


def _em_tokens(pred: Tokens, gold: Tokens) -> float:
    return 1.0 if pred == gold else 0.0


def _v1_f1_tokens(pred: Tokens, gold: Tokens) -> float:
    return harmonic_f1(multiset_overlap(pred, gold), len(pred), len(gold))


def _v2_f1_tokens(pred: Tokens, gold: Tokens) -> float:
    if not pred or not gold:
        return 1.0 if pred == gold else 0.0
    return harmonic_f1(multiset_overlap(pred, gold), len(pred), len(gold))


BatchFn = Callable[[Sequence[str], Sequence[Sequence[str]], Settings], list[float]]


def _batch(compare: Callable[[Tokens, Tokens], float], v2: bool) -> BatchFn:
    """A corpus scorer: the max of ``compare`` over the (v2: filtered) gold tokens."""

    def run(
        predictions: Sequence[str], targets_list: Sequence[Sequence[str]], _s: Settings
    ) -> list[float]:
        out: list[float] = []
        for prediction, targets in zip(predictions, targets_list, strict=True):
            pred = squad_tokens(prediction)
            if len(targets) == 1:
                out.append(float(compare(pred, squad_tokens(targets[0]))))
                continue
            golds = [squad_tokens(t) for t in targets]
            if v2:
                golds = [g for g in golds if g] or [[]]  # v2_gold_answers, as tokens
            out.append(float(max(compare(pred, gold) for gold in golds)))
        return out

    return run


_V1 = "Rajpurkar et al. 2016, official SQuAD v1.1 evaluation script"
_V2 = "Rajpurkar et al. 2018, official SQuAD v2.0 evaluation script"


_EDGES = {
    "whitespace-only": "same as empty",
    "punctuation-only": "ASCII punctuation is deleted: same as empty",
    "no shared tokens": "0",
    "repeated tokens": "EM compares literally; F1 counts tokens with multiplicity",
}
_V1_EDGES = {
    **_EDGES,
    "empty prediction": "0 (EM: 1 if the gold normalises to empty)",
    "empty target": "F1 0 always; EM 1 iff the prediction normalises to empty",
    "exact match": "1, except F1 = 0 for texts that normalise to empty",
}
_V2_EDGES = {
    **_EDGES,
    "empty prediction": "1 iff every gold normalises to empty, else 0",
    "empty target": "dropped when a non-empty gold exists; otherwise 1 iff prediction is empty",
    "exact match": "1",
}


def _spec(
    name: str, fn: object, description: str, citation: str, multi: str, batch_fn: BatchFn
) -> MetricSpec:
    v1 = name.startswith("squad_v1")
    both = "0 (v1.1 quirk)" if name == "squad_v1.f1" else "1"
    return MetricSpec(
        name=name,
        fn=fn,  # type: ignore[arg-type]
        description=description,
        citation=citation,
        family="qa",
        tokenizer="whitespace",
        normalizer="squad",
        fixed_text=True,
        multi=multi,
        batch_fn=batch_fn,
        edge_cases={**(_V1_EDGES if v1 else _V2_EDGES), "both empty": both},
    )


METRICS = (
    _spec(
        "squad_v1.em", squad_em, "SQuAD v1.1 exact match after normalize_answer", _V1, "max",
        _batch(_em_tokens, v2=False),
    ),
    _spec(
        "squad_v1.f1", squad_v1_f1, "SQuAD v1.1 token F1 (both-empty → 0)", _V1, "max",
        _batch(_v1_f1_tokens, v2=False),
    ),
    _spec(
        "squad_v2.em", squad_v2_em, "SQuAD v2.0 exact match, empty golds filtered", _V2, "native",
        _batch(_em_tokens, v2=True),
    ),
    _spec(
        "squad_v2.f1", squad_v2_f1, "SQuAD v2.0 token F1 (both-empty → 1)", _V2, "native",
        _batch(_v2_f1_tokens, v2=True),
    ),
)  # fmt: skip

"""Scoring profiles: ``xldocbench`` (the released evaluator) and ``assay`` (traps fixed).

Both profiles score every question with three numbers:

- **accuracy**: relaxed accuracy, 0 or 1, by answer type (the profile's rules);
- **token_f1**: set token F1 over whitespace tokens of ``xldocbench``-normalised
  texts (registry metric ``token_f1.set``);
- **anls**: ``1 − lev / max len`` over code points of the stripped, lowercased raw
  texts, kept when ≥ 0.5 (registry metric ``anls`` with normalizer ``strip-lower``).

Statuses ``context_overflow`` and ``vision_unsupported`` replace the prediction by
``CONTEXT_OVERFLOW`` before scoring, in both profiles.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from assay.errors import UnknownNameError
from assay.evaluation import assay_rules, xldocbench
from assay.io.gold import GoldQuestion
from assay.metrics.edit import similarity, similarity_bound
from assay.metrics.overlap import harmonic_f1, set_f1
from assay.text.normalize import normalize_xldocbench, xldocbench_token_set, xldocbench_tokens

SUBSTITUTED_STATUSES = ("context_overflow", "vision_unsupported")
SUBSTITUTE_TEXT = "CONTEXT_OVERFLOW"
ANLS_THRESHOLD = 0.5
DUPLICATE_POLICIES = ("last-wins", "reject")


class UnknownProfileError(UnknownNameError):
    """A profile name that does not exist."""

    kind = "profile"


@dataclass(frozen=True, slots=True)
class Prepared:
    """Gold-side values computed once per question and reused for every system."""

    question: GoldQuestion
    kind: str
    normalised: str
    tokens: tuple[str, ...]
    anls_text: str
    document_ids: tuple[str, ...]
    token_set: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class QuestionScores:
    """The three per-question numbers (unrounded)."""

    accuracy: float
    token_f1: float
    anls: float


AccuracyFn = Callable[[Prepared, str, list[str], bool], float]


@dataclass(frozen=True, slots=True)
class Profile:
    """A named scoring profile: answer typing, accuracy rules and policies.

    ``reads_as_released``: gold and prediction files are read as the released
    XL-DocBench evaluator reads them (oddities noted, never refused).
    ``accuracy_uses_tokens``: :attr:`accuracy` reads the prediction's ``xldocbench``
    tokens (else it is given none, and token F1 needs only their set).
    """

    name: str
    description: str
    answer_type: Callable[[str, str], str]
    accuracy: AccuracyFn
    duplicate_policy: str
    config: dict[str, Any] = field(default_factory=dict)
    reads_as_released: bool = False
    accuracy_uses_tokens: bool = False

    def prepare(self, question: GoldQuestion) -> Prepared:
        """Gold-side work for one question."""
        normalised = normalize_xldocbench(question.answer)
        return Prepared(
            question,
            self.answer_type(question.format, question.verification_rule),
            normalised,
            tuple(normalised.split()),
            question.answer.strip().lower(),
            tuple(d.document_id for d in question.documents),
            frozenset(normalised.split()),
        )

    def score(self, gold: Prepared, text: str, substituted: bool) -> QuestionScores:
        """Score one prediction text (already status-substituted) against prepared gold."""
        (accuracy,), (token_f1,), (anls_value,) = self.score_many([gold], [text], [substituted])
        return QuestionScores(accuracy, token_f1, anls_value)

    def score_many(
        self, golds: Sequence[Prepared], texts: Sequence[str], substituted: Sequence[bool]
    ) -> tuple[list[float], list[float], list[float]]:
        """``(accuracy, token_f1, anls)`` columns: :meth:`score` of each prediction, in order.

        Each prediction is normalised once (its ``xldocbench`` tokens serve token F1 and
        the ``xldocbench`` accuracy); the gold sides come prepared.
        """
        accuracy_of = self.accuracy
        accuracy: list[float] = []
        token_f1: list[float] = []
        anls_values: list[float] = []
        no_tokens: list[str] = []
        for gold, text, sub in zip(golds, texts, substituted, strict=True):
            if self.accuracy_uses_tokens:
                tokens = xldocbench_tokens(text)
                accuracy.append(accuracy_of(gold, text, tokens, sub))
                token_f1.append(set_f1(tokens, gold.tokens))
            else:
                accuracy.append(accuracy_of(gold, text, no_tokens, sub))
                token_f1.append(_set_f1(xldocbench_token_set(text), gold.token_set))
            anls_values.append(anls(text.strip().lower(), gold.anls_text))
        return accuracy, token_f1, anls_values


def _set_f1(pred: set[str], target: frozenset[str]) -> float:
    """:func:`~assay.metrics.overlap.set_f1` of two token sets (not copied again)."""
    if not target:
        return 1.0 if not pred else 0.0
    if not pred:
        return 0.0
    return harmonic_f1(len(pred & target), len(pred), len(target))


def anls(a: str, b: str) -> float:
    """Thresholded similarity of already stripped+lowercased texts (both empty → 1).

    Texts whose lengths alone keep them below the threshold are 0.0 without a distance.
    """
    if not a or not b:
        return 1.0 if not a and not b else 0.0
    if similarity_bound(a, b) < ANLS_THRESHOLD:
        return 0.0
    value = similarity(a, b)
    return value if value >= ANLS_THRESHOLD else 0.0


def _xl_accuracy(gold: Prepared, text: str, tokens: list[str], substituted: bool) -> float:
    normalised = " ".join(tokens)
    return xldocbench.accuracy(gold.kind, text, normalised, gold.question.answer, gold.normalised)


def _assay_accuracy(gold: Prepared, text: str, tokens: list[str], substituted: bool) -> float:
    q = gold.question
    return assay_rules.accuracy(gold.kind, q.verification_rule, text, q.answer, substituted)


PROFILES = {
    "xldocbench": Profile(
        name="xldocbench",
        description="the XL-DocBench released evaluator's rules and file reading (quirks kept)",
        answer_type=xldocbench.answer_type,
        accuracy=_xl_accuracy,
        duplicate_policy="last-wins",
        config=xldocbench.CONFIG,
        reads_as_released=True,
        accuracy_uses_tokens=True,
    ),
    "assay": Profile(
        name="assay",
        description="the released idea with the verification rule honoured and traps fixed",
        answer_type=assay_rules.answer_type,
        accuracy=_assay_accuracy,
        duplicate_policy="last-wins",
        config=assay_rules.CONFIG,
    ),
}


def get_profile(name: str) -> Profile:
    """The profile called ``name``.

    Raises:
        UnknownProfileError: no such profile (the message lists the known ones).
    """
    try:
        return PROFILES[name]
    except (KeyError, TypeError):
        raise UnknownProfileError(name, PROFILES) from None


@cache
def metric_signatures(profile_name: str) -> dict[str, str]:
    """The signature of each of the three metrics under a profile.

    The two registered metrics are bound from their family modules' specs (the very
    objects the registry holds), so an evaluation does not load every metric family.
    """
    from assay.metrics import edit, overlap

    specs = {spec.name: spec for spec in (*overlap.METRICS, *edit.METRICS)}
    norm = "xldocbench" if profile_name == "xldocbench" else "raw"
    return {
        "accuracy": f"relaxed_accuracy.{profile_name}|norm:{norm}|tol:0.05|sim:0.8|v:0.1.0",
        "token_f1": specs["token_f1.set"].bind().signature,
        "anls": specs["anls"].bind(normalizer="strip-lower").signature,
    }

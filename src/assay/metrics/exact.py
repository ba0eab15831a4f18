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

``exact_match`` also takes Hugging Face evaluate's ``exact_match`` options, applied
after the normalizer in HF's order: every pattern of ``regexes_to_ignore`` removed
(``re.sub(pattern, "", text)``, one pattern after the other), then ``ignore_case``
(``str.lower``), ``ignore_punctuation`` (ASCII ``string.punctuation`` deleted),
``ignore_numbers`` (ASCII digits deleted). Texts the options empty on *both* sides
match only when they were identical before the options (HF's current rule). With
``normalizer="none"`` the numbers are HF's exactly; the default ``strip`` normalizer
strips first. Options left at their defaults add nothing to the signature, so the
plain ``exact_match`` keeps its signature.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Mapping
from typing import Any

from assay.errors import InvalidOptionError
from assay.metrics.base import BoundMetric, MetricSpec, Settings
from assay.metrics.ngrams import check_bool
from assay.signature import build_signature
from assay.text.tokenize import tokenizer_signature

_PUNCT_TABLE = str.maketrans("", "", string.punctuation)
_DIGIT_TABLE = str.maketrans("", "", string.digits)
HF_OPTIONS = ("regexes_to_ignore", "ignore_case", "ignore_punctuation", "ignore_numbers")
_HF_KEYS = {"regexes_to_ignore": "ignore_re", "ignore_case": "ignore_case",
            "ignore_punctuation": "ignore_punct", "ignore_numbers": "ignore_num"}  # fmt: skip


def normalized_equal(prediction: str, target: str, settings: Settings) -> float:
    """1.0 if the normalised prediction equals the normalised target, else 0.0."""
    return 1.0 if settings.normalize(prediction) == settings.normalize(target) else 0.0


def check_regexes(value: Any) -> tuple[str, ...]:
    """Validate ``regexes_to_ignore``: a list of Python regular expressions (or ``None``)."""
    if value is None:
        return ()
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise TypeError("expected a list of regular expressions, e.g. ['the ', 'yell']")
    for pattern in value:
        if not isinstance(pattern, str):
            raise TypeError(f"expected strings, got {type(pattern).__name__} ({pattern!r})")
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ValueError(f"{pattern!r} is not a valid regular expression ({exc})") from None
    return tuple(value)


def hf_prepare(text: str, params: Mapping[str, Any]) -> str:
    """HF evaluate's ``exact_match`` steps, in its order."""
    for pattern in params["regexes_to_ignore"]:
        text = re.sub(pattern, "", text)
    if params["ignore_case"]:
        text = text.lower()
    if params["ignore_punctuation"]:
        text = text.translate(_PUNCT_TABLE)
    if params["ignore_numbers"]:
        text = text.translate(_DIGIT_TABLE)
    return text


def exact_match(prediction: str, target: str, settings: Settings) -> float:
    """``normalized_equal`` plus HF's options (see the module doc)."""
    pred, gold = settings.normalize(prediction), settings.normalize(target)
    params = settings.params
    if not params:
        return 1.0 if pred == gold else 0.0
    a, b = hf_prepare(pred, params), hf_prepare(gold, params)
    return 1.0 if a == b and (a != "" or pred == gold) else 0.0


class ExactMatchSpec(MetricSpec):
    """``exact_match``: a spec that also takes HF evaluate's options (only set ones signed)."""

    __slots__ = ()

    def option_names(self) -> list[str]:
        """The options of :class:`MetricSpec` plus HF's four."""
        return [*MetricSpec.option_names(self), *HF_OPTIONS]

    def bind(self, **options: Any) -> BoundMetric:
        """Validate HF's options, bind the rest as usual, and sign the options set."""
        given = {k: options.pop(k) for k in HF_OPTIONS if k in options}
        bound = MetricSpec.bind(self, **options)
        params = {
            "regexes_to_ignore": self._hf(check_regexes, "regexes_to_ignore", given),
            **{k: self._hf(check_bool, k, given) for k in HF_OPTIONS[1:]},
        }
        if not any(params.values()):
            return bound
        parts = [*tokenizer_signature(bound.tokenizer), ("norm", bound.normalizer)]
        for key, value in params.items():
            if value:
                parts.append((_HF_KEYS[key], _sign(value)))
        parts.append(("multi", self.multi))
        settings = Settings(bound.settings.tokenize, bound.settings.normalize, params)
        signature = build_signature(self.name, parts, self.version)
        return BoundMetric(self, bound.tokenizer, bound.normalizer, params, settings, signature)

    def _hf(self, check: Any, name: str, given: Mapping[str, Any]) -> Any:
        value = given.get(name, None if name == "regexes_to_ignore" else False)
        try:
            return check(value)
        except (TypeError, ValueError) as exc:
            raise InvalidOptionError(
                f"metric {self.name!r}: option {name!r}={value!r} is invalid: {exc}"
            ) from None


def _sign(value: object) -> object:
    if isinstance(value, tuple):  # a JSON list, with '|' escaped so the signature stays split-able
        return json.dumps(list(value), ensure_ascii=True).replace("|", "\\u007c")
    return value


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
    ExactMatchSpec(
        name="exact_match",
        fn=exact_match,
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

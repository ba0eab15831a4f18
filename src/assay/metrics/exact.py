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

from assay.metrics.base import MetricSpec, Param, Settings, bool_option

_PUNCT_TABLE = str.maketrans("", "", string.punctuation)
_DIGIT_TABLE = str.maketrans("", "", string.digits)


def normalized_equal(prediction: str, target: str, settings: Settings) -> float:
    """1.0 if the normalised prediction equals the normalised target, else 0.0."""
    return 1.0 if settings.normalize(prediction) == settings.normalize(target) else 0.0


class Patterns(tuple[str, ...]):
    """The ``regexes_to_ignore`` patterns; signed as a JSON list with ``|`` escaped.

    The escape keeps the signature split-able on ``|``.
    """

    __slots__ = ()

    def __str__(self) -> str:
        """The JSON list, as the signature writes it."""
        return json.dumps(list(self), ensure_ascii=True).replace("|", "\\u007c")


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
    return Patterns(value)


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
    if not any(params.values()):  # no HF option set
        return 1.0 if pred == gold else 0.0
    a, b = hf_prepare(pred, params), hf_prepare(gold, params)
    return 1.0 if a == b and (a != "" or pred == gold) else 0.0


_HF_PARAMS = (
    Param("regexes_to_ignore", (), "ignore_re", check_regexes, "HF: patterns removed",
          omit_default=True),
    bool_option("ignore_case", "ignore_case", "HF: lowercase", omit_default=True),
    bool_option("ignore_punctuation", "ignore_punct", "HF: delete ASCII punctuation",
                omit_default=True),
    bool_option("ignore_numbers", "ignore_num", "HF: delete ASCII digits", omit_default=True),
)  # fmt: skip


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
        fn=exact_match,
        description="1 if the stripped prediction equals any stripped target",
        citation="exact string match after stripping surrounding whitespace",
        family="qa",
        normalizer="strip",
        multi="max",
        params=_HF_PARAMS,
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

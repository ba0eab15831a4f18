"""The metric descriptor: one frozen record per metric, read by the registry.

A :class:`MetricSpec` says everything that changes a metric's number — default
tokenizer and normalizer, options with defaults, multi-target policy, aggregation,
version — so a runner never branches on metric names. :class:`BoundMetric` is a
spec with options resolved and validated once; scoring many items through one
bound metric costs no per-call option handling.

Multi-target policies:
    ``max``: the metric is defined for one target; the score is the max over targets.
    ``single``: exactly one target is allowed.
    ``native``: the metric's function receives all targets (multi-reference BLEU,
    SQuAD v2.0's filtering of empty gold answers).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from assay.errors import InvalidInputError, InvalidOptionError, InvalidTypeError
from assay.metrics.ngrams import check_bool
from assay.signature import build_signature
from assay.text import Normalizer, Tokenizer, get_normalizer, get_tokenizer
from assay.text.tokenize import tokenizer_signature

MULTI_POLICIES = ("max", "single", "native")


@dataclass(frozen=True, slots=True)
class Param:
    """A metric option: name, default, signature key and a validator.

    ``check`` receives the user's value and returns the canonical value or raises
    ``ValueError``/``TypeError`` with a sentence saying what is allowed. With
    ``omit_default`` the option appears in the signature only when it differs from
    its default (options added later keep the existing signatures unchanged).
    """

    name: str
    default: Any
    key: str
    check: Callable[[Any], Any]
    doc: str = ""
    omit_default: bool = False


def bool_option(name: str, key: str, doc: str, *, omit_default: bool = False) -> Param:
    """A true/false option that is false by default (TER's ``no_punct``, HF's ``ignore_case``)."""
    return Param(name, False, key, check_bool, doc, omit_default)


@dataclass(frozen=True, slots=True)
class Settings:
    """Resolved settings handed to a metric function."""

    tokenize: Tokenizer
    normalize: Normalizer
    params: Mapping[str, Any]


Stats = tuple[float, ...]  # counts (ints); TER's multi-reference average length is a float
StatsFn = Callable[[str, Sequence[str], Settings], Stats]
ReduceFn = Callable[[Sequence[float], Settings], float]
BatchStatsFn = Callable[[Sequence[str], Sequence[Sequence[str]], Settings], list[Stats]]
BatchFn = Callable[[Sequence[str], Sequence[Sequence[str]], Settings], list[float]]


@dataclass(frozen=True, slots=True)
class MetricSpec:
    """Everything about one metric. Registered once in :mod:`assay.metrics.registry`.

    ``fn`` takes ``(prediction, target, settings)`` for the ``max`` and ``single``
    policies and ``(prediction, targets, settings)`` for ``native``.
    ``tokenizer``/``normalizer`` are defaults (``None``: the metric does not use one);
    when ``fixed_text`` is true they are part of the definition and cannot be changed.

    Metrics with per-item sufficient statistics also give ``stats_fn`` (``(prediction,
    targets, settings)`` → a tuple of ints named by ``stats_names(params)``) and
    ``reduce_fn`` (element-wise summed statistics → value). When ``corpus_from_stats``
    is true the corpus value is ``reduce_fn`` of the statistics summed over items
    (corpus BLEU, chrF, GLEU); otherwise it is the mean of the per-item values.
    ``batch_stats_fn`` (optional) computes ``stats_fn`` for a whole corpus at once
    (vectorised); it must return exactly what ``stats_fn`` returns item by item.
    ``batch_fn`` (optional, metrics without statistics) scores a whole corpus of
    checked items at once; it must return exactly what :meth:`BoundMetric.score_unchecked`
    returns item by item (the max over targets included).
    ``model_parts`` (optional) names the model a metric scores with — called at bind
    time, its ``(key, value)`` parts join the signature after the options (model name,
    package version, weights hash); it raises ``MissingExtraError`` when the model's
    package is not installed.

    ``higher_is_better`` is the ranking direction (false for error rates: WER, CER,
    TER, MER, WIL), read by leaderboards, tie groups and paired tests.
    ``value_range`` is the declared ``(low, high)`` of every value :meth:`BoundMetric.score`
    returns (``high`` may be ``math.inf``: an error rate exceeds 1 when the prediction
    is longer than the target); a property test holds every metric to it.
    """

    name: str
    fn: Callable[..., float]
    description: str
    citation: str
    family: str
    tokenizer: str | None = None
    normalizer: str | None = None
    multi: str = "max"
    aggregation: str = "mean"
    higher_is_better: bool = True
    value_range: tuple[float, float] = (0.0, 1.0)
    version: str = "0.1.0"
    params: tuple[Param, ...] = ()
    fixed_text: bool = False
    edge_cases: Mapping[str, str] = field(default_factory=dict)
    stats_fn: StatsFn | None = None
    stats_names: Callable[[Mapping[str, Any]], tuple[str, ...]] | None = None
    reduce_fn: ReduceFn | None = None
    corpus_from_stats: bool = False
    batch_stats_fn: BatchStatsFn | None = None
    batch_fn: BatchFn | None = None
    model_parts: Callable[[], tuple[tuple[str, object], ...]] | None = None

    @property
    def function(self) -> Callable[..., float]:
        """The metric function (the same as ``fn``)."""
        return self.fn

    @property
    def default_tokenizer(self) -> str | None:
        """The default tokenizer name (``None``: the metric does not tokenise)."""
        return self.tokenizer

    @property
    def default_normalizer(self) -> str | None:
        """The default normalizer name (``None``: the metric does not normalise)."""
        return self.normalizer

    @property
    def multi_target(self) -> str:
        """The multi-target policy: ``max``, ``single`` or ``native`` (the same as ``multi``)."""
        return self.multi

    def __repr__(self) -> str:
        """One line: name, family, what it is and the options it takes (no functions)."""
        options = ", ".join(self.option_names()) or "none"
        return f"MetricSpec({self.name!r}, family={self.family!r}, options: {options})"

    def __post_init__(self) -> None:
        if self.multi not in MULTI_POLICIES:  # a registration bug, not a user error
            raise ValueError(f"metric {self.name!r}: multi must be one of {MULTI_POLICIES}")

    def option_names(self) -> list[str]:
        """The keyword options :func:`assay.score` accepts for this metric."""
        names = [p.name for p in self.params]
        if not self.fixed_text:
            names = (["normalizer"] if self.normalizer is not None else []) + names
            names = (["tokenizer"] if self.tokenizer is not None else []) + names
        return names

    def bind(self, **options: Any) -> BoundMetric:
        """Validate ``options`` once and return a ready-to-score :class:`BoundMetric`."""
        accepted = self.option_names()
        for key in options:
            if key not in accepted:
                close = difflib.get_close_matches(key, accepted, n=1)
                hint = f" Did you mean {close[0]!r}?" if close else ""
                allowed = ", ".join(accepted) if accepted else "none"
                raise InvalidOptionError(
                    f"metric {self.name!r} does not take option {key!r}.{hint} "
                    f"Options it takes: {allowed}."
                )
        tok_name = options.get("tokenizer", self.tokenizer)
        norm_name = options.get("normalizer", self.normalizer)
        tokenize = get_tokenizer(tok_name) if tok_name is not None else get_tokenizer("none")
        normalize = get_normalizer(norm_name) if norm_name is not None else get_normalizer("none")
        params = {p.name: self._check(p, options.get(p.name, p.default)) for p in self.params}
        parts = [*tokenizer_signature(tok_name), ("norm", norm_name)]
        parts += [
            (p.key, params[p.name])
            for p in self.params
            if not (p.omit_default and params[p.name] == p.default)
        ]
        if self.model_parts is not None:
            parts += list(self.model_parts())
        parts.append(("multi", self.multi))
        sig = build_signature(self.name, parts, self.version)
        settings = Settings(tokenize=tokenize, normalize=normalize, params=params)
        return BoundMetric(self, tok_name, norm_name, params, settings, sig)

    def corpus_aggregate(
        self, values: Sequence[float], settings: Settings
    ) -> tuple[str, float, Mapping[str, float]] | None:
        """A named aggregate that replaces the corpus value: ``(name, value, details)``.

        ``None`` (every metric by default): the corpus value is the mean or the corpus
        formula. ROUGE's ``aggregate="bootstrap"`` returns rouge-score's bootstrap ``mid``.
        """
        return None

    def _check(self, param: Param, value: Any) -> Any:
        try:
            return param.check(value)
        except (ValueError, TypeError) as exc:
            raise InvalidOptionError(
                f"metric {self.name!r}: option {param.name!r}={value!r} is invalid: {exc}"
            ) from None


@dataclass(frozen=True, slots=True)
class BoundMetric:
    """A metric with its options resolved: call :meth:`score` many times cheaply."""

    spec: MetricSpec
    tokenizer: str | None
    normalizer: str | None
    params: Mapping[str, Any]
    settings: Settings
    signature: str

    def __repr__(self) -> str:
        """One line: the metric and its signature (which holds every resolved option)."""
        return f"BoundMetric({self.spec.name!r}, signature={self.signature!r})"

    def score(self, prediction: str, targets: str | Sequence[str]) -> float:
        """Score one prediction against its target(s); a float in the metric's declared range.

        The range is ``spec.value_range``: [0, 1] for most metrics, [0, ∞) for error rates.
        """
        targets = check_inputs(self.spec.name, prediction, targets)
        return self.score_unchecked(prediction, targets)

    def score_unchecked(self, prediction: str, targets: Sequence[str]) -> float:
        """Score without input validation (callers that validated already)."""
        spec, settings = self.spec, self.settings
        if spec.multi == "native":
            return float(spec.fn(prediction, targets, settings))
        if spec.multi == "single" and len(targets) != 1:
            raise InvalidInputError(
                f"metric {spec.name!r} takes exactly one target, got {len(targets)}; "
                "pass a single string or a one-element list."
            )
        return float(max(spec.fn(prediction, target, settings) for target in targets))


def _missing(value: object) -> bool:
    """None, or a float NaN (how pandas and numpy mark a missing value)."""
    return value is None or (isinstance(value, float) and value != value)


def _non_string_advice(value: object, what: str) -> str:
    """What to do with a non-string: a missing value is not the text ``'None'``/``'nan'``."""
    if not _missing(value):
        return "convert it with str() if that is what you mean."
    kind = "None" if value is None else "NaN (pandas' mark of a missing value)"
    if what == "targets":
        return f"{kind} is a missing gold answer: give the reference text(s) or drop the item."
    return (
        f"{kind} is a missing answer, not text: give '' to score it as an empty answer "
        "(pandas: .fillna('')), or drop the item."
    )


def check_inputs(metric: str, prediction: object, targets: object) -> list[str]:
    """Validate a prediction and its targets; a single string target is wrapped.

    Raises:
        InvalidTypeError: the prediction or a target is not a string.
        InvalidInputError: the targets list is empty.
    """
    if not isinstance(prediction, str):
        raise InvalidTypeError(
            f"metric {metric!r}: prediction must be a string, got {type(prediction).__name__} "
            f"({prediction!r}); {_non_string_advice(prediction, 'prediction')}"
        )
    if isinstance(targets, str):
        return [targets]
    if not isinstance(targets, (list, tuple)):
        raise InvalidTypeError(
            f"metric {metric!r}: targets must be a string or a list of strings, "
            f"got {type(targets).__name__}"
            + (f"; {_non_string_advice(targets, 'targets')}" if _missing(targets) else ".")
        )
    if not targets:
        raise InvalidInputError(
            f"metric {metric!r}: targets is empty; give at least one target string "
            "(use [''] for an explicitly empty answer)."
        )
    for i, target in enumerate(targets):
        if not isinstance(target, str):
            raise InvalidTypeError(
                f"metric {metric!r}: targets[{i}] must be a string, "
                f"got {type(target).__name__} ({target!r})."
            )
    return list(targets)


def check_probability(value: Any) -> float:
    """Validate a number in [0, 1]."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("expected a number between 0 and 1")
    if not 0.0 <= float(value) <= 1.0:
        raise ValueError("expected a number between 0 and 1")
    return float(value)

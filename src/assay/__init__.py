"""assay: deterministic, reproducible scoring of model answers.

The public API is the names in ``__all__`` (pinned by a test)::

    >>> import assay
    >>> assay.score("f1", "the cat sat", ["the cat sat on the mat"])
    0.6666666666666666
    >>> assay.signature("f1")
    'f1|tok:word|norm:none|multi:max|v:0.1.0'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from assay._version import __version__
from assay.errors import (
    AccountingError,
    AssayError,
    InputFileError,
    InvalidInputError,
    InvalidOptionError,
    InvalidTypeError,
    UnknownMetricError,
    UnknownNameError,
    UnknownNormalizerError,
    UnknownTokenizerError,
)

if TYPE_CHECKING:
    from assay.api import bind, score, score_corpus, signature
    from assay.evaluation.compare import CompareOptions, result_document
    from assay.evaluation.diff import diff_reports
    from assay.evaluation.rescore import RescoreResult, rescore
    from assay.evaluation.runs import EvaluationResult, SystemInput, evaluate
    from assay.io.bundled import data_path
    from assay.metrics.corpus import CorpusResult
    from assay.metrics.registry import get_metric, metric_names
    from assay.structured import (
        Judge,
        StructuredItem,
        StructuredReport,
        load_contract,
        score_structured,
    )
    from assay.text import normalize, tokenize

# The module ``assay.signature`` is loaded now: loading it later (first use of a metric)
# would set the package attribute ``signature`` to the module, hiding the function.
importlib.import_module("assay.signature")
del globals()["signature"]

# The rest of the public API is imported on first use (PEP 562), so ``import assay``
# costs only the errors: name → the module that defines it.
_LAZY = {
    **dict.fromkeys(("bind", "score", "score_corpus", "signature"), "assay.api"),
    **dict.fromkeys(("CompareOptions", "result_document"), "assay.evaluation.compare"),
    "diff_reports": "assay.evaluation.diff",
    **dict.fromkeys(("RescoreResult", "rescore"), "assay.evaluation.rescore"),
    **dict.fromkeys(("EvaluationResult", "SystemInput", "evaluate"), "assay.evaluation.runs"),
    "data_path": "assay.io.bundled",
    "CorpusResult": "assay.metrics.corpus",
    **dict.fromkeys(("get_metric", "metric_names"), "assay.metrics.registry"),
    **dict.fromkeys(
        ("Judge", "StructuredItem", "StructuredReport", "load_contract", "score_structured"),
        "assay.structured",
    ),
    **dict.fromkeys(("normalize", "tokenize"), "assay.text"),
}


# Subpackages reachable as attributes after ``import assay`` (``assay.stats.bootstrap``),
# loaded on first use like the names above.
_SUBPACKAGES = ("stats",)


def __getattr__(name: str) -> Any:
    """Import a public name's module on first use and keep the name here."""
    if name in _SUBPACKAGES:
        return importlib.import_module(f"assay.{name}")
    if name not in _LAZY:
        raise AttributeError(f"module 'assay' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The module's names, the lazy public ones included."""
    return sorted({*globals(), *_LAZY, *_SUBPACKAGES})


__all__ = [
    "AccountingError",
    "AssayError",
    "CompareOptions",
    "CorpusResult",
    "EvaluationResult",
    "InputFileError",
    "InvalidInputError",
    "InvalidOptionError",
    "InvalidTypeError",
    "Judge",
    "RescoreResult",
    "StructuredItem",
    "StructuredReport",
    "SystemInput",
    "UnknownMetricError",
    "UnknownNameError",
    "UnknownNormalizerError",
    "UnknownTokenizerError",
    "__version__",
    "bind",
    "data_path",
    "diff_reports",
    "evaluate",
    "get_metric",
    "load_contract",
    "metric_names",
    "normalize",
    "rescore",
    "result_document",
    "score",
    "score_corpus",
    "score_structured",
    "signature",
    "tokenize",
]

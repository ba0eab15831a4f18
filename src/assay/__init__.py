"""assay: deterministic, reproducible scoring of model answers.

The public API is the names in ``__all__`` (pinned by a test)::

    >>> import assay
    >>> assay.score("f1", "the cat sat", ["the cat sat on the mat"])
    0.6666666666666666
    >>> assay.signature("f1")
    'f1|tok:word|norm:none|multi:max|v:0.1.0'
"""

from assay._version import __version__
from assay.api import bind, score, score_corpus, signature
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
from assay.evaluation.compare import CompareOptions, result_document
from assay.evaluation.diff import diff_reports
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
    "result_document",
    "score",
    "score_corpus",
    "score_structured",
    "signature",
    "tokenize",
]

"""Executed scoring: run candidate programs in a sandbox against tests, report pass@k.

``assay.code.evaluate(problems, samples, k="1,10,100", allow_execution=True)`` runs
each sample under :mod:`assay.code.sandbox` (the only code in assay that starts user
programs), gives it one typed outcome (:mod:`assay.code.outcomes`) and estimates pass@k
(:mod:`assay.code.passk`).
"""

from assay.code.limits import Limits
from assay.code.passk import pass_at_k
from assay.code.runner import CodeReport, CodeRun, ExecutionNotAllowedError, evaluate, prepare
from assay.code.sandbox import Isolation, probe

__all__ = [
    "CodeReport",
    "CodeRun",
    "ExecutionNotAllowedError",
    "Isolation",
    "Limits",
    "evaluate",
    "pass_at_k",
    "prepare",
    "probe",
]

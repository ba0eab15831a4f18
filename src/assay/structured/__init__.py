"""Structured-output scoring: a FORMAT axis (contract) and a FACT axis (claims).

Modules, bottom up: :mod:`~assay.structured.parse` (raw response → format reason
codes), :mod:`~assay.structured.contract` (JSON Schema Draft 2020-12 with an
explicit format checker), :mod:`~assay.structured.claims` (claims and reference
rules), :mod:`~assay.structured.verdicts` (judging claims), :mod:`~assay.structured.items`
(loading items and references) and :mod:`~assay.structured.scoring` (per-item
records, the accounting identity and headline rates).

``jsonschema`` is imported lazily so that ``import assay`` stays light.
"""

from assay.structured.api import StructuredReport, score_structured
from assay.structured.contract import Contract, load_contract
from assay.structured.items import StructuredItem
from assay.structured.verdicts import Judge, NormalizedMatchJudge

__all__ = [
    "Contract",
    "Judge",
    "NormalizedMatchJudge",
    "StructuredItem",
    "StructuredReport",
    "load_contract",
    "score_structured",
]

"""The LLM judge as structured FACT scoring's free-text :class:`Judge`.

:class:`LLMClaimJudge` has the protocol of
:class:`assay.structured.verdicts.Judge` (``name`` and ``judge``), so
``score_structured(..., judge=LLMClaimJudge(config))`` and ``assay structured
--judge-url URL --judge-model M`` judge free-text claims with it. Its ``name`` is
the judge fingerprint (``llm-judge(model:...;template:...;...)``), which joins
the structured signature. A claim whose votes give no verdict raises
:class:`JudgeFailure` with the reason; structured scoring records that as
``judge_failed`` with the reason as the claim's detail.

Claims are judged one at a time (the structured scorer asks for them in
order); the votes of one claim go out concurrently. Offline, a claim missing
from the ledger is kept in ``fatal`` (the scorer would record any
exception as ``judge_failed``), and so is a corrupt ledger line: ``fatal``, which
callers raise after scoring. Any other exception a claim's judging raises makes
that claim ``judge_failed`` with the exception as its reason, counted in
:meth:`LLMClaimJudge.summary` like every other judged claim.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assay.errors import AssayError, InputFileError, MissingExtraError
from assay.judge.answers import claim_fields
from assay.judge.config import JudgeConfig, fingerprint_text
from assay.judge.ledger import LedgerMissError
from assay.judge.prompts import CLAIM
from assay.judge.runner import JUDGE_FAILED, ItemVerdict, JudgeRun, usage_totals


class JudgeFailure(AssayError):
    """A claim the judge gave no verdict on (unparseable, failed request, tie)."""


class LLMClaimJudge:
    """Judge free-text claims with an OpenAI-compatible endpoint, through the ledger."""

    def __init__(self, config: JudgeConfig) -> None:
        self.run = JudgeRun(config, CLAIM)
        self.verdicts: list[ItemVerdict] = []
        self.fatal: AssayError | None = None

    @property
    def name(self) -> str:
        """The judge fingerprint as one token (no ``|``)."""
        return fingerprint_text(self.run.fingerprint())

    def judge(self, claim: str, statements: Sequence[str], contradictions: Sequence[str]) -> str:
        """``supported``, ``contradicted`` or ``insufficient`` from the majority vote.

        Raises:
            JudgeFailure: no verdict (the reason says why).
            LedgerMissError: offline and the ledger lacks a vote.
        """
        try:
            (verdict,) = self.run.judge_many([claim_fields(claim, statements, contradictions)])
        except (LedgerMissError, InputFileError, MissingExtraError) as stop:  # the scorer turns
            self.fatal = self.fatal or stop  # exceptions into judge_failed: the caller raises it
            raise
        except Exception as exc:  # noqa: BLE001 - counted as this claim's judge_failed
            verdict = ItemVerdict(JUDGE_FAILED, f"judge error: {type(exc).__name__}: {exc}", ())
        self.verdicts.append(verdict)
        if verdict.verdict == JUDGE_FAILED:
            raise JudgeFailure(verdict.reason)
        return verdict.verdict

    def summary(self) -> dict[str, Any]:
        """Fingerprint, votes and agreement per judged claim, and summed usage."""
        return {
            "judge_fingerprint": self.run.fingerprint(),
            "claims_judged": len(self.verdicts),
            "claims_judge_failed": sum(v.verdict == JUDGE_FAILED for v in self.verdicts),
            "claims": [v.to_dict() for v in self.verdicts],
            "usage": usage_totals(self.verdicts),
        }

    def close(self) -> None:
        """Close the HTTP client."""
        self.run.close()

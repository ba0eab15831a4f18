"""LLM-as-judge that is reproducible: an HTTP judge, a verdict ledger, votes, calibration.

* :mod:`assay.judge.config` — :class:`JudgeConfig` and the judge fingerprint.
* :mod:`assay.judge.prompts` — the prompt templates and the ``verdict-json-v1`` parse rule.
* :mod:`assay.judge.client` — OpenAI-compatible chat completions via ``httpx`` (extra
  ``assay[judge]``): timeouts, retries with backoff, typed failure reasons.
* :mod:`assay.judge.ledger` — every request/response recorded, keyed by fingerprint + item.
* :mod:`assay.judge.runner` — votes (concurrent), majority, agreement, usage.
* :mod:`assay.judge.answers` — the ``judge`` metric for open answers against a rubric.
* :mod:`assay.judge.claims` — the judge for structured FACT scoring's free-text claims.
* :mod:`assay.judge.calibrate` — Cohen's κ, confusion matrix, base rates vs human labels.
"""

from assay.judge.config import JudgeConfig

__all__ = ["JudgeConfig"]

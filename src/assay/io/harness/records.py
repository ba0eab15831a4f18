"""What a harness log becomes: samples (id, targets, prediction) and provenance."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

LM_EVAL = "lm-evaluation-harness"
INSPECT_AI = "inspect_ai"


@dataclass(frozen=True, slots=True)
class HarnessSample:
    """One scored unit of a log: a document (lm-eval) or a sample epoch (inspect_ai).

    Attributes:
        id: the harness's id (lm-eval ``doc_id``; inspect_ai sample ``id``).
        epoch: the inspect_ai epoch, or ``None`` (lm-eval).
        targets: the gold answer(s), as the log records them.
        prediction: the text scored, or ``None`` when the sample ended in an error.
        where: the record in the file: ``line 3`` or ``samples/q1_epoch_1.json``.
        error: the harness's error message for an error sample, else ``None``.
    """

    id: str | int
    epoch: int | None
    targets: tuple[str, ...]
    prediction: str | None
    where: str
    error: str | None = None

    @property
    def key(self) -> str:
        """The item id in assay outputs: ``id``, or ``id#epoch`` when epochs are logged."""
        return str(self.id) if self.epoch is None else f"{self.id}#{self.epoch}"


@dataclass(frozen=True, slots=True)
class HarnessLog:
    """The samples of one task of one log file, with where they came from.

    Attributes:
        path: the file read (the samples file for lm-eval).
        harness: :data:`LM_EVAL` or :data:`INSPECT_AI`.
        harness_version: the harness version the log records, or ``None``.
        log_format: ``lm-eval samples jsonl``, ``inspect_ai json`` or ``inspect_ai eval``.
        format_version: the log's own format version field (inspect_ai), else ``None``.
        task: the task name; ``task_version`` its version when recorded.
        model: the model name the log records.
        filter: the lm-eval filter whose responses are scored, else ``None``.
        prediction_from: what the prediction is (``filtered_resps[0]``,
            ``output.completion`` or ``scores.NAME.answer``).
        samples: the samples, in file order.
        extra: other recorded facts (lm-eval ``n-shot``, results file, log status, ...).
    """

    path: str
    harness: str
    harness_version: str | None
    log_format: str
    format_version: int | None
    task: str
    task_version: str | None
    model: str | None
    filter: str | None
    prediction_from: str
    samples: tuple[HarnessSample, ...]
    extra: dict[str, Any]

    @property
    def signature(self) -> str:
        """Where the samples came from as one line: harness, task, model, prediction."""
        parts = [
            f"harness:{self.harness}@{self.harness_version or '?'}",
            f"task:{self.task}@{self.task_version or '?'}",
            f"model:{self.model or '?'}",
        ]
        if self.filter is not None:
            parts.append(f"filter:{self.filter}")
        return "|".join([*parts, f"pred:{self.prediction_from}"])

    def provenance(self) -> dict[str, Any]:
        """The canonical JSON form of where the samples came from (sorted keys)."""
        return {
            "extra": dict(sorted(self.extra.items())),
            "filter": self.filter,
            "format_version": self.format_version,
            "harness": self.harness,
            "harness_version": self.harness_version,
            "log_format": self.log_format,
            "model": self.model,
            "path": self.path,
            "prediction_from": self.prediction_from,
            "signature": self.signature,
            "task": self.task,
            "task_version": self.task_version,
        }

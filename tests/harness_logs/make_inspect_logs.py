"""Write real inspect_ai eval logs (``.json`` and ``.eval``) for the rescore tests.

Runs inspect_ai's own ``eval()`` on a small task with its mock model
(``mockllm/model``) answering from a table. Each reply carries its token usage,
so mockllm does not count tokens with tiktoken (which would download an encoding
and fail offline). One sample's reply raises, so the log holds an error sample.
The task runs two epochs and two scorers (``match``, ``includes``).

Usage: python make_inspect_logs.py OUT
"""

from __future__ import annotations

import sys
from pathlib import Path

SAMPLES = [
    ("q1", "What is 1 + 1?", "2", "The answer is 2"),
    ("q2", "Name the capital of France.", ["Paris", "Paris, France"], "paris"),
    (3, "Who wrote Hamlet?", "William Shakespeare", "Shakespeare wrote it"),
    ("q4", "What colour is the sky?", "blue", "It is blue."),
    ("q5", "Say something that fails.", "never", None),
]


def main(out: Path) -> None:
    from inspect_ai import Task, eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import includes, match
    from inspect_ai.solver import generate

    replies = {question: reply for _, question, _, reply in SAMPLES}

    def reply(messages, tools, tool_choice, config):  # type: ignore[no-untyped-def]
        text = replies[messages[-1].text]
        if text is None:
            raise RuntimeError("the mock model was told to fail on this sample")
        output = ModelOutput.from_content(model="mockllm", content=text)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    task = Task(
        name="assay_mock_qa",
        dataset=[Sample(id=i, input=q, target=t) for i, q, t, _ in SAMPLES],
        solver=generate(),
        scorer=[match(), includes()],
        epochs=2,
        version=3,
    )
    model = get_model("mockllm/model", custom_outputs=reply)
    for log_format in ("json", "eval"):
        eval(task, model=model, log_dir=str(out / log_format), log_format=log_format,
             display="none", fail_on_error=False)  # fmt: skip


if __name__ == "__main__":
    main(Path(sys.argv[1]))

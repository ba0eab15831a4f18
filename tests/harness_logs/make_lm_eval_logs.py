"""Write real lm-evaluation-harness ``--log_samples`` output for the rescore tests.

Runs lm-eval's own command line (``lm-eval run ... --log_samples``) on a local
generation task (a JSONL data file and a task YAML written here) with a small
registered model that answers from a table, so the run needs no network, no torch
and no model weights. lm-eval's EvaluationTracker writes ``results_*.json`` and
``samples_<task>_*.jsonl`` under ``OUT/results/<model>/``. A second run, of a local
multiple-choice task (``assay_mc``: the model's log-likelihoods come from a table,
one question with a tie), writes under ``OUT/mc/<model>/``.

Usage: python make_lm_eval_logs.py OUT
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

QUESTIONS = [
    ("What is the capital of France?", "Paris", "Paris"),
    ("How many legs does a spider have?", "8", "It has 8 legs"),
    ("Who wrote Hamlet?", "William Shakespeare", "Shakespeare"),
    ("What colour is the sky on a clear day?", "blue", "Blue."),
    ("What is the boiling point of water in Celsius?", "100", "about 90 degrees"),
    ("Which planet is known as the red planet?", "Mars", "Jupiter"),
]

TASK_YAML = """\
task: assay_qa
dataset_path: json
dataset_kwargs:
  data_files:
    test: {data}
test_split: test
output_type: generate_until
doc_to_text: "Q: {{{{question}}}}\\nA:"
doc_to_target: "{{{{answer}}}}"
generation_kwargs:
  until: ["\\n"]
  do_sample: false
filter_list:
  - name: whole
    filter:
      - function: take_first
  - name: first-word
    filter:
      - function: regex
        regex_pattern: "(\\\\w+)"
        group_select: 0
        fallback: "[none]"
      - function: take_first
metric_list:
  - metric: exact_match
    aggregation: mean
    higher_is_better: true
metadata:
  version: 1.0
"""


# (question, choices, gold index, log-likelihood per choice); the tie picks the first
CHOICES = [
    ("What is the capital of France?", ["Berlin", "Paris", "Rome"], 1, [-3.0, -0.5, -4.0]),
    ("How many legs does a spider have?", ["6", "8", "10"], 1, [-0.5, -3.0, -3.5]),
    ("Which planet is known as the red planet?", ["Mars", "Venus"], 0, [-0.25, -2.0]),
    ("Which is a mammal?", ["trout", "whale", "shark"], 1, [-1.0, -1.0, -6.0]),
]

MC_YAML = """\
task: assay_mc
dataset_path: json
dataset_kwargs:
  data_files:
    test: {data}
test_split: test
output_type: multiple_choice
doc_to_text: "Q: {{{{question}}}}\\nA:"
doc_to_choice: "{{{{choices}}}}"
doc_to_target: label
metric_list:
  - metric: acc
    aggregation: mean
    higher_is_better: true
metadata:
  version: 2.0
"""


def write_task(folder: Path) -> None:
    data = folder / "qa.jsonl"
    with data.open("w", encoding="utf-8") as handle:
        for question, answer, _ in QUESTIONS:
            handle.write(json.dumps({"question": question, "answer": answer}) + "\n")
    (folder / "assay_qa.yaml").write_text(TASK_YAML.format(data=data), encoding="utf-8")
    choices = folder / "mc.jsonl"
    with choices.open("w", encoding="utf-8") as handle:
        for question, options, label, _ in CHOICES:
            row = {"question": question, "choices": options, "label": label}
            handle.write(json.dumps(row) + "\n")
    (folder / "assay_mc.yaml").write_text(MC_YAML.format(data=choices), encoding="utf-8")


def register_model() -> None:
    from lm_eval.api.model import LM
    from lm_eval.api.registry import register_model as register

    replies = {question: reply for question, _, reply in QUESTIONS}
    scores = {(q, option): ll for q, options, _, lls in CHOICES
              for option, ll in zip(options, lls, strict=True)}  # fmt: skip

    @register("assay-table")
    class TableLM(LM):  # a model that answers from the table above
        def __init__(self, **kwargs: object) -> None:
            super().__init__()

        def generate_until(self, requests, disable_tqdm: bool = False):  # type: ignore[no-untyped-def]
            found = [re.search(r"Q: (.*)\nA:", r.arguments[0]) for r in requests]
            return [replies[m.group(1)] if m else "" for m in found]

        def loglikelihood(self, requests, disable_tqdm: bool = False):  # type: ignore[no-untyped-def]
            out = []
            for request in requests:
                context, continuation = request.arguments
                found = re.search(r"Q: (.*)\nA:", context)
                score = scores[(found.group(1) if found else "", continuation.strip())]
                out.append((score, False))
            return out

        def loglikelihood_rolling(self, requests, disable_tqdm: bool = False):  # type: ignore[no-untyped-def]
            raise NotImplementedError


def main(out: Path) -> None:
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    tasks = out / "tasks"
    tasks.mkdir(parents=True, exist_ok=True)
    write_task(tasks)
    register_model()
    from lm_eval.__main__ import cli_evaluate

    for task, folder in (("assay_qa", "results"), ("assay_mc", "mc")):
        sys.argv = [
            "lm-eval", "run", "--model", "assay-table", "--model_args", "pretrained=table-v1",
            "--tasks", task, "--include_path", str(tasks),
            "--output_path", str(out / folder), "--log_samples",
        ]  # fmt: skip
        cli_evaluate()


if __name__ == "__main__":
    main(Path(sys.argv[1]))

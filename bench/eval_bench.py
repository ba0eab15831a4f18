"""Benchmark: `assay eval` on 1,345 questions × 13 systems vs a pure-Python baseline.

Generates a synthetic benchmark shaped like XL-DocBench's strict release (Str 838,
Int 209, Float 110, None 188) and 13 prediction files answering in sentences
(bench/scale_data.py, style ``sentence``), then times, in one process:

- assay: ``evaluate()`` for all 13 systems under the ``xldocbench`` profile (gold read
  and prepared once, prediction files streamed, Levenshtein from rapidfuzz);
- baseline: a straightforward pure-Python re-implementation of the same rules with a
  dynamic-programming Levenshtein, as the released evaluator does.

Both must agree on every per-question number. Prints both times and the ratio.
Target: assay < 1 s wall time and ≥ 10× faster than the baseline.

Run: PYTHONPATH=src python bench/eval_bench.py
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import scale_data  # noqa: E402  (bench/ sibling module)

from assay.evaluation.runs import SystemInput, evaluate  # noqa: E402

REPEATS = 3


def write_benchmark(root: Path, seed: int) -> tuple[Path, list[Path]]:
    """1,345 questions and 13 systems answering in sentences (bench/scale_data.py)."""
    gold_path, *files = scale_data.write(root, 1345, seed, styles=scale_data.SENTENCE)
    return gold_path, files


# --- the pure-Python baseline: the released rules written plainly --------------------------

_KEEP = re.compile(r"[^\w\s.\-%]")
_ART = re.compile(r"\b(a|an|the)\b")
_WS = re.compile(r"\s+")
_NUM = re.compile(r"-?\d+\.?\d*")
_TYPES = {
    "Str": "entity",
    "Int": "numeric",
    "Float": "numeric",
    "None": "unanswerable",
    "Bool": "boolean",
    "Boolean": "boolean",
    "Percentage": "percentage",
}
_UNANS = (
    "not answerable",
    "unanswerable",
    "cannot be determined",
    "cannot be answered",
    "not enough information",
    "context_overflow",
)


def base_norm(text: str) -> str:
    text = text.strip().lower()
    for prefix in ("the answer is", "answer:", "answer is"):
        if text.startswith(prefix):
            text = text[len(prefix) :].strip()
    return _WS.sub(" ", _ART.sub(" ", _KEEP.sub("", text))).strip()


def dp_levenshtein(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def base_sim(a: str, b: str) -> float:
    longest = max(len(a), len(b))
    return 1.0 if longest == 0 else 1.0 - dp_levenshtein(a, b) / longest


def base_num(text: str) -> float | None:
    m = _NUM.search(text.replace(",", "").replace(" ", ""))
    return float(m.group()) if m else None


def base_accuracy(kind: str, p: str, g: str) -> float:
    if kind == "unanswerable":
        return float(any(x in p for x in _UNANS))
    if kind in ("numeric", "percentage"):
        pn, gn = base_num(p), base_num(g)
        if pn is not None and gn is not None:
            if gn == 0:
                return float(abs(pn) < 1e-6)
            return float(abs(pn - gn) / abs(gn) <= 0.05)
    if g and g in p:
        return 1.0
    return float(base_sim(p, g) >= 0.8)


def base_f1(p: str, g: str) -> float:
    ps, gs = set(p.split()), set(g.split())
    if not gs:
        return float(not ps)
    common = len(ps & gs)
    if not ps or not common:
        return 0.0
    precision, recall = common / len(ps), common / len(gs)
    return 2 * precision * recall / (precision + recall)


def base_anls(p: str, g: str) -> float:
    a, b = p.strip().lower(), g.strip().lower()
    if not a or not b:
        return float(not a and not b)
    s = base_sim(a, b)
    return s if s >= 0.5 else 0.0


def baseline(gold_path: Path, files: list[Path]) -> dict[str, list[tuple[float, float, float]]]:
    gold = [json.loads(line) for line in gold_path.read_text("utf-8").splitlines() if line.strip()]
    out = {}
    for path in files:
        preds = {}
        for line in path.read_text("utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                preds[row["question_id"]] = row
        scores = []
        for g in gold:
            row = preds.get(g["question_id"])
            text = "" if row is None else (row.get("prediction") or "")
            if row is not None and row.get("status") in ("context_overflow", "vision_unsupported"):
                text = "CONTEXT_OVERFLOW"
            value = g["answer"]["value"]
            p, gn = base_norm(text), base_norm(value)
            kind = _TYPES.get(g["answer"]["format"], "entity")
            scores.append((base_accuracy(kind, p, gn), base_f1(p, gn), base_anls(text, value)))
        out[path.stem] = scores
    return out


def peak_memory_mb(gold_path: Path, prediction_file: Path) -> float:
    """Peak Python heap (tracemalloc) while evaluating one system."""
    tracemalloc.start()
    evaluate([gold_path], [SystemInput("s", (str(prediction_file),))], profile="xldocbench")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def memory_check(gold_path: Path, prediction_file: Path, padding_rows: int) -> bool:
    """Memory must not grow with the prediction file: pad it with rows of unknown ids."""
    big = prediction_file.with_name("padded.jsonl")
    with big.open("w", encoding="utf-8") as out:
        out.write(prediction_file.read_text("utf-8"))
        filler = "lorem ipsum " * 200
        for i in range(padding_rows):
            out.write(json.dumps({"question_id": f"pad-{i}", "prediction": filler}) + "\n")
    small_mb, big_mb = peak_memory_mb(gold_path, prediction_file), peak_memory_mb(gold_path, big)
    size_mb, own_mb = big.stat().st_size / 2**20, prediction_file.stat().st_size / 2**20
    print(
        f"peak heap, one system: {small_mb:.1f} MB with its {own_mb:.1f} MB "
        f"file; {big_mb:.1f} MB with a {size_mb:.0f} MB file ({padding_rows} extra rows)"
    )
    return big_mb < small_mb + size_mb / 10


def main() -> None:
    seed = 1345
    with tempfile.TemporaryDirectory() as tmp:
        gold_path, files = write_benchmark(Path(tmp), seed)
        systems = [SystemInput(f.stem, (str(f),)) for f in files]
        evaluate([gold_path], systems[:1], profile="xldocbench")  # warm imports and caches
        runs = []
        for _ in range(REPEATS):
            start = time.perf_counter()
            result = evaluate([gold_path], systems, profile="xldocbench")
            runs.append(time.perf_counter() - start)
        assay_time = min(runs)
        start = time.perf_counter()
        expected = baseline(gold_path, files)
        base_time = time.perf_counter() - start
        start = time.perf_counter()
        evaluate([gold_path], systems, profile="assay", duplicate_policy="last-wins")
        assay_profile_time = time.perf_counter() - start
        streamed = memory_check(gold_path, files[0], padding_rows=20_000)
    mismatches = sum(
        (q.accuracy, q.token_f1, q.anls) != exp
        for s in result.systems
        for q, exp in zip(s.questions, expected[s.system], strict=True)
    )
    n = sum(len(s.questions) for s in result.systems)
    print(
        f"benchmark: {len(result.systems[0].questions)} questions x {len(systems)} systems "
        f"= {n} scored items (seed {seed})"
    )
    print(
        f"assay evaluate (xldocbench profile): {assay_time:.3f} s "
        f"(best of {REPEATS}: {', '.join(f'{r:.3f}' for r in runs)})"
    )
    print(f"assay evaluate (assay profile):      {assay_profile_time:.3f} s")
    print(f"pure-Python baseline (DP Levenshtein): {base_time:.3f} s")
    print(f"speed-up: {base_time / assay_time:.1f}x")
    print(f"per-question mismatches vs baseline: {mismatches}")
    verdict = {True: "MET", False: "NOT MET"}
    rows = [
        ("eval_bench 13 x 1,345 evaluate (xldocbench)", f"{assay_time:.3f} s", "< 1 s",
         assay_time < 1.0),
        ("eval_bench speed-up vs pure-Python baseline", f"{base_time / assay_time:.1f}x", ">= 10x",
         base_time / assay_time >= 10),
        ("eval_bench per-question mismatches vs baseline", str(mismatches), "0", mismatches == 0),
        ("eval_bench heap does not grow with the prediction file", "see above", "streaming",
         streamed),
    ]  # fmt: skip
    for name, measured, goal, met in rows:
        print(f"TARGET {name} | {measured} | {goal} | {verdict[met]}")
    sys.exit(0)


if __name__ == "__main__":
    main()

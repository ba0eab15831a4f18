"""Judge throughput with concurrency, and the semantic metrics' speed.

The judge runs against the scripted chat-completions server of the tests
(tests/judge_server.py, a real HTTP server on 127.0.0.1) with a fixed 50 ms
delay per request standing in for model latency; the figures are items judged
per second at each concurrency, with a cold ledger and then replayed from it.
The issue names no target for these, so they are reported, not judged MET.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import assay  # noqa: E402
from assay.judge.answers import AnswerItem, judge_answers  # noqa: E402
from assay.judge.config import JudgeConfig  # noqa: E402
from judge_server import JudgeServer  # noqa: E402

ITEMS = [AnswerItem(f"b{i}", f"The answer is Paris {i}.", "Q?", "Paris") for i in range(200)]
DELAY = 0.05


def judge_throughput(concurrency: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as cache, JudgeServer() as server:
        server.delay = DELAY
        config = JudgeConfig(url=server.url, model="m", cache_dir=Path(cache),
                             concurrency=concurrency)  # fmt: skip
        start = time.perf_counter()
        judge_answers(ITEMS, "rubric", config)
        cold = time.perf_counter() - start
        start = time.perf_counter()
        judge_answers(ITEMS, "rubric", config)
        warm = time.perf_counter() - start
    return len(ITEMS) / cold, len(ITEMS) / warm


def semantic_speed() -> None:
    pairs = [(f"The cat sat on the mat number {i}.", "A cat was sitting on a mat.")
             for i in range(2000)]  # fmt: skip
    assay.score("greedy_match", "warm", ["up"])  # load the model once
    for metric in ("embedding_cosine", "greedy_match"):
        start = time.perf_counter()
        assay.score_corpus(metric, [p for p, _ in pairs], [[t] for _, t in pairs])
        elapsed = time.perf_counter() - start
        print(f"{metric}: {len(pairs) / elapsed:,.0f} pairs/s (2000 sentence pairs)")


def main() -> None:
    print(f"judge: {len(ITEMS)} items, 1 vote each, server delay {DELAY * 1000:.0f} ms/request")
    for concurrency in (1, 4, 16):
        cold, warm = judge_throughput(concurrency)
        print(f"  concurrency {concurrency:>2}: {cold:7.1f} items/s live, "
              f"{warm:9.1f} items/s replayed from the ledger")  # fmt: skip
    semantic_speed()


if __name__ == "__main__":
    main()

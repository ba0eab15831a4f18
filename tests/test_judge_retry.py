"""The judge's retry policy, cost and hostile replies, against a real 127.0.0.1 server.

The policy is the official OpenAI Python client's: 408, 409, 429 and every 5xx are
retried, ``x-should-retry`` overrides, ``retry-after-ms`` / ``Retry-After`` (seconds
or an HTTP date, in (0, 60] s) set the wait, else ``min(backoff·2ⁿ, 8)`` less a seeded
jitter of up to a quarter.
"""

from __future__ import annotations

import email.utils
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from assay.judge.answers import AnswerItem, judge_answers
from assay.judge.config import JudgeConfig
from judge_server import JudgeServer

RUBRIC = "Pass when the answer states the reference answer."
OK_REPLY = json.dumps({
    "model": "m-returned", "choices": [{"message": {"content": '{"verdict": "pass"}'}}],
})  # fmt: skip


def config(url: str | None, cache: Path, **extra: object) -> JudgeConfig:
    settings: dict[str, object] = {"backoff": 0.01, "timeout": 5.0, "retries": 1}
    settings.update(extra)
    return JudgeConfig(url=url, model="judge-model", cache_dir=cache, **settings)  # type: ignore[arg-type]


def one(answer: str) -> list[AnswerItem]:
    return [AnswerItem("a0", answer, "Q?", "Paris")]


def ledger(folder: Path) -> list[dict]:
    return [json.loads(x) for x in (folder / "ledger.jsonl").read_bytes().splitlines()]


@pytest.mark.parametrize("status", [408, 409, 429, 500, 501, 502, 503, 504, 505, 520, 529, 599])
def test_retried_statuses(tmp_path: Path, status: int) -> None:
    with JudgeServer() as server:
        server.script("MARK", (status, {}, '{"error": "x"}'))
        report, _ = judge_answers(one("MARK Paris"), RUBRIC, config(server.url, tmp_path))
        assert len(server.requests) == 2
    assert report["items"][0]["verdict"] == "pass"
    assert ledger(tmp_path)[0]["response"]["trail"] == [f"http_{status}", "ok"]


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
def test_other_statuses_are_sent_once(tmp_path: Path, status: int) -> None:
    with JudgeServer() as server:
        server.script("MARK", (status, {}, '{"error": "x"}'))
        report, _ = judge_answers(one("MARK Paris"), RUBRIC, config(server.url, tmp_path))
        assert len(server.requests) == 1
    assert report["items"][0]["reason"] == f"no parseable vote (http_{status})"


def test_x_should_retry_overrides_the_status(tmp_path: Path) -> None:
    with JudgeServer() as server:
        server.script("NO", (503, {"x-should-retry": "false"}, "{}"))
        server.script("YES", (400, {"x-should-retry": "true"}, "{}"))
        report, _ = judge_answers(
            [AnswerItem("n", "NO Paris", "Q", "Paris"), AnswerItem("y", "YES Paris", "Q", "Paris")],
            RUBRIC, config(server.url, tmp_path, concurrency=1),
        )  # fmt: skip
        assert len(server.requests) == 3  # NO once, YES twice
    assert [r["verdict"] for r in report["items"]] == ["judge_failed", "pass"]
    assert report["items"][0]["reason"] == "no parseable vote (http_503)"


def _gap(server: JudgeServer) -> float:
    assert len(server.times) == 2
    return server.times[1] - server.times[0]


def test_retry_after_ms_is_honoured(tmp_path: Path) -> None:
    with JudgeServer() as server:  # backoff 3 s: ignoring the header would wait >= 2.25 s
        server.script("MARK", (429, {"retry-after-ms": "300", "retry-after": "7"}, "{}"))
        judge_answers(one("MARK Paris"), RUBRIC, config(server.url, tmp_path, backoff=3.0))
        assert 0.28 <= _gap(server) < 1.5
    assert ledger(tmp_path)[0]["response"]["waits"] == [0.3]


def test_retry_after_seconds_is_honoured(tmp_path: Path) -> None:
    with JudgeServer() as server:  # backoff 0.01 s: ignoring the header would not wait
        server.script("MARK", (503, {"retry-after": "1"}, "{}"))
        judge_answers(one("MARK Paris"), RUBRIC, config(server.url, tmp_path))
        assert _gap(server) >= 0.98
    assert ledger(tmp_path)[0]["response"]["waits"] == [1.0]


def test_retry_after_http_date_is_honoured(tmp_path: Path) -> None:
    with JudgeServer() as server:  # backoff 0.01 s: ignoring the header would not wait
        when = email.utils.formatdate(time.time() + 4, usegmt=True)  # whole seconds: wait <= 4
        server.script("MARK", (429, {"retry-after": when}, "{}"))
        judge_answers(one("MARK Paris"), RUBRIC, config(server.url, tmp_path))
        gap = _gap(server)
    (wait,) = ledger(tmp_path)[0]["response"]["waits"]
    assert 0.5 <= wait <= 4.0 and gap >= wait - 0.01  # the date, less the time to get there


@pytest.mark.parametrize("header", ["120", "0", "-3", "nan", "soon"])
def test_retry_after_out_of_range_falls_back_to_backoff(tmp_path: Path, header: str) -> None:
    with JudgeServer() as server:
        server.script("MARK", (429, {"retry-after": header}, "{}"))
        judge_answers(one("MARK Paris"), RUBRIC, config(server.url, tmp_path, backoff=0.02))
        assert _gap(server) < 1.0
    (wait,) = ledger(tmp_path)[0]["response"]["waits"]
    assert 0.015 <= wait <= 0.02  # backoff 0.02 less at most a quarter


def test_backoff_doubles_with_a_seeded_jitter(tmp_path: Path) -> None:
    waits = []
    for run in ("a", "b"):
        with JudgeServer() as server:
            server.script("MARK", *[(503, {}, "{}")] * 4)
            judge_answers(one("MARK Paris"), RUBRIC,
                          config(server.url, tmp_path / run, retries=3, backoff=0.04))  # fmt: skip
            assert len(server.requests) == 4
        waits.append(ledger(tmp_path / run)[0]["response"]["waits"])
    assert waits[0] == waits[1]  # seeded from the ledger key: the same every run
    for n, wait in enumerate(waits[0]):
        base = 0.04 * 2**n
        assert 0.75 * base <= wait <= base
    assert len(set(w / (0.04 * 2**n) for n, w in enumerate(waits[0]))) == 3  # jittered
    with JudgeServer() as server:  # another seed, other waits
        server.script("MARK", *[(503, {}, "{}")] * 4)
        cfg = config(server.url, tmp_path / "c", retries=3, backoff=0.04, seed=7)
        judge_answers(one("MARK Paris"), RUBRIC, cfg)
    assert ledger(tmp_path / "c")[0]["response"]["waits"] != waits[0]


def test_backoff_is_capped_at_8_seconds() -> None:
    import random

    from assay.judge.client import backoff_wait

    cfg = JudgeConfig(url="http://127.0.0.1:9/v1", model="m")
    waits = [backoff_wait(cfg, n, random.Random(n)) for n in range(40)]
    assert all(6.0 <= w <= 8.0 for w in waits[5:])  # 0.5·2^5 = 16 > 8: capped, then jittered
    assert 0.375 <= waits[0] <= 0.5


def test_cost_from_the_litellm_header_is_summed(tmp_path: Path) -> None:
    with JudgeServer() as server:
        server.usage = False
        headers = {"x-litellm-response-cost": "0.00042"}
        server.script("COST", (200, headers, OK_REPLY), (200, headers, OK_REPLY))
        report, _ = judge_answers(
            [AnswerItem("a", "COST 1", "Q", "x"), AnswerItem("b", "COST 2", "Q", "x")],
            RUBRIC, config(server.url, tmp_path),
        )  # fmt: skip
    assert report["usage"]["cost"] == pytest.approx(0.00084, abs=1e-15)
    again, counts = judge_answers(
        [AnswerItem("a", "COST 1", "Q", "x"), AnswerItem("b", "COST 2", "Q", "x")],
        RUBRIC, config(None, tmp_path, offline=True),
    )  # fmt: skip
    assert again == report and counts.replayed == 2


def test_no_cost_anywhere_is_null(tmp_path: Path) -> None:
    with JudgeServer() as server:
        server.usage = False
        server.script("X", (200, {}, OK_REPLY))
        report, _ = judge_answers(one("X"), RUBRIC, config(server.url, tmp_path))
    assert report["usage"]["cost"] is None


HOSTILE = {
    "deep_body": ("[" * 100_000 + "]" * 100_000, "no parseable vote (malformed_response: "
                  "nested too deeply)"),
    "huge_int_body": ('{"choices": [{"message": {"content": "x"}}], "n": ' + "9" * 5000 + "}",
                      "no parseable vote (malformed_response: ValueError)"),
    "deep_content": (json.dumps({"choices": [{"message": {"content": '{"verdict": "pass", '
                     '"why": ' + "[" * 50_000 + "]" * 50_000 + "}"}}]}),
                     "no parseable vote (unparseable: a JSON value nested too deeply to read)"),
    "huge_int_content": (json.dumps({"choices": [{"message": {"content": '{"verdict": "pass", '
                         '"n": ' + "7" * 5000 + "}"}}]}),
                         "no parseable vote (unparseable: expected one JSON object with a "
                         "'verdict', found 0)"),
    "deep_usage": ('{"choices": [{"message": {"content": "{\\"verdict\\": \\"fail\\"}"}}], '
                   '"usage": {"prompt_tokens": 3, "x": ' + "[" * 900 + "]" * 900 + "}}", ""),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_replies_are_judge_failed_not_a_crash(tmp_path: Path, case: str) -> None:
    from assay.report.judge_files import render_judge_json

    body, reason = HOSTILE[case]
    with JudgeServer() as server:
        server.script("MARK", (200, {}, body))
        report, _ = judge_answers(one("MARK"), RUBRIC, config(server.url, tmp_path))
    assert report["items"][0]["reason"] == reason
    replay, counts = judge_answers(one("MARK"), RUBRIC, config(None, tmp_path, offline=True))
    assert counts.replayed == 1 and render_judge_json(replay) == render_judge_json(report)


def test_escaped_lone_surrogate_in_a_reply_is_recorded_and_replayed(tmp_path: Path) -> None:
    from assay.report.judge_files import render_judge_json

    reply = ('{"model": "m\\ud800", "choices": [{"message": {"content": '
             '"{\\"verdict\\": \\"pass\\", \\"reason\\": \\"\\ud800\\"}"}}]}')  # fmt: skip
    with JudgeServer() as server:
        server.script("MARK", (200, {}, reply))
        report, _ = judge_answers(one("MARK"), RUBRIC, config(server.url, tmp_path))
    assert report["items"][0]["verdict"] == "pass"
    assert report["judge_fingerprint"]["model_returned"] == ["m\ud800"]
    replay, _ = judge_answers(one("MARK"), RUBRIC, config(None, tmp_path, offline=True))
    assert render_judge_json(replay) == render_judge_json(report)


def assay(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "assay", *args], capture_output=True,
                          text=True, timeout=120)  # fmt: skip


def _answers(tmp_path: Path, answer: str) -> Path:
    path = tmp_path / "answers.jsonl"
    path.write_text(json.dumps({"id": "a", "answer": answer, "reference": "Paris"}) + "\n")
    return path


def test_lone_surrogate_in_an_answer_is_judged_and_replayed(tmp_path: Path) -> None:
    items = _answers(tmp_path, "Paris \ud800 here")
    (tmp_path / "rubric.txt").write_text(RUBRIC)
    common = ["judge", "--items", str(items), "--rubric", str(tmp_path / "rubric.txt"),
              "--judge-model", "m", "--judge-cache", str(tmp_path / "c")]  # fmt: skip
    cold = assay(*common, "--judge-offline", "--output", str(tmp_path / "o.json"))
    assert cold.returncode == 1 and cold.stderr.startswith("error: --judge-offline: the ledger ")
    with JudgeServer() as server:
        done = assay(*common, "--judge-url", server.url, "--output", str(tmp_path / "a.json"))
        assert done.returncode == 0, done.stderr
        assert "\ud800" in server.requests[0]["body"]["messages"][-1]["content"]
    warm = assay(*common, "--judge-offline", "--output", str(tmp_path / "b.json"))
    assert warm.returncode == 0, warm.stderr
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    assert json.loads((tmp_path / "a.json").read_text())["items"][0]["verdict"] == "pass"


@pytest.mark.parametrize("value", ["inf", "1e308", "nan", "-1", "0"])
def test_judge_timeout_out_of_range_is_refused(tmp_path: Path, value: str) -> None:
    items = _answers(tmp_path, "Paris")
    judge = assay("judge", "--items", str(items), "--rubric", str(items), "--judge-url",
                  "http://127.0.0.1:9/v1", "--judge-model", "m", "--judge-timeout", value,
                  "--judge-cache", str(tmp_path / "c"),
                  "--output", str(tmp_path / "r.json"))  # fmt: skip
    assert judge.returncode == 2, judge.stderr
    assert judge.stderr.startswith(f"error: --judge-timeout {float(value)}: give a finite")
    assert judge.stderr.count("\n") == 1
    schema = tmp_path / "s.json"
    schema.write_text('{"type": "object"}')
    rows = tmp_path / "i.jsonl"
    rows.write_text('{"id": "1", "response": "{}", "claims": ["c"], "reference": {"fields": {}, '
                    '"statements": ["c"]}}\n')  # fmt: skip
    structured = assay("structured", "--items", str(rows), "--schema", str(schema),
                       "--judge-url", "http://127.0.0.1:9/v1", "--judge-model", "m",
                       "--judge-timeout", value, "--output", str(tmp_path / "st.json"))  # fmt: skip
    assert structured.returncode == 2, structured.stderr
    assert structured.stderr.startswith(f"error: --judge-timeout {float(value)}: give a finite")
    assert not (tmp_path / "st.json").exists()

"""The LLM judge through the real httpx client against a real 127.0.0.1 server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from assay.errors import InvalidOptionError
from assay.judge.answers import AnswerItem, judge_answers
from assay.judge.config import JudgeConfig
from assay.judge.ledger import Ledger, LedgerMissError
from assay.judge.prompts import RUBRIC_LABELS, parse_verdict
from judge_server import MODEL_RETURNED, JudgeServer

RUBRIC = "Pass when the answer states the reference answer."


def config(url: str | None, cache: Path, **extra: object) -> JudgeConfig:
    settings: dict[str, object] = {"backoff": 0.01, "timeout": 5.0, "retries": 2}
    settings.update(extra)
    return JudgeConfig(url=url, model="judge-model", cache_dir=cache, **settings)  # type: ignore[arg-type]


def items(*answers: tuple[str, str]) -> list[AnswerItem]:
    pairs = enumerate(answers)
    return [AnswerItem(f"a{i}", answer, "Q?", reference) for i, (answer, reference) in pairs]


def test_success_fingerprint_usage_and_key(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("JUDGE_TEST_KEY", "sk-test-123")
    with JudgeServer() as server:
        cfg = config(server.url, tmp_path, key_env="JUDGE_TEST_KEY")
        report, counts = judge_answers(
            items(("It is Paris.", "Paris"), ("Rome", "Paris")), RUBRIC, cfg
        )
    assert [row["verdict"] for row in report["items"]] == ["pass", "fail"]
    assert report["score"] == {**report["score"], "mean": 0.5, "k": 1, "n": 2}
    assert report["judge_fingerprint"]["model_returned"] == [MODEL_RETURNED]
    assert report["judge_fingerprint"]["model_requested"] == "judge-model"
    assert report["signature"].startswith(f"judge|llm-judge(model:{MODEL_RETURNED};template:")
    assert "votes:1)" in report["signature"] and "parse:verdict-json-v1" in report["signature"]
    assert (counts.replayed, counts.fetched, counts.requests) == (0, 2, 2)
    assert {r["authorization"] for r in server.requests} == {"Bearer sk-test-123"}
    assert {r["path"] for r in server.requests} == {"/v1/chat/completions"}
    sent = [r["body"] for r in server.requests]
    assert {(b["model"], b["temperature"], b["seed"]) for b in sent} == {("judge-model", 0.0, 0)}
    prompt_tokens = sum(len(b["messages"][-1]["content"].split()) for b in sent)
    assert report["usage"]["prompt_tokens"] == prompt_tokens
    assert report["usage"]["completion_tokens"] == 24
    assert report["usage"]["cost"] == pytest.approx(0.0002)


def test_replay_is_byte_identical_with_no_request(tmp_path: Path) -> None:
    from assay.report.judge_files import render_judge_json

    answers = items(("Paris!", "Paris"), ("UNPARSEABLE", "x"), ("MALFORMED", "x"))
    with JudgeServer() as server:
        first, _ = judge_answers(answers, RUBRIC, config(server.url, tmp_path))
    with JudgeServer() as other:  # another port: the URL is not part of the key
        again, counts = judge_answers(answers, RUBRIC, config(other.url, tmp_path))
        assert other.requests == []
    assert (counts.replayed, counts.fetched) == (3, 0)
    offline, _ = judge_answers(answers, RUBRIC, config(None, tmp_path, offline=True))
    assert render_judge_json(first) == render_judge_json(again) == render_judge_json(offline)


def test_offline_miss_fails_and_sends_nothing(tmp_path: Path) -> None:
    with JudgeServer() as server:
        judge_answers(items(("Paris", "Paris")), RUBRIC, config(server.url, tmp_path))
        with pytest.raises(LedgerMissError, match="has no verdict for item 2 \\(vote 1\\)"):
            judge_answers(items(("Paris", "Paris"), ("Rome", "Rome")), RUBRIC,
                          config(server.url, tmp_path, offline=True))  # fmt: skip
        assert len(server.requests) == 1


def _ledger_lines(folder: Path) -> list[dict]:
    return [json.loads(x) for x in (folder / "ledger.jsonl").read_text().splitlines()]


def test_failures_are_a_bucket_with_reasons(tmp_path: Path) -> None:
    answers = items(("Paris", "Paris"), ("MALFORMED", "x"), ("UNPARSEABLE", "x"),
                    ("HTTP500ALWAYS", "x"), ("HANGUP", "x"))  # fmt: skip
    with JudgeServer() as server:
        report, _ = judge_answers(answers, RUBRIC, config(server.url, tmp_path, retries=1))
    reasons = [row["reason"] for row in report["items"]]
    assert reasons[0] == ""
    assert reasons[1] == "no parseable vote (malformed_response: JSONDecodeError)"
    assert reasons[2].startswith("no parseable vote (unparseable: expected one JSON object")
    assert reasons[3] == "no parseable vote (http_500)"
    assert reasons[4].startswith("no parseable vote (connection_error: ")
    assert report["accounting"] == {
        "total": 5, "scored": 1, "judge_failed": 4, "holds": True,
        "equation": "total 5 = scored 1 + judge_failed 4",
    }  # fmt: skip
    assert report["score"]["mean"] == 1.0 and report["score"]["n"] == 1  # never NaN, never a pass
    assert all(row["value"] is None for row in report["items"][1:])
    lines = _ledger_lines(tmp_path)
    assert len(lines) == 5  # every request is recorded, failed ones included
    http500 = next(x for x in lines if "HTTP500ALWAYS" in x["request"]["messages"][-1]["content"])
    assert http500["response"]["trail"] == ["http_500", "http_500"]
    assert http500["response"]["body"] == '{"error": {"message": "boom"}}'


def test_rate_limit_is_retried_after_retry_after(tmp_path: Path) -> None:
    with JudgeServer() as server:
        report, counts = judge_answers(
            items(("RATE_LIMIT Paris", "Paris")), RUBRIC, config(server.url, tmp_path)
        )
        assert len(server.requests) == 2
    assert report["items"][0]["verdict"] == "pass"
    assert (counts.fetched, counts.requests) == (1, 2)
    (line,) = _ledger_lines(tmp_path)
    assert line["response"]["trail"] == ["http_429", "ok"]


def test_timeout(tmp_path: Path) -> None:
    with JudgeServer() as server:
        cfg = config(server.url, tmp_path, timeout=0.5, retries=1)
        report, _ = judge_answers(items(("SLOW", "x")), RUBRIC, cfg)
    assert report["items"][0]["reason"] == "no parseable vote (timeout)"
    assert _ledger_lines(tmp_path)[0]["response"]["trail"] == ["timeout", "timeout"]


def test_server_death_mid_run(tmp_path: Path) -> None:
    server = JudgeServer().__enter__()
    url = server.url
    judge_answers(items(("Paris", "Paris")), RUBRIC, config(url, tmp_path))
    server.stop()  # the server dies; nothing listens on the port any more
    report, _ = judge_answers(
        items(("Paris", "Paris"), ("Rome", "Rome")), RUBRIC, config(url, tmp_path, retries=1)
    )
    assert report["items"][0]["verdict"] == "pass"  # from the ledger
    assert report["items"][1]["verdict"] == "judge_failed"
    assert report["items"][1]["reason"] == "no parseable vote (connection_error: ConnectError)"


def test_votes_majority_agreement_and_ties(tmp_path: Path) -> None:
    with JudgeServer() as server:
        three, _ = judge_answers(items(("SPLIT", "x")), RUBRIC,
                                 config(server.url, tmp_path, votes=3))  # fmt: skip
        two, _ = judge_answers(items(("SPLIT", "x")), RUBRIC,
                               config(server.url, tmp_path / "b", votes=2))  # fmt: skip
        seeds = sorted(r["body"]["seed"] for r in server.requests)
    # server: even seed → pass, odd → fail. Votes use seeds 0, 1, 2 → pass, fail, pass.
    row = three["items"][0]
    assert [v["label"] for v in row["votes"]] == ["pass", "fail", "pass"]
    assert (row["verdict"], row["agreement"]) == ("pass", {"k": 2, "n": 3})
    assert two["items"][0]["verdict"] == "judge_failed"
    assert two["items"][0]["reason"] == "tie between fail, pass"
    assert seeds == [0, 0, 1, 1, 2]
    assert three["judge_fingerprint"]["votes"] == 3


def test_concurrency_limit_is_respected(tmp_path: Path) -> None:
    import threading

    active, peak, lock = [0], [0], threading.Lock()
    with JudgeServer() as server:
        original = server.handle

        def counting(handler):  # type: ignore[no-untyped-def]
            with lock:
                active[0] += 1
                peak[0] = max(peak[0], active[0])
            try:
                server.delay = 0.05
                original(handler)
            finally:
                with lock:
                    active[0] -= 1

        server.handle = counting  # type: ignore[method-assign]
        answers = items(*[(f"Paris {i}", "Paris") for i in range(12)])
        judge_answers(answers, RUBRIC, config(server.url, tmp_path, concurrency=3))
    assert 2 <= peak[0] <= 3


def test_parse_rule() -> None:
    assert parse_verdict('{"verdict": " PASS "}', RUBRIC_LABELS) == ("pass", "")
    assert parse_verdict('ok {"verdict": "fail", "reason": "x"} done', RUBRIC_LABELS)[0] == "fail"
    assert parse_verdict('{"verdict": "maybe"}', RUBRIC_LABELS)[0] is None
    assert parse_verdict('{"verdict": "pass"} {"verdict": "fail"}', RUBRIC_LABELS)[0] is None
    assert parse_verdict('{"verdict": 1}', RUBRIC_LABELS)[0] is None
    assert parse_verdict("pass", RUBRIC_LABELS)[0] is None


def test_bad_ledger_line_names_file_and_line(tmp_path: Path) -> None:
    with JudgeServer() as server:
        judge_answers(items(("Paris", "Paris")), RUBRIC, config(server.url, tmp_path))
    with open(tmp_path / "ledger.jsonl", "a") as handle:
        handle.write("{oops\n")
    with pytest.raises(Exception, match=r"ledger.jsonl:2: invalid JSON"):
        Ledger.open(tmp_path)


def test_config_errors() -> None:
    with pytest.raises(InvalidOptionError, match="--judge-url"):
        JudgeConfig(url=None, model="m").validate()
    with pytest.raises(InvalidOptionError, match="--judge-key-env NOPE_UNSET"):
        JudgeConfig(url="http://127.0.0.1:9/v1", model="m", key_env="NOPE_UNSET").api_key()


# --- CLI: assay judge / structured / judge-calibrate -------------------------------------

DATA = Path(__file__).resolve().parents[1] / "src" / "assay" / "data" / "judge"


def assay(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "assay", *args], capture_output=True,
                          text=True, timeout=300, env=env)  # fmt: skip


def test_cli_judge_replays_byte_identically(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    with JudgeServer() as server:
        common = ["judge", "--items", str(DATA / "answers.jsonl"), "--rubric",
                  str(DATA / "rubric.txt"), "--judge-url", server.url, "--judge-model", "m",
                  "--judge-cache", str(cache), "--judge-votes", "2"]  # fmt: skip
        first = assay(*common, "--output", str(tmp_path / "a.json"))
        assert first.returncode == 0, first.stderr
        assert ("judge ledger: 0 replayed, 24 fetched (0 retried from an earlier failure), "
                "24 requests sent") in first.stderr
        sent = len(server.requests)
    offline = assay(*common, "--judge-offline", "--output", str(tmp_path / "b.json"))
    assert offline.returncode == 0, offline.stderr
    assert ("judge ledger: 24 replayed, 0 fetched (0 retried from an earlier failure), "
            "0 requests sent") in offline.stderr
    assert sent == 24
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    assert offline.stdout == first.stdout.replace("a.json", "b.json")
    report = json.loads((tmp_path / "a.json").read_text())
    assert "hits" not in json.dumps(report)
    assert "judge: 0.583" in first.stdout and "pass 7/12" in first.stdout


def test_cli_offline_miss_is_one_line(tmp_path: Path) -> None:
    done = assay("judge", "--items", str(DATA / "answers.jsonl"), "--rubric",
                 str(DATA / "rubric.txt"), "--judge-model", "m", "--judge-offline",
                 "--judge-cache", str(tmp_path), "--output", str(tmp_path / "r.json"))  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.startswith("error: --judge-offline: the ledger ")
    assert done.stderr.count("\n") == 1
    assert not (tmp_path / "r.json").exists()


def _structured_inputs(tmp_path: Path) -> list[str]:
    schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    (tmp_path / "schema.json").write_text(json.dumps(schema))
    reference = {"fields": {"name": "Brindle Lamp"},
                 "statements": ["the lamp ships with a bulb"],
                 "contradictions": ["the lamp is cordless"]}  # fmt: skip
    rows = [
        {"id": "p1", "response": '{"name": "Brindle Lamp"}', "reference": reference,
         "claims": ["the lamp ships with a bulb", "the lamp is cordless",
                    "the lamp was designed in Lisbon", "UNPARSEABLE claim"]},
    ]  # fmt: skip
    (tmp_path / "items.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return ["structured", "--items", str(tmp_path / "items.jsonl"), "--schema",
            str(tmp_path / "schema.json")]  # fmt: skip


def test_cli_structured_with_judge_replays(tmp_path: Path) -> None:
    base = _structured_inputs(tmp_path)
    cache = ["--judge-cache", str(tmp_path / "cache"), "--judge-model", "m"]
    with JudgeServer() as server:
        first = assay(*base, *cache, "--judge-url", server.url,
                      "--output", str(tmp_path / "a.json"))  # fmt: skip
        assert first.returncode == 0, first.stderr
        assert len(server.requests) == 4
    again = assay(*base, *cache, "--judge-offline", "--output", str(tmp_path / "b.json"))
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    report = json.loads((tmp_path / "a.json").read_text())
    claims = {c["value"]: c for c in report["items"][0]["fact"]["claims"] if c["free_text"]}
    assert claims["the lamp ships with a bulb"]["verdict"] == "supported"
    assert claims["the lamp is cordless"]["verdict"] == "contradicted"
    assert claims["the lamp was designed in Lisbon"]["verdict"] == "insufficient"
    failed = claims["UNPARSEABLE claim"]
    assert failed["verdict"] == "judge_failed" and "unparseable" in failed["detail"]
    assert f"llm-judge(model:{MODEL_RETURNED};" in report["signature"]
    assert report["llm_judge"]["claims_judged"] == 4
    assert report["llm_judge"]["usage"]["completion_tokens"] == 48


# A sitecustomize that makes any socket connection fail: scoring must not need one.
NO_NET = """
import socket
def _refuse(*args, **kwargs):
    raise OSError("network used")
socket.socket.connect = _refuse
socket.create_connection = _refuse
"""


def test_structured_without_judge_touches_no_network(tmp_path: Path) -> None:
    base = _structured_inputs(tmp_path)
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(NO_NET)
    env = dict(os.environ, PYTHONPATH=str(site))
    done = assay(*base, "--output", str(tmp_path / "s.json"), env=env)
    assert done.returncode == 0, done.stderr
    assert "judge ledger" not in done.stderr
    report = json.loads((tmp_path / "s.json").read_text())
    assert "llm_judge" not in report and "judge:normalized-match:squad" in report["signature"]


def test_calibrate_bundled_sample_against_nltk(tmp_path: Path) -> None:
    from nltk.metrics.agreement import AnnotationTask

    rows = [json.loads(x) for x in (DATA / "human_labels.jsonl").read_text().splitlines()]
    human = [("human", r["id"], r["label"]) for r in rows]
    task = AnnotationTask(human + [("judge", r["id"], r["judge"]) for r in rows])
    expected = task.kappa()
    done = assay("judge-calibrate", "--human", str(DATA / "human_labels.jsonl"),
                 "--output", str(tmp_path / "c.json"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads((tmp_path / "c.json").read_text())
    assert result["kappa"] == pytest.approx(expected, abs=1e-12)
    # by hand: p_o = 10/12, p_e = (9·7 + 3·5)/144, κ = (p_o − p_e)/(1 − p_e)
    p_e = (9 * 7 + 3 * 5) / 144
    assert result["kappa"] == pytest.approx((10 / 12 - p_e) / (1 - p_e), abs=1e-12)
    assert result["confusion"] == {"fail": {"fail": 3, "pass": 0}, "pass": {"fail": 2, "pass": 7}}
    assert result["base_rates"]["human"] == {"fail": 0.25, "pass": 0.75}
    assert f"Cohen's kappa: {expected:.3f} (n=12)" in done.stdout


def test_calibrate_against_a_judge_run(tmp_path: Path) -> None:
    with JudgeServer() as server:
        done = assay("judge", "--items", str(DATA / "answers.jsonl"), "--rubric",
                     str(DATA / "rubric.txt"), "--judge-url", server.url, "--judge-model", "m",
                     "--judge-cache", str(tmp_path),
                     "--output", str(tmp_path / "r.json"))  # fmt: skip
        assert done.returncode == 0, done.stderr
    calibrated = assay("judge-calibrate", "--human", str(DATA / "human_labels.jsonl"),
                       "--judged", str(tmp_path / "r.json"))  # fmt: skip
    assert calibrated.returncode == 0, calibrated.stderr
    # the scripted judge gives exactly the bundled 'judge' column
    assert "Cohen's kappa: 0.636 (n=12)" in calibrated.stdout

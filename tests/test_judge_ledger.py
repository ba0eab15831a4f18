"""One key, one answer: single-flight, duplicate ledger lines, transient failures asked again.

Against a real 127.0.0.1 server whose answers change from one request to the next
(as a real judge's do, even at temperature 0), and ledgers as older versions and
torn writes leave them.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from assay.judge.answers import AnswerItem, judge_answers
from assay.judge.config import JudgeConfig
from assay.report.judge_files import render_judge_json
from judge_server import JudgeServer

RUBRIC = "Pass when the answer states the reference answer."


def config(url: str | None, cache: Path, **extra: object) -> JudgeConfig:
    settings: dict[str, object] = {"backoff": 0.01, "timeout": 5.0, "retries": 0}
    settings.update(extra)
    return JudgeConfig(url=url, model="judge-model", cache_dir=cache, **settings)  # type: ignore[arg-type]


def fickle() -> Any:
    """A policy that answers pass, fail, pass, ... whatever the prompt."""
    turns = itertools.cycle(["pass", "fail"])
    return lambda body: next(turns)


def same_prompt(n: int) -> list[AnswerItem]:
    return [AnswerItem(f"a{i}", "It is Paris.", "Q?", "Paris") for i in range(n)]


def test_same_prompt_is_asked_once_and_replays_identically(tmp_path: Path) -> None:
    with JudgeServer(fickle()) as server:
        first, counts = judge_answers(same_prompt(4), RUBRIC, config(server.url, tmp_path))
        assert len(server.requests) == 1
    assert [r["verdict"] for r in first["items"]] == ["pass"] * 4
    assert (counts.replayed, counts.fetched, counts.requests) == (0, 1, 1)
    assert len((tmp_path / "ledger.jsonl").read_bytes().splitlines()) == 1
    with JudgeServer(fickle()) as server:
        again, counts = judge_answers(same_prompt(4), RUBRIC, config(server.url, tmp_path))
        assert server.requests == []
    assert render_judge_json(again) == render_judge_json(first)


def test_duplicate_final_lines_resolve_to_the_first(tmp_path: Path) -> None:
    with JudgeServer() as server:
        first, _ = judge_answers(same_prompt(1), RUBRIC, config(server.url, tmp_path))
    assert first["items"][0]["verdict"] == "pass"
    line = json.loads((tmp_path / "ledger.jsonl").read_text())
    line["parsed"]["label"] = "fail"  # what an older version wrote for a second item
    with open(tmp_path / "ledger.jsonl", "a") as handle:
        handle.write(json.dumps(line) + "\n")
    replay, counts = judge_answers(same_prompt(2), RUBRIC, config(None, tmp_path, offline=True))
    assert [r["verdict"] for r in replay["items"]] == ["pass", "pass"]
    assert counts.replayed == 1
    assert render_judge_json(replay) == render_judge_json(
        judge_answers(same_prompt(2), RUBRIC, config(None, tmp_path, offline=True))[0]
    )


@pytest.mark.parametrize("status", [401, 403, 408, 409, 429, 500, 503, 529])
def test_transient_failure_is_asked_again(tmp_path: Path, status: int) -> None:
    with JudgeServer() as server:
        server.script("Paris", (status, {}, '{"error": "not now"}'))
        failed, counts = judge_answers(same_prompt(1), RUBRIC, config(server.url, tmp_path))
        assert failed["items"][0]["reason"] == f"no parseable vote (http_{status})"
        offline, off = judge_answers(same_prompt(1), RUBRIC, config(None, tmp_path, offline=True))
        assert offline["items"][0]["verdict"] == "judge_failed" and off.replayed == 1
        assert len(server.requests) == 1
        retried, counts = judge_answers(same_prompt(1), RUBRIC, config(server.url, tmp_path))
        assert len(server.requests) == 2
    assert retried["items"][0]["verdict"] == "pass"
    assert (counts.replayed, counts.fetched, counts.retried) == (0, 1, 1)
    lines = (tmp_path / "ledger.jsonl").read_bytes().splitlines()
    assert len(lines) == 2  # the failure stays as evidence
    warm, counts = judge_answers(same_prompt(1), RUBRIC, config(None, tmp_path, offline=True))
    assert render_judge_json(warm) == render_judge_json(retried) and counts.replayed == 1


def test_timeout_and_refused_connection_are_asked_again(tmp_path: Path) -> None:
    server = JudgeServer().__enter__()
    url = server.url
    server.stop()
    refused, _ = judge_answers(same_prompt(1), RUBRIC, config(url, tmp_path))
    assert refused["items"][0]["reason"] == "no parseable vote (connection_error: ConnectError)"
    slow = [AnswerItem("s", "SLOW Paris", "Q?", "Paris")]
    with JudgeServer() as server:
        timed_out, _ = judge_answers(slow, RUBRIC, config(server.url, tmp_path, timeout=0.3))
        assert timed_out["items"][0]["reason"] == "no parseable vote (timeout)"
        again, counts = judge_answers(same_prompt(1), RUBRIC, config(server.url, tmp_path))
        assert again["items"][0]["verdict"] == "pass" and counts.retried == 1
        slow_again, counts = judge_answers(slow, RUBRIC, config(server.url, tmp_path))
        assert slow_again["items"][0]["verdict"] == "pass" and counts.retried == 1


@pytest.mark.parametrize("marker", ["UNPARSEABLE", "MALFORMED", "NOTFOUND"])
def test_final_failures_replay_without_a_request(tmp_path: Path, marker: str) -> None:
    answer = [AnswerItem("x", f"{marker} Paris", "Q?", "Paris")]
    with JudgeServer() as server:
        server.script("NOTFOUND", (404, {}, "{}"))
        first, _ = judge_answers(answer, RUBRIC, config(server.url, tmp_path))
        again, counts = judge_answers(answer, RUBRIC, config(server.url, tmp_path))
        assert len(server.requests) == 1
    assert first["items"][0]["verdict"] == "judge_failed"
    assert render_judge_json(again) == render_judge_json(first) and counts.replayed == 1


def assay(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "assay", *args], capture_output=True,
                          text=True, timeout=120)  # fmt: skip


def _inputs(tmp_path: Path) -> list[str]:
    (tmp_path / "items.jsonl").write_text('{"id": "a", "answer": "Paris", "reference": "Paris"}\n')
    (tmp_path / "rubric.txt").write_text(RUBRIC)
    return ["judge", "--items", str(tmp_path / "items.jsonl"), "--rubric",
            str(tmp_path / "rubric.txt"), "--judge-model", "judge-model",
            "--judge-cache", str(tmp_path / "c"), "--output", str(tmp_path / "r.json")]  # fmt: skip


def test_cli_says_what_was_replayed_fetched_and_retried(tmp_path: Path) -> None:
    common = _inputs(tmp_path)
    with JudgeServer() as server:
        server.script("Paris", (503, {}, "{}"))
        first = assay(*common, "--judge-url", server.url, "--judge-retries", "0")
        again = assay(*common, "--judge-url", server.url)
        third = assay(*common, "--judge-url", server.url)
    assert "judge ledger: 0 replayed, 1 fetched (0 retried from an earlier failure), 1 " \
        "requests sent" in first.stderr
    assert "judge ledger: 0 replayed, 1 fetched (1 retried from an earlier failure), 1 " \
        "requests sent" in again.stderr
    assert "judge ledger: 1 replayed, 0 fetched (0 retried from an earlier failure), 0 " \
        "requests sent" in third.stderr


def _ledger_line(tmp_path: Path) -> dict[str, Any]:
    with JudgeServer() as server:
        done = assay(*_inputs(tmp_path), "--judge-url", server.url)
        assert done.returncode == 0, done.stderr
    line: dict[str, Any] = json.loads((tmp_path / "c" / "ledger.jsonl").read_text())
    return line


def _corrupt(line: dict[str, Any], case: str) -> bytes:
    text = json.dumps(line)
    if case == "huge_int":
        return text.replace('"vote": 0', '"vote": ' + "9" * 5000).encode()
    if case == "deep":
        return text.replace('"vote": 0', '"vote": ' + "[" * 5000 + "]" * 5000).encode()
    if case == "torn_utf8":
        return text.encode()[:40] + "é".encode()[:1]
    if case == "no_response":
        return json.dumps({k: v for k, v in line.items() if k != "response"}).encode()
    if case == "label_list":
        line["parsed"]["label"] = ["pass"]
    if case == "label_unknown":
        line["parsed"]["label"] = "maybe"
    return json.dumps(line).encode()


CORRUPT = {
    "huge_int": "ledger.jsonl:2: field 'vote': the integer 9999",
    "deep": "ledger.jsonl:2: JSON nested too deeply",
    "torn_utf8": "ledger.jsonl:2: not UTF-8",
    "no_response": "ledger.jsonl:2: field 'response.ok': missing or of the wrong type",
    "label_list": "ledger.jsonl:2: field 'parsed.label': missing or of the wrong type",
    "label_unknown": "ledger.jsonl:1: field 'parsed.label': 'maybe' is not one of pass, fail",
}


@pytest.mark.parametrize("case", sorted(CORRUPT))
def test_corrupt_ledger_line_is_one_error_line(tmp_path: Path, case: str) -> None:
    line = _ledger_line(tmp_path)
    (tmp_path / "r.json").unlink()
    ledger = tmp_path / "c" / "ledger.jsonl"
    other = json.loads(json.dumps(line)) | {"key": "0" * 64}
    corrupt = _corrupt(line, case)
    if case == "label_unknown":
        ledger.write_bytes(corrupt + b"\n")
    else:
        ledger.write_bytes(json.dumps(other).encode() + b"\n" + corrupt + b"\n")
    done = assay(*_inputs(tmp_path), "--judge-offline")
    assert done.returncode == 3, done.stderr
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr
    assert CORRUPT[case] in done.stderr
    assert "remove the line" in done.stderr
    assert not (tmp_path / "r.json").exists()

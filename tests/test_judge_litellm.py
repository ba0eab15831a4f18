"""The judge against a real third-party server: the LiteLLM proxy on 127.0.0.1.

The proxy (``litellm[proxy]``, in its own virtual environment that ``make test``
creates: ``.venv-litellm``) serves ``mock_response`` models with no upstream
reachable (every ``api_base`` is a closed port on 127.0.0.1) and
``LITELLM_LOCAL_MODEL_COST_MAP=True``. Requests are counted in the proxy's own
access log, not by assay. Costs come from the prices set in the proxy's config
(input 1e-6, output 2e-6 per token) and the usage it returned.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
VENV = Path(os.environ.get("ASSAY_LITELLM_VENV", ROOT / ".venv-litellm"))
LITELLM = VENV / "bin" / "litellm"
KEY = "sk-assay-litellm-test"
CLOSED = "http://127.0.0.1:9/v1"  # nothing listens: no upstream is reachable
PRICE_IN, PRICE_OUT = 0.000001, 0.000002


def _model(name: str, **params: Any) -> dict[str, Any]:
    return {"model_name": name, "litellm_params": {
        "model": f"openai/{name}-upstream", "api_key": "sk-none", "api_base": CLOSED, **params,
    }}  # fmt: skip


CONFIG = {
    "model_list": [
        _model("judge-pass", mock_response='{"verdict": "pass", "reason": "mock"}',
               input_cost_per_token=PRICE_IN, output_cost_per_token=PRICE_OUT),
        _model("judge-fail", mock_response='Sure: {"verdict": "fail", "reason": "mock"}'),
        _model("judge-primary", mock_response="litellm.InternalServerError"),
        _model("judge-backup", mock_response='{"verdict": "fail", "reason": "backup"}'),
        _model("judge-429", mock_response="litellm.RateLimitError"),
        _model("judge-500", mock_response="litellm.InternalServerError"),
        _model("judge-408", mock_timeout=True, timeout=1),
    ],
    "router_settings": {"num_retries": 0, "fallbacks": [{"judge-primary": ["judge-backup"]}]},
    "litellm_settings": {"num_retries": 0},
    "general_settings": {"master_key": KEY},
}


class Proxy:
    """A running LiteLLM proxy: its URL and its access log."""

    def __init__(self, url: str, log: Path) -> None:
        self.url, self.log = url, log

    def requests(self) -> list[int]:
        """The status of every chat-completions request the proxy logged so far."""
        text = self.log.read_text(errors="replace")
        return [int(s) for s in re.findall(r'"POST /v1/chat/completions HTTP/1\.1" (\d{3})', text)]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxy]:
    if not LITELLM.exists():
        why = f"the LiteLLM proxy is not installed at {LITELLM}; run `make litellm`"
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)
    folder = tmp_path_factory.mktemp("litellm")
    (folder / "config.json").write_text(json.dumps(CONFIG))
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env.update(LITELLM_LOCAL_MODEL_COST_MAP="True", PYTHONUNBUFFERED="1", HOME=str(folder),
               NO_PROXY="*", LITELLM_TELEMETRY="False")  # fmt: skip
    env.pop("DATABASE_URL", None)
    log = folder / "proxy.log"
    with open(log, "wb") as sink:
        process = subprocess.Popen(
            [str(LITELLM), "--config", str(folder / "config.json"), "--host", "127.0.0.1",
             "--port", str(port), "--num_workers", "1"],
            stdout=sink, stderr=subprocess.STDOUT, cwd=folder, env=env,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300
        while True:
            if process.poll() is not None:
                pytest.fail(f"the LiteLLM proxy exited: {log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{url}/health/liveliness", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"the LiteLLM proxy did not start: {log.read_text()[-2000:]}")
                time.sleep(1)
        yield Proxy(f"{url}/v1", log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def assay(*args: str, key: bool = True) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, ASSAY_LITELLM_KEY=KEY)
    extra = ["--judge-key-env", "ASSAY_LITELLM_KEY"] if key else []
    return subprocess.run([sys.executable, "-m", "assay", *args, *extra], capture_output=True,
                          text=True, timeout=300, env=env)  # fmt: skip


def _inputs(tmp_path: Path, answers: list[str]) -> list[str]:
    rows = [{"id": f"a{i}", "answer": a, "question": "Capital of France?", "reference": "Paris"}
            for i, a in enumerate(answers)]  # fmt: skip
    (tmp_path / "items.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "rubric.txt").write_text("Pass when the answer names the reference city.\n")
    return ["judge", "--items", str(tmp_path / "items.jsonl"), "--rubric",
            str(tmp_path / "rubric.txt")]  # fmt: skip


def _judge(
    proxy: Proxy, tmp_path: Path, model: str, answers: list[str], cache: str, out: str,
    *extra: str, key: bool = True,
) -> subprocess.CompletedProcess[str]:  # fmt: skip
    return assay(*_inputs(tmp_path, answers), "--judge-url", proxy.url, "--judge-model", model,
                 "--judge-cache", str(tmp_path / cache), "--output", str(tmp_path / out),
                 *extra, key=key)  # fmt: skip


def _report(tmp_path: Path, name: str) -> dict[str, Any]:
    report: dict[str, Any] = json.loads((tmp_path / name).read_text())
    return report


def test_verdicts_model_usage_cost_and_replay_with_no_request(
    proxy: Proxy, tmp_path: Path
) -> None:
    answers = ["Paris.", "It is Paris, on the Seine.", "Lyon"]
    before = len(proxy.requests())
    first = _judge(proxy, tmp_path, "judge-pass", answers, "c", "a.json", "--judge-votes", "2")
    assert first.returncode == 0, first.stderr
    sent = proxy.requests()[before:]
    assert sent == [200] * 6  # 3 items x 2 votes, each once
    report = _report(tmp_path, "a.json")
    assert [r["verdict"] for r in report["items"]] == ["pass"] * 3
    assert report["judge_fingerprint"]["model_returned"] == ["judge-pass"]
    ledger = [json.loads(x) for x in (tmp_path / "c" / "ledger.jsonl").read_text().splitlines()]
    usages = [line["response"]["usage"] for line in ledger]  # as the proxy sent them
    for name in ("prompt_tokens", "completion_tokens", "total_tokens"):
        assert report["usage"][name] == sum(u[name] for u in usages) > 0
    cost = sum(u["prompt_tokens"] * PRICE_IN + u["completion_tokens"] * PRICE_OUT for u in usages)
    assert report["usage"]["cost"] == pytest.approx(cost, rel=1e-9)
    again = _judge(proxy, tmp_path, "judge-pass", answers, "c", "b.json", "--judge-votes", "2")
    offline = _judge(proxy, tmp_path, "judge-pass", answers, "c", "o.json", "--judge-votes", "2",
                     "--judge-offline")  # fmt: skip
    assert again.returncode == 0 and offline.returncode == 0, again.stderr + offline.stderr
    assert len(proxy.requests()) == before + 6  # the replays sent nothing: the proxy's own log
    assert "6 replayed, 0 fetched" in again.stderr and "0 requests sent" in again.stderr
    a = (tmp_path / "a.json").read_bytes()
    assert a == (tmp_path / "b.json").read_bytes() == (tmp_path / "o.json").read_bytes()
    cold = _judge(proxy, tmp_path, "judge-pass", answers, "cold", "x.json", "--judge-offline")
    assert cold.returncode == 1 and cold.stderr.startswith("error: --judge-offline: the ledger ")
    assert len(proxy.requests()) == before + 6 and not (tmp_path / "x.json").exists()


def test_same_prompt_is_one_request(proxy: Proxy, tmp_path: Path) -> None:
    before = len(proxy.requests())
    done = _judge(proxy, tmp_path, "judge-fail", ["Paris"] * 4, "c", "r.json",
                  "--judge-concurrency", "4")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert len(proxy.requests()) == before + 1
    assert [r["verdict"] for r in _report(tmp_path, "r.json")["items"]] == ["fail"] * 4


def test_model_id_after_a_fallback(proxy: Proxy, tmp_path: Path) -> None:
    done = _judge(proxy, tmp_path, "judge-primary", ["Paris"], "c", "r.json")
    assert done.returncode == 0, done.stderr
    report = _report(tmp_path, "r.json")
    assert report["items"][0]["verdict"] == "fail"  # the backup's verdict
    assert report["judge_fingerprint"]["model_returned"] == ["judge-backup-upstream"]
    assert "llm-judge(model:judge-backup-upstream;" in report["signature"]


@pytest.mark.parametrize(
    ("model", "key", "status", "sent"),
    [("no-such-model", True, 400, 1), ("judge-pass", False, 401, 1), ("judge-408", True, 408, 2),
     ("judge-429", True, 429, 2), ("judge-500", True, 500, 2)],
)  # fmt: skip
def test_real_error_replies_are_judge_failed(
    proxy: Proxy, tmp_path: Path, model: str, key: bool, status: int, sent: int
) -> None:
    before = len(proxy.requests())
    done = _judge(proxy, tmp_path, model, ["Paris"], "c", "r.json", "--judge-retries", "1",
                  key=key)  # fmt: skip
    assert proxy.requests()[before:] == [status] * sent  # retried as the OpenAI client does
    assert done.returncode == 4, done.stderr  # every item failed for one transport reason
    assert f"failed with http_{status}" in done.stderr.splitlines()[-1]
    item = _report(tmp_path, "r.json")["items"][0]
    assert item["verdict"] == "judge_failed"
    assert item["reason"] == f"no parseable vote (http_{status})"
    line = json.loads((tmp_path / "c" / "ledger.jsonl").read_text())
    assert line["response"]["trail"] == [f"http_{status}"] * sent
    assert line["response"]["status"] == status and "error" in json.loads(line["response"]["body"])


def test_a_401_before_the_key_was_set_is_asked_again(proxy: Proxy, tmp_path: Path) -> None:
    before = len(proxy.requests())
    no_key = _judge(proxy, tmp_path, "judge-pass", ["Paris"], "c", "a.json", key=False)
    assert no_key.returncode == 4
    offline = _judge(proxy, tmp_path, "judge-pass", ["Paris"], "c", "o.json", "--judge-offline")
    assert offline.returncode == 4  # replayed as that failure, nothing sent
    assert _report(tmp_path, "o.json")["items"][0]["reason"] == "no parseable vote (http_401)"
    with_key = _judge(proxy, tmp_path, "judge-pass", ["Paris"], "c", "b.json")
    assert with_key.returncode == 0, with_key.stderr
    assert "(1 retried from an earlier failure)" in with_key.stderr
    assert proxy.requests()[before:] == [401, 200]
    assert _report(tmp_path, "b.json")["items"][0]["verdict"] == "pass"

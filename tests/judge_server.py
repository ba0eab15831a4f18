"""A real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions protocol.

No model is reachable from the test machines, so the judge's answers are
scripted: :func:`keyword_policy` grades by looking at the prompt the client sent
(the same way every time), and markers in an answer or claim ask for a protocol
path: ``MALFORMED`` (200 with a body that is not JSON), ``UNPARSEABLE`` (a reply
with no verdict object), ``RATE_LIMIT`` (429 with Retry-After the first time for
that prompt, then a normal reply), ``SLOW`` (sleeps past the client's timeout),
``HANGUP`` (closes the connection without a response), ``HTTP500ALWAYS`` (500 on
every attempt) and ``SPLIT`` (the verdict depends on the seed: votes disagree).
:meth:`JudgeServer.script` queues exact replies (status, headers, body) for the
prompts holding a marker; ``times`` records when each request came.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import Counter
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MODEL_RETURNED = "scripted-judge-2026-01"


def _section(text: str, name: str) -> str:
    match = re.search(rf"(?:^|\n){name}:\n(.*?)(?:\n\n[A-Z ]+:\n|\Z)", text, re.S)
    return match.group(1).strip() if match else ""


def keyword_policy(body: dict[str, Any]) -> str:
    """The scripted verdict for a request (``pass``/``fail`` or claim labels)."""
    prompt = body["messages"][-1]["content"]
    if "RUBRIC:" in prompt:
        answer = _section(prompt, "ANSWER").casefold()
        reference = _section(prompt, "REFERENCE ANSWER").casefold()
        if "SPLIT" in prompt:
            return "pass" if body["seed"] % 2 == 0 else "fail"
        return "pass" if reference and reference in answer else "fail"
    claim = _section(prompt, "CLAIM").casefold()
    statements = _section(prompt, "REFERENCE STATEMENTS").casefold()
    contradictions = _section(prompt, "KNOWN CONTRADICTIONS").casefold()
    if claim and claim in contradictions:
        return "contradicted"
    return "supported" if claim and claim in statements else "insufficient"


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that gave up (timeout) or a hang-up: expected, not worth a traceback


class JudgeServer:
    """Start with ``with JudgeServer() as server:``; ``server.url`` is the API base."""

    def __init__(self, policy: Callable[[dict[str, Any]], str] = keyword_policy) -> None:
        self.policy = policy
        self.requests: list[dict[str, Any]] = []
        self.seen: Counter[str] = Counter()
        self.lock = threading.Lock()
        self.usage = True
        self.delay = 0.0
        self.times: list[float] = []
        self.scripts: dict[str, list[tuple[int, dict[str, str], bytes]]] = {}
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 - the http.server API
                owner.handle(self)

        self.httpd = _QuietServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        """The API base URL (``http://127.0.0.1:PORT/v1``)."""
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> JudgeServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        """Shut the server down and close its socket (the server's death)."""
        if self.thread.is_alive():
            self.httpd.shutdown()
        self.httpd.server_close()

    def script(self, marker: str, *replies: tuple[int, dict[str, str], bytes | str]) -> None:
        """Answer the next requests whose prompt holds ``marker`` with ``replies``, in order."""
        queue = [(s, h, b.encode() if isinstance(b, str) else b) for s, h, b in replies]
        self.scripts.setdefault(marker, []).extend(queue)

    def _send(self, handler: BaseHTTPRequestHandler, status: int, body: bytes,
              headers: dict[str, str] | None = None) -> None:  # fmt: skip
        handler.send_response(status)
        handler.send_header("content-type", "application/json")
        handler.send_header("content-length", str(len(body)))
        for key, value in (headers or {}).items():
            handler.send_header(key, value)
        handler.end_headers()
        handler.wfile.write(body)

    def handle(self, handler: BaseHTTPRequestHandler) -> None:
        """Answer one POST /v1/chat/completions."""
        length = int(handler.headers.get("content-length", "0"))
        body = json.loads(handler.rfile.read(length))
        prompt = body["messages"][-1]["content"]
        with self.lock:
            self.requests.append({"path": handler.path, "body": body,
                                  "authorization": handler.headers.get("authorization")})
            self.seen[prompt + str(body["seed"])] += 1
            count = self.seen[prompt + str(body["seed"])]
            self.times.append(time.monotonic())
            marker = next((m for m, q in self.scripts.items() if q and m in prompt), None)
            scripted = self.scripts[marker].pop(0) if marker is not None else None
        if handler.path != "/v1/chat/completions":
            self._send(handler, 404, b'{"error": "not found"}')
            return
        if self.delay:
            time.sleep(self.delay)
        if scripted is not None:
            self._send(handler, scripted[0], scripted[2], scripted[1])
            return
        if "HANGUP" in prompt:
            handler.close_connection = True
            handler.connection.close()
            return
        if "SLOW" in prompt:
            time.sleep(3.0)
        if "HTTP500ALWAYS" in prompt:
            self._send(handler, 500, b'{"error": {"message": "boom"}}')
            return
        if "RATE_LIMIT" in prompt and count == 1:
            slow_down = b'{"error": {"message": "slow down"}}'
            self._send(handler, 429, slow_down, {"retry-after": "0.05"})
            return
        if "MALFORMED" in prompt:
            self._send(handler, 200, b'{"choices": [{"message": {"content": "pass"')
            return
        if "UNPARSEABLE" in prompt:
            content = "I think the answer is mostly fine."
        else:
            verdict = self.policy(body)
            content = f'Here is my grade: {{"verdict": "{verdict}", "reason": "scripted"}}'
        reply: dict[str, Any] = {
            "id": "chatcmpl-1", "object": "chat.completion", "model": MODEL_RETURNED,
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": content}}],
        }  # fmt: skip
        if self.usage:
            tokens = len(prompt.split())
            reply["usage"] = {"prompt_tokens": tokens, "completion_tokens": 12,
                              "total_tokens": tokens + 12, "cost": 0.0001}  # fmt: skip
        self._send(handler, 200, json.dumps(reply).encode())

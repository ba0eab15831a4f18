"""The HTTP side of the judge: OpenAI-compatible chat completions through ``httpx``.

:func:`chat` sends one request and returns a :class:`ChatOutcome` — never raises
for a network or protocol problem. Retried (up to ``retries`` more attempts, with
exponential backoff from ``backoff`` seconds, or the server's ``Retry-After``):
HTTP 429 and 5xx, timeouts, refused or dropped connections. Not retried: other
4xx, and a 200 whose body is not a chat completion (``malformed_response``).
Failure reasons: ``http_<status>``, ``timeout``, ``connection_error``,
``malformed_response``.

``httpx`` is the optional extra ``assay[judge]``; without it the first request
stops with a one-line install hint.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from assay.errors import MissingExtraError
from assay.judge.config import JudgeConfig

if TYPE_CHECKING:
    import httpx

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
MAX_RETRY_AFTER = 30.0


@dataclass(frozen=True, slots=True)
class ChatOutcome:
    """One chat request's final result (after retries).

    Attributes:
        ok: a chat completion with a text reply was read.
        content: the reply text (``""`` when not ok).
        model: the model id as the server returned it (``""`` when not ok).
        usage: the server's ``usage`` object, as sent (``{}`` when absent).
        reason: why it failed (``""`` when ok).
        status: the last HTTP status (``None`` when no response came).
        attempts: requests sent, retries included.
        body: the last response body as text (kept for the ledger; cut at 64 KiB).
        trail: each attempt's result in order (``ok`` or a failure reason).
    """

    ok: bool
    content: str = ""
    model: str = ""
    usage: dict[str, Any] = field(default_factory=dict)
    reason: str = ""
    status: int | None = None
    attempts: int = 1
    body: str = ""
    trail: tuple[str, ...] = ()


def new_client(config: JudgeConfig) -> httpx.Client:
    """An ``httpx.Client`` with the config's timeout and key, sized for its concurrency."""
    try:
        import httpx
    except ImportError:
        raise MissingExtraError("the LLM judge", "httpx", "judge") from None
    headers = {"content-type": "application/json"}
    key = config.api_key()
    if key:
        headers["authorization"] = f"Bearer {key}"
    limits = httpx.Limits(max_connections=config.concurrency)
    return httpx.Client(
        timeout=httpx.Timeout(config.timeout), headers=headers, limits=limits, trust_env=False
    )


def request_body(config: JudgeConfig, messages: list[dict[str, str]], seed: int) -> dict[str, Any]:
    """The JSON body of one chat-completions request."""
    return {
        "model": config.model,
        "messages": messages,
        "temperature": config.temperature,
        "seed": seed,
        "max_tokens": config.max_tokens,
        "n": 1,
    }


def read_completion(response: httpx.Response) -> ChatOutcome:
    """A 200 response as an outcome: its first choice's text, model and usage."""
    body = response.text[: 1 << 16]
    try:
        data = json.loads(response.text)
        content = data["choices"][0]["message"]["content"]
        model = data.get("model", "")
        usage = data.get("usage") or {}
    except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
        why = f"malformed_response: {type(exc).__name__}"
        return ChatOutcome(False, reason=why, status=response.status_code, body=body)
    if not isinstance(content, str) or not isinstance(model, str) or not isinstance(usage, dict):
        return ChatOutcome(
            False, reason="malformed_response: wrong types", status=response.status_code, body=body
        )
    return ChatOutcome(True, content, model, usage, status=response.status_code, body=body)


def _retry_delay(config: JudgeConfig, attempt: int, response: httpx.Response | None) -> float:
    header = response.headers.get("retry-after") if response is not None else None
    if header is not None:
        try:
            return min(MAX_RETRY_AFTER, max(0.0, float(header)))
        except ValueError:
            pass
    return float(config.backoff * (2**attempt))


def chat(
    client: httpx.Client, config: JudgeConfig, messages: list[dict[str, str]], seed: int
) -> ChatOutcome:
    """Send one chat request with retries; the final outcome, never an exception."""
    import httpx

    url = f"{str(config.url).rstrip('/')}/chat/completions"
    body = request_body(config, messages, seed)
    outcome = ChatOutcome(False, reason="not_sent", attempts=0)
    trail: list[str] = []
    for attempt in range(config.retries + 1):
        response: httpx.Response | None = None
        try:
            response = client.post(url, json=body)
        except httpx.TimeoutException:
            outcome = ChatOutcome(False, reason="timeout", attempts=attempt + 1)
        except httpx.TransportError as exc:
            why = f"connection_error: {type(exc).__name__}"
            outcome = ChatOutcome(False, reason=why, attempts=attempt + 1)
        else:
            if response.status_code == 200:
                done = read_completion(response)
                return _with_trail(done, (*trail, done.reason or "ok"))
            outcome = ChatOutcome(
                False, reason=f"http_{response.status_code}", status=response.status_code,
                attempts=attempt + 1, body=response.text[: 1 << 16],
            )  # fmt: skip
            if response.status_code not in RETRY_STATUSES:
                return _with_trail(outcome, (*trail, outcome.reason))
        trail.append(outcome.reason)
        if attempt < config.retries:
            time.sleep(_retry_delay(config, attempt, response))
    return _with_trail(outcome, tuple(trail))


def _with_trail(outcome: ChatOutcome, trail: tuple[str, ...]) -> ChatOutcome:
    return ChatOutcome(
        outcome.ok, outcome.content, outcome.model, outcome.usage, outcome.reason,
        outcome.status, len(trail), outcome.body, trail,
    )  # fmt: skip

r"""The HTTP side of the judge: OpenAI-compatible chat completions through ``httpx``.

:func:`chat` sends one request and returns a :class:`ChatOutcome` — never raises
for a network or protocol problem, whatever the endpoint sends back.

Retry policy (the one of the official OpenAI Python client), up to ``retries``
more attempts:

* retried: a timeout, a refused or dropped connection, and HTTP 408, 409, 429
  and every status from 500 up (501, 505, 529 included);
* a response header ``x-should-retry: true`` or ``false`` overrides the status;
* not retried: any other status, and a 2xx whose body is not a chat completion
  (``malformed_response``);
* the wait before retry ``n`` (0, 1, ...) is the server's ``retry-after-ms``
  (milliseconds), else its ``Retry-After`` (seconds, or an HTTP date) when that
  is more than 0 and at most 60 s; otherwise ``min(backoff · 2ⁿ, 8 s) · (1 − 0.25·u)``
  with ``u`` in [0, 1) drawn from a generator seeded with the vote's ledger key
  (so from the recorded seed: the same waits every run). Each wait is recorded.

Failure reasons: ``http_<status>``, ``timeout``, ``connection_error: <kind>``,
``malformed_response: <why>``, ``client_error: <kind>``.

The body is sent as UTF-8 JSON with any lone surrogate as its ``\uXXXX`` escape.
``httpx`` is the optional extra ``assay[judge]``; without it the first request
stops with a one-line install hint.
"""

from __future__ import annotations

import email.utils
import hashlib
import json
import math
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from assay.errors import MissingExtraError
from assay.judge.config import JudgeConfig

if TYPE_CHECKING:
    import httpx

RETRY_STATUSES = frozenset({408, 409, 429})  # and every status >= 500
MAX_RETRY_AFTER = 60.0
MAX_BACKOFF = 8.0
BODY_KEPT = 1 << 16
#: headers a server may put the request's cost in (LiteLLM's proxy sends the first)
COST_HEADERS = ("x-litellm-response-cost",)
#: usage fields a server may put it in (OpenRouter: ``usage.cost``)
COST_FIELDS = ("cost", "total_cost")


@dataclass(frozen=True, slots=True)
class ChatOutcome:
    """One chat request's final result (after retries).

    Attributes:
        ok: a chat completion with a text reply was read.
        content: the reply text (``""`` when not ok).
        model: the model id as the server returned it (``""`` when not ok).
        usage: the server's ``usage`` object (``{}`` when absent); only its
            numbers, strings and one level of nested objects are kept.
        reason: why it failed (``""`` when ok).
        status: the last HTTP status (``None`` when no response came).
        attempts: requests sent, retries included.
        body: the last response body as text (kept for the ledger; cut at 64 KiB).
        trail: each attempt's result in order (``ok`` or a failure reason).
        waits: the seconds waited before each retry.
        cost: the cost the server reported (a header or ``usage``), else ``None``.
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
    waits: tuple[float, ...] = ()
    cost: float | None = None


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


def json_bytes(value: Any, *, sort_keys: bool = False) -> bytes:
    r"""``value`` as UTF-8 JSON; a lone surrogate becomes its ``\uXXXX`` escape."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=sort_keys)
    return text.encode("utf-8", "backslashreplace")


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


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        number = float(value)
    except (ValueError, OverflowError):
        return None
    return number if math.isfinite(number) and number >= 0 else None


def reported_cost(headers: Mapping[str, str], usage: Mapping[str, Any]) -> float | None:
    """The cost a server reported: a cost header, else ``usage.cost`` / ``usage.total_cost``."""
    for name in COST_HEADERS:
        cost = _number(headers.get(name))
        if cost is not None:
            return cost
    for name in COST_FIELDS:
        cost = _number(usage.get(name))
        if cost is not None:
            return cost
    return None


def _flat_usage(usage: dict[str, Any]) -> dict[str, Any]:
    """``usage`` without values nested past one object (what a report can sum)."""
    scalar = (str, int, float, bool, type(None))
    kept: dict[str, Any] = {}
    for name, value in usage.items():
        if isinstance(value, scalar):
            kept[name] = value
        elif isinstance(value, dict) and all(isinstance(v, scalar) for v in value.values()):
            kept[name] = value
    return kept


def read_completion(response: httpx.Response) -> ChatOutcome:
    """A 2xx response as an outcome: its first choice's text, model, usage and cost."""
    text = response.text
    body = text[:BODY_KEPT]
    status = response.status_code
    try:
        data = json.loads(text)
        content = data["choices"][0]["message"]["content"]
        model = data.get("model", "")
        usage = data.get("usage") or {}
    except RecursionError:
        return ChatOutcome(False, reason="malformed_response: nested too deeply", status=status,
                           body=body)  # fmt: skip
    except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
        why = f"malformed_response: {type(exc).__name__}"
        return ChatOutcome(False, reason=why, status=status, body=body)
    if not isinstance(content, str) or not isinstance(model, str) or not isinstance(usage, dict):
        return ChatOutcome(False, reason="malformed_response: wrong types", status=status,
                           body=body)  # fmt: skip
    usage = _flat_usage(usage)
    cost = reported_cost(response.headers, usage)
    return ChatOutcome(True, content, model, usage, status=status, body=body, cost=cost)


def should_retry(status: int, headers: Mapping[str, str]) -> bool:
    """Whether a non-2xx response is retried (``x-should-retry`` first, then the status)."""
    flag = headers.get("x-should-retry")
    if flag == "true":
        return True
    if flag == "false":
        return False
    return status in RETRY_STATUSES or status >= 500


def server_wait(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """The wait a response asks for (``retry-after-ms``, ``Retry-After``), if in (0, 60] s."""
    wait: float | None = None
    try:
        wait = float(headers.get("retry-after-ms", "")) / 1000.0
    except ValueError:
        header = headers.get("retry-after", "")
        try:
            wait = float(header)
        except ValueError:
            when = email.utils.parsedate_tz(header) if header else None
            if when is not None:
                wait = email.utils.mktime_tz(when) - (time.time() if now is None else now)
    if wait is None or not 0.0 < wait <= MAX_RETRY_AFTER:
        return None
    return wait


def backoff_wait(config: JudgeConfig, retry: int, jitter: random.Random) -> float:
    """``min(backoff · 2^retry, 8 s)`` less up to a quarter of it (the jitter)."""
    base = min(config.backoff * 2.0 ** min(retry, 1000), MAX_BACKOFF)
    return base * (1.0 - 0.25 * jitter.random())


def jitter_source(key: str) -> random.Random:
    """The jitter generator of one vote, seeded from its ledger key (and so its seed)."""
    return random.Random(int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big"))


def chat(
    client: httpx.Client, config: JudgeConfig, messages: list[dict[str, str]], seed: int,
    key: str = "",
) -> ChatOutcome:  # fmt: skip
    """Send one chat request with retries; the final outcome, never an exception."""
    import httpx

    url = f"{str(config.url).rstrip('/')}/chat/completions"
    content = json_bytes(request_body(config, messages, seed))
    jitter = jitter_source(f"{key}:{seed}")
    outcome = ChatOutcome(False, reason="not_sent", attempts=0)
    trail: list[str] = []
    waits: list[float] = []
    for attempt in range(config.retries + 1):
        headers: Mapping[str, str] = {}
        retry = True
        try:
            response = client.post(url, content=content)
            text = response.text
        except httpx.TimeoutException:
            outcome = ChatOutcome(False, reason="timeout")
        except httpx.TransportError as exc:
            outcome = ChatOutcome(False, reason=f"connection_error: {type(exc).__name__}")
        except (httpx.HTTPError, ValueError, LookupError, OSError) as exc:  # a broken reply
            outcome = ChatOutcome(False, reason=f"client_error: {type(exc).__name__}")
            retry = False
        else:
            if 200 <= response.status_code < 300:
                done = read_completion(response)
                return _finished(done, [*trail, done.reason or "ok"], waits)
            headers = response.headers
            outcome = ChatOutcome(False, reason=f"http_{response.status_code}",
                                  status=response.status_code, body=text[:BODY_KEPT])  # fmt: skip
            retry = should_retry(response.status_code, headers)
        trail.append(outcome.reason)
        if not retry or attempt == config.retries:
            break
        wait = server_wait(headers)
        waits.append(round(wait if wait is not None else backoff_wait(config, attempt, jitter), 6))
        time.sleep(waits[-1])
    return _finished(outcome, trail, waits)


def _finished(outcome: ChatOutcome, trail: list[str], waits: list[float]) -> ChatOutcome:
    return ChatOutcome(
        outcome.ok, outcome.content, outcome.model, outcome.usage, outcome.reason,
        outcome.status, len(trail), outcome.body, tuple(trail), tuple(waits), outcome.cost,
    )  # fmt: skip

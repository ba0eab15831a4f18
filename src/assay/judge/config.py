"""Settings of an LLM judge run, and the fingerprint that names its verdicts.

A :class:`JudgeConfig` holds everything that changes a verdict (model asked for,
prompt template, parse rule, temperature, seed, votes, reply length) and how the
endpoint is reached (URL, key variable, timeouts, retries, concurrency, ledger
folder, offline). Only the first group keys the ledger: the URL and the transport
settings do not change what a recorded verdict means, so a rerun against another
address of the same model replays.

The fingerprint in reports adds the model id *as the server returned it*
(known once a reply has been read, live or from the ledger).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assay.errors import InvalidOptionError

FINGERPRINT_VERSION = "1"
#: the longest ``--judge-timeout`` taken (one day; ``inf`` or ``1e308`` is refused)
MAX_TIMEOUT = 86400.0


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/assay/judge``, else ``~/.cache/assay/judge``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "assay" / "judge"


@dataclass(frozen=True, slots=True)
class JudgeConfig:
    """One judge: endpoint, model and every setting that changes a verdict.

    Attributes:
        url: base URL of an OpenAI-compatible API (``.../v1``); requests go to
            ``{url}/chat/completions``. ``None`` only with ``offline``.
        model: the model name sent in each request.
        key_env: name of the environment variable holding the API key (``None``: no key).
        temperature: sampling temperature sent with each request.
        seed: base seed; vote ``i`` is requested with ``seed + i``.
        votes: requests per item; the verdict is the majority of parsed votes.
        max_tokens: reply length limit sent with each request.
        timeout: seconds per request (connect, read, write, pool).
        retries: further attempts after a retried failure (see :mod:`assay.judge.client`:
            timeouts, lost connections, 408, 409, 429, every 5xx).
        backoff: first retry delay in seconds; doubles each retry up to 8 s, less a
            seeded jitter of up to a quarter (a ``retry-after-ms`` or ``Retry-After``
            of at most 60 s, when sent, is used instead).
        concurrency: requests in flight at most.
        cache_dir: the verdict ledger's folder.
        offline: make no request at all; a verdict missing from the ledger is an error.
    """

    url: str | None
    model: str
    key_env: str | None = None
    temperature: float = 0.0
    seed: int = 0
    votes: int = 1
    max_tokens: int = 256
    timeout: float = 30.0
    retries: int = 3
    backoff: float = 0.5
    concurrency: int = 4
    cache_dir: Path | None = None
    offline: bool = False

    def validate(self) -> None:
        """Raise :class:`InvalidOptionError` naming the option that is out of range."""
        checks = [
            (bool(self.model.strip()), "--judge-model: give the model name to request"),
            (self.url is not None or self.offline, "--judge-url: give the endpoint URL "
             "(or --judge-offline to replay from the ledger)"),
            (self.url is None or self.url.startswith(("http://", "https://")),
             f"--judge-url {self.url!r}: expected an http:// or https:// URL"),
            (self.votes >= 1, f"--judge-votes {self.votes}: must be at least 1"),
            (self.concurrency >= 1, f"--judge-concurrency {self.concurrency}: at least 1"),
            (0 < self.timeout <= MAX_TIMEOUT, f"--judge-timeout {self.timeout}: give a finite "
             f"number of seconds above 0 and at most {MAX_TIMEOUT:g} (one day)"),
            (self.retries >= 0, f"--judge-retries {self.retries}: must be 0 or more"),
            (0.0 <= self.temperature <= 2.0, f"--judge-temperature {self.temperature}: "
             "between 0 and 2"),
        ]  # fmt: skip
        for ok, message in checks:
            if not ok:
                raise InvalidOptionError(message)

    def api_key(self) -> str | None:
        """The key from ``key_env``.

        Raises:
            InvalidOptionError: the variable is named but not set.
        """
        if self.key_env is None:
            return None
        value = os.environ.get(self.key_env)
        if not value:
            raise InvalidOptionError(
                f"--judge-key-env {self.key_env}: the environment variable is not set; "
                f"export {self.key_env}=... or leave the option out for an endpoint without a key"
            )
        return value

    def ledger_dir(self) -> Path:
        """The ledger folder (``cache_dir`` or the default under the user's cache)."""
        return self.cache_dir if self.cache_dir is not None else default_cache_dir()


def sha256_text(text: str) -> str:
    """SHA-256 hex digest of UTF-8 ``text`` (a lone surrogate as its three bytes)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def request_key(config: JudgeConfig, template_sha256: str, parse_rule: str) -> str:
    """The ledger key of everything that changes a verdict, except the item and vote."""
    fields = {
        "fingerprint_version": FINGERPRINT_VERSION,
        "max_tokens": config.max_tokens,
        "model": config.model,
        "parse_rule": parse_rule,
        "seed": config.seed,
        "temperature": config.temperature,
        "template_sha256": template_sha256,
    }
    return sha256_text(json.dumps(fields, sort_keys=True))


def fingerprint(
    config: JudgeConfig, template_sha256: str, parse_rule: str, models: list[str]
) -> dict[str, Any]:
    """The judge fingerprint recorded in every signature and report."""
    return {
        "model_requested": config.model,
        "model_returned": sorted(set(models)),
        "template_sha256": template_sha256,
        "parse_rule": parse_rule,
        "temperature": config.temperature,
        "seed": config.seed,
        "votes": config.votes,
        "max_tokens": config.max_tokens,
    }


def fingerprint_text(fp: dict[str, Any]) -> str:
    """``llm-judge(model:...;template:<sha256[:12]>;parse:...;temperature:...;...)``."""
    returned = "+".join(fp["model_returned"]) or "none-returned"
    return (
        f"llm-judge(model:{returned};template:{fp['template_sha256'][:12]};"
        f"parse:{fp['parse_rule']};temperature:{fp['temperature']!r};seed:{fp['seed']};"
        f"votes:{fp['votes']})"
    )

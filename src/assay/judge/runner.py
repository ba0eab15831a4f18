"""Judging items through the ledger and the endpoint: votes, majority, agreement.

:class:`JudgeRun` asks for ``votes`` verdicts per item (vote ``i`` with seed
``seed + i``), concurrently up to ``concurrency`` requests. Each vote comes from
the ledger when it holds its answer (*replayed*: no request) and otherwise from
the endpoint (*fetched*: one request, retries included, recorded before it is
used). A transient failure in the ledger (see :mod:`assay.judge.ledger`) is
fetched again (*retried from an earlier failure*) unless ``offline``. With
``offline`` a vote the ledger lacks is a
:class:`~assay.judge.ledger.LedgerMissError` and nothing is sent. Items whose
prompt is the same share each vote (single-flight: one key, one answer).

An item's verdict is the label most of its parsed votes gave. No parsed vote, or
a tie for the most votes, makes the item ``judge_failed`` with the reason — it
is never a pass and never NaN. ``agreement`` is the share of all votes that gave
the verdict (``k/n``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from assay.errors import InputFileError
from assay.judge.client import ChatOutcome, chat, new_client
from assay.judge.config import JudgeConfig, fingerprint, request_key
from assay.judge.ledger import Ledger, LedgerMissError, entry_key, is_transient, transient
from assay.judge.prompts import PARSE_RULE, Template, parse_verdict

JUDGE_FAILED = "judge_failed"
USAGE_FIELDS = ("prompt_tokens", "completion_tokens", "total_tokens")


@dataclass(frozen=True, slots=True)
class Vote:
    """One recorded vote: its label (``None``: failed or unparseable) and why."""

    vote: int
    seed: int
    label: str | None
    reason: str
    model: str
    usage: dict[str, Any]
    cost: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """Canonical JSON form (no timing, no cache state: replay gives the same bytes)."""
        return {"label": self.label, "model": self.model, "reason": self.reason,
                "seed": self.seed, "vote": self.vote}  # fmt: skip


@dataclass(frozen=True, slots=True)
class ItemVerdict:
    """An item's majority verdict (or ``judge_failed``), its votes and agreement."""

    verdict: str
    reason: str
    votes: tuple[Vote, ...]

    @property
    def agreement(self) -> dict[str, int]:
        """``{"k": votes that gave the verdict, "n": votes}``."""
        k = sum(v.label == self.verdict for v in self.votes)
        return {"k": k if self.verdict != JUDGE_FAILED else 0, "n": len(self.votes)}

    def to_dict(self) -> dict[str, Any]:
        """Canonical JSON form."""
        return {"agreement": self.agreement, "reason": self.reason, "verdict": self.verdict,
                "votes": [v.to_dict() for v in self.votes]}  # fmt: skip


def majority(votes: Sequence[Vote]) -> ItemVerdict:
    """The most common parsed label; ``judge_failed`` with a reason when none or a tie."""
    counts = Counter(v.label for v in votes if v.label is not None)
    if not counts:
        reasons = "; ".join(sorted({v.reason for v in votes}))
        return ItemVerdict(JUDGE_FAILED, f"no parseable vote ({reasons})", tuple(votes))
    ranked = counts.most_common()
    top = [label for label, n in ranked if n == ranked[0][1]]
    if len(top) > 1:
        tied = ", ".join(sorted(top))
        return ItemVerdict(JUDGE_FAILED, f"tie between {tied}", tuple(votes))
    return ItemVerdict(top[0], "", tuple(votes))


@dataclass
class RunCounts:
    """What a run did with its votes, and the models seen.

    ``replayed``: votes read from the ledger (no request); ``fetched``: votes asked
    of the endpoint, of which ``retried`` replaced a transient failure an earlier
    run recorded; ``requests``: HTTP requests sent, retries included. Items with
    the same prompt share their votes (single-flight): each key counts once.
    """

    replayed: int = 0
    fetched: int = 0
    retried: int = 0
    requests: int = 0
    models: set[str] = field(default_factory=set)


class JudgeRun:
    """Judge items with one template under one config (see the module docstring)."""

    def __init__(self, config: JudgeConfig, template: Template) -> None:
        config.validate()
        self.config = config
        self.template = template
        self.request_key = request_key(config, template.sha256, PARSE_RULE)
        self.ledger = Ledger.open(config.ledger_dir())
        self.counts = RunCounts()
        self._client: Any = None
        self._answered: dict[str, dict[str, Any]] = {}  # this run's answer of each key

    def fingerprint(self) -> dict[str, Any]:
        """The judge fingerprint with the model ids the server returned so far."""
        models = sorted(self.counts.models)
        return fingerprint(self.config, self.template.sha256, PARSE_RULE, models)

    def judge_many(self, fields_list: Sequence[dict[str, str]]) -> list[ItemVerdict]:
        """Verdicts for many items (template fields each), in input order.

        One key, one answer: items whose prompt is the same share each vote's key,
        and the key is asked (or replayed) once; the others wait for its answer.
        """
        jobs = [(i, v) for i in range(len(fields_list)) for v in range(self.config.votes)]
        messages = [self.template.messages(**fields) for fields in fields_list]
        keys = [entry_key(self.request_key, messages[i], v) for i, v in jobs]
        self._check_offline(keys, jobs)
        first: dict[str, tuple[int, int]] = {}
        for job, key in zip(jobs, keys, strict=True):
            first.setdefault(key, job)
        with ThreadPoolExecutor(max_workers=self.config.concurrency) as pool:
            answers = dict(zip(first, pool.map(
                lambda key: self._vote(key, messages[first[key][0]], first[key][1]), first,
            ), strict=True))  # fmt: skip
        per_item: list[list[Vote]] = [[] for _ in fields_list]
        for (index, _), key in zip(jobs, keys, strict=True):
            per_item[index].append(answers[key])
        return [majority(v) for v in per_item]

    def close(self) -> None:
        """Close the HTTP client, if one was opened."""
        if self._client is not None:
            self._client.close()
            self._client = None

    def _check_offline(self, keys: list[str], jobs: list[tuple[int, int]]) -> None:
        if not self.config.offline:
            return
        for (index, vote), key in zip(jobs, keys, strict=True):
            if self.ledger.get(key) is None:
                raise LedgerMissError(
                    f"--judge-offline: the ledger {self.ledger.path} has no verdict for item "
                    f"{index + 1} (vote {vote + 1}) under this judge fingerprint; run once "
                    "without --judge-offline to record it"
                )

    def _vote(self, key: str, messages: list[dict[str, str]], vote: int) -> Vote:
        seed = self.config.seed + vote
        entry = self._answered.get(key) or self._answer(key, messages, vote, seed)
        response = entry["response"]
        if response["model"]:
            with self.ledger._lock:
                self.counts.models.add(response["model"])
        parsed = entry["parsed"]
        label = parsed["label"]
        if label is not None and label not in self.template.labels:
            raise InputFileError(
                self.ledger.path, f"{label!r} is not one of {', '.join(self.template.labels)}; "
                "remove the line (or the ledger file) and run again to ask for it anew",
                line=self.ledger.line_of(key) or None, field="parsed.label",
            )  # fmt: skip
        return Vote(vote, seed, label, parsed["reason"], response["model"],
                    response["usage"], entry_cost(response))  # fmt: skip

    def _answer(self, key: str, messages: list[dict[str, str]], vote: int, seed: int) -> Any:
        """The key's answer: replayed, or fetched (absent, or a transient failure)."""
        entry = self.ledger.get(key)
        if entry is not None and (self.config.offline or not is_transient(entry)):
            with self.ledger._lock:
                self.counts.replayed += 1
        else:
            retried = entry is not None
            entry = self._ask(key, messages, vote, seed)
            with self.ledger._lock:
                self.counts.fetched += 1
                self.counts.retried += retried
                self.counts.requests += entry["response"]["attempts"]
        self._answered[key] = entry
        return entry

    def _ask(
        self, key: str, messages: list[dict[str, str]], vote: int, seed: int
    ) -> dict[str, Any]:
        if self._client is None:
            with self.ledger._lock:
                if self._client is None:
                    self._client = new_client(self.config)
        outcome = chat(self._client, self.config, messages, seed, key)
        entry = ledger_entry(key, self, messages, vote, seed, outcome)
        self.ledger.record(entry)
        return entry


def ledger_entry(
    key: str, run: JudgeRun, messages: list[dict[str, str]], vote: int, seed: int,
    outcome: ChatOutcome,
) -> dict[str, Any]:  # fmt: skip
    """The ledger line of one vote: request, response and parse result."""
    if outcome.ok:
        label, why = parse_verdict(outcome.content, run.template.labels)
        reason = "" if label is not None else f"unparseable: {why}"
    else:
        label, reason = None, outcome.reason
    config = run.config
    return {
        "key": key,
        "request_key": run.request_key,
        "template": run.template.name,
        "vote": vote,
        "request": {"max_tokens": config.max_tokens, "messages": messages,
                    "model": config.model, "seed": seed, "temperature": config.temperature,
                    "url": config.url},  # fmt: skip
        "response": {"attempts": outcome.attempts, "body": outcome.body,
                     "content": outcome.content, "model": outcome.model, "ok": outcome.ok,
                     "reason": outcome.reason, "status": outcome.status,
                     "trail": list(outcome.trail), "usage": outcome.usage,
                     "waits": list(outcome.waits), "cost": outcome.cost},  # fmt: skip
        "parsed": {"label": label, "reason": reason, "rule": PARSE_RULE},
    }


def entry_cost(response: dict[str, Any]) -> float | None:
    """A recorded response's cost (``None``: it reported none).

    Its ``cost`` (a header or usage field, read when it came), else ``usage.cost``
    (ledgers written before costs were read apart).
    """
    from assay.judge.client import reported_cost

    cost = response.get("cost")
    if isinstance(cost, (int, float)) and not isinstance(cost, bool):
        return float(cost)
    return reported_cost({}, response["usage"])


def usage_totals(verdicts: Sequence[ItemVerdict]) -> dict[str, Any]:
    """Token usage summed over every vote; ``cost`` over the votes that have one, or ``None``."""
    votes = [v for item in verdicts for v in item.votes]
    totals: dict[str, Any] = {name: 0 for name in USAGE_FIELDS}
    reported = 0
    cost: float | None = None
    for vote in votes:
        if vote.usage:
            reported += 1
        for name in USAGE_FIELDS:
            value = vote.usage.get(name)
            if isinstance(value, int) and not isinstance(value, bool):
                totals[name] += value
        if vote.cost is not None:
            cost = (cost or 0.0) + vote.cost
    return {**totals, "cost": cost, "votes": len(votes), "votes_with_usage": reported}


def transport_failure(rows: Sequence[dict[str, Any]]) -> str | None:
    """The one transport reason every vote of every item failed with, else ``None``.

    ``rows``: items (or claims) in their report form (``verdict``, ``votes``).
    Transport: a timeout, a lost or refused connection, or an HTTP status (any):
    the endpoint is unreachable or refuses every request (a wrong URL, key or model).
    """
    reasons = {vote["reason"] for row in rows for vote in row["votes"]}
    if not rows or any(row["verdict"] != JUDGE_FAILED for row in rows) or len(reasons) != 1:
        return None
    (reason,) = reasons
    status = reason.startswith("http_") and reason[5:].isdigit()
    return reason if status or transient(reason) else None

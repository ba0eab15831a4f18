"""Prompt templates and the reply parse rule of the LLM judge.

Two templates, each hashed (SHA-256 of its text) into the judge fingerprint:

* :data:`CLAIM_TEMPLATE` — a free-text claim of structured FACT scoring against
  reference statements; labels ``supported``, ``contradicted``, ``insufficient``.
* :data:`RUBRIC_TEMPLATE` — an open answer against a rubric (the ``judge``
  metric); labels ``pass``, ``fail``.

Parse rule ``verdict-json-v1``: the reply must hold exactly one JSON object with a
string ``"verdict"`` (compared after stripping and casefolding) that is one of
the template's labels; text around the object is allowed (models like to
explain). A value nested too deeply to read (about 1000 levels) makes the reply
unparseable; an object holding an integer of more than 4300 digits is skipped.
Anything else is unparseable — recorded with the raw reply and
counted as ``judge_failed``, never guessed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from assay.judge.config import sha256_text

PARSE_RULE = "verdict-json-v1"

SYSTEM = (
    "You are a careful grader. Reply with one JSON object "
    '{"verdict": "<label>", "reason": "<one sentence>"} and nothing else.'
)

CLAIM_TEMPLATE = (
    "Decide whether the CLAIM is supported by the REFERENCE STATEMENTS.\n"
    'Labels: "supported" (a statement says the same), "contradicted" (a statement or a '
    'listed contradiction says otherwise), "insufficient" (the statements do not decide it).\n'
    "\nREFERENCE STATEMENTS:\n{statements}\n\nKNOWN CONTRADICTIONS:\n{contradictions}\n"
    "\nCLAIM:\n{claim}\n"
)
CLAIM_LABELS = ("supported", "contradicted", "insufficient")

RUBRIC_TEMPLATE = (
    "Grade the ANSWER to the QUESTION against the RUBRIC.\n"
    'Labels: "pass" (the answer meets the rubric), "fail" (it does not).\n'
    "\nRUBRIC:\n{rubric}\n\nQUESTION:\n{question}\n\nREFERENCE ANSWER:\n{reference}\n"
    "\nANSWER:\n{answer}\n"
)
RUBRIC_LABELS = ("pass", "fail")


@dataclass(frozen=True, slots=True)
class Template:
    """A prompt template, its labels and its hash."""

    name: str
    text: str
    labels: tuple[str, ...]

    @property
    def sha256(self) -> str:
        """SHA-256 over the system prompt, the template and the labels."""
        return sha256_text(json.dumps([SYSTEM, self.text, list(self.labels)]))

    def messages(self, **fields: str) -> list[dict[str, str]]:
        """The chat messages for one item."""
        return [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": self.text.format(**fields)},
        ]


CLAIM = Template("claim", CLAIM_TEMPLATE, CLAIM_LABELS)
RUBRIC = Template("rubric", RUBRIC_TEMPLATE, RUBRIC_LABELS)


def bullet_list(lines: Sequence[str]) -> str:
    """``- a`` lines, or ``(none)``."""
    return "\n".join(f"- {line}" for line in lines) if lines else "(none)"


class _TooDeep(Exception):
    """A JSON value in the reply nested past what the parser reads (~1000 levels)."""


def _objects(text: str) -> list[object]:
    """Every JSON value that starts at a ``{`` in ``text`` and decodes.

    A number past Python's integer digit limit does not decode (that object is
    skipped); nesting too deep to read raises :class:`_TooDeep`.
    """
    decoder = json.JSONDecoder()
    found: list[object] = []
    index = text.find("{")
    while index != -1:
        try:
            value, end = decoder.raw_decode(text, index)
        except RecursionError:
            raise _TooDeep from None
        except ValueError:  # not JSON from here, or an integer of more than 4300 digits
            index = text.find("{", index + 1)
            continue
        found.append(value)
        index = text.find("{", end)
    return found


def parse_verdict(reply: str, labels: Sequence[str]) -> tuple[str | None, str]:
    """Apply ``verdict-json-v1``: ``(label, "")`` or ``(None, why it is unparseable)``."""
    try:
        found = _objects(reply)
    except _TooDeep:
        return None, "a JSON value nested too deeply to read"
    objects = [o for o in found if isinstance(o, dict) and "verdict" in o]
    if len(objects) != 1:
        return None, f"expected one JSON object with a 'verdict', found {len(objects)}"
    verdict = objects[0]["verdict"]
    if not isinstance(verdict, str):
        return None, f"'verdict' is {type(verdict).__name__}, not a string"
    label = verdict.strip().casefold()
    if label not in labels:
        return None, f"verdict {verdict!r} is not one of {', '.join(labels)}"
    return label, ""

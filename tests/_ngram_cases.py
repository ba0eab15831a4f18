"""Seeded generator of varied (prediction, targets) pairs for the n-gram parity tests.

Kinds: short answers, sentences, long paragraphs (several lines), empty sides,
one-token texts, repeated tokens, non-ASCII text; one to four targets. Predictions
are perturbed copies of a target (drops, substitutions, swaps, repeats) so that
n-gram overlaps span the whole range from none to exact.
"""

from __future__ import annotations

import random

WORDS = (
    "the a of to and in is it that was for on are as with his they at be this from "
    "have or by one had not but what all were when we there can an your which their "
    "said if do will each about how up out them then she many some so these would "
    "cat dog mat sat ran running runs ran quickly model answer paris london berlin"
).split()
PUNCT_WORDS = (
    'Hello, world. (yes) "quoted" it\'s e.g. U.S.A. well-known 3.14 1,000 5-6 $20 '
    "50% &amp; &lt;tag&gt; A+B x/y end. -- ... ?! [note] {x} ~tilde ^caret @at #1"
).split()
UNICODE_WORDS = (
    "café naïve Straße İstanbul Ελλάδα Привет мир 東京 日本語 猫 한국어 "
    "नमस्ते ไทย résumé ÉCOLE 😀 ﬁne ½"
).split()


def _word(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.7:
        word = rng.choice(WORDS)
        return word.capitalize() if rng.random() < 0.1 else word
    if roll < 0.85:
        return rng.choice(PUNCT_WORDS)
    return rng.choice(UNICODE_WORDS)


def _sentence(rng: random.Random, low: int, high: int) -> list[str]:
    return [_word(rng) for _ in range(rng.randint(low, high))]


def _perturb(rng: random.Random, tokens: list[str]) -> list[str]:
    out = list(tokens)
    for _ in range(rng.randint(0, max(1, len(out) // 3))):
        op = rng.random()
        if not out or op < 0.25:
            out.insert(rng.randint(0, len(out)), _word(rng))
        elif op < 0.5:
            del out[rng.randrange(len(out))]
        elif op < 0.75:
            out[rng.randrange(len(out))] = _word(rng)
        elif len(out) > 1:
            i = rng.randrange(len(out) - 1)
            out[i], out[i + 1] = out[i + 1], out[i]
    return out


def _text(rng: random.Random, kind: str) -> list[str]:
    if kind == "short":
        return _sentence(rng, 1, 4)
    if kind == "sentence":
        return _sentence(rng, 5, 30)
    if kind == "paragraph":
        return _sentence(rng, 40, 120)
    if kind == "one":
        return _sentence(rng, 1, 1)
    if kind == "repeated":
        return [rng.choice(WORDS[:5])] * rng.randint(2, 8) + _sentence(rng, 0, 2)
    if kind == "unicode":
        return [rng.choice(UNICODE_WORDS) for _ in range(rng.randint(1, 12))]
    return []


def _join(rng: random.Random, tokens: list[str], lines: bool) -> str:
    if not lines or len(tokens) < 6:
        return " ".join(tokens)
    parts, start = [], 0
    while start < len(tokens):
        end = start + rng.randint(3, 15)
        parts.append(" ".join(tokens[start:end]))
        start = end
    return "\n".join(parts)


KINDS = ("short", "sentence", "paragraph", "one", "repeated", "unicode", "empty")
WEIGHTS = (25, 30, 6, 8, 10, 12, 9)


def make_pairs(n: int, seed: int) -> list[tuple[str, list[str]]]:
    """``n`` seeded pairs ``(prediction, targets)``; texts may hold newlines."""
    rng = random.Random(seed)
    pairs = []
    for _ in range(n):
        kind = rng.choices(KINDS, WEIGHTS)[0]
        lines = kind == "paragraph" or rng.random() < 0.1
        base = _text(rng, kind)
        targets = [_join(rng, _perturb(rng, base), lines) if rng.random() < 0.3 else None]
        targets = [t for t in targets if t is not None] or [_join(rng, base, lines)]
        for _ in range(rng.choice((0, 0, 0, 1, 2, 3))):
            targets.append(_join(rng, _perturb(rng, base), lines))
        if kind == "empty" and rng.random() < 0.5:
            prediction = _join(rng, _sentence(rng, 1, 5), lines)
        elif kind == "empty":
            prediction = ""
        elif rng.random() < 0.05:
            prediction = ""
        else:
            prediction = _join(rng, _perturb(rng, base), lines)
        if kind == "empty" and rng.random() < 0.5:
            targets = ["", *targets[1:]]
        pairs.append((prediction, targets))
    return pairs

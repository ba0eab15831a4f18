"""Synthetic XL-DocBench-shaped data at real scale: the one generator every bench uses.

The gold follows the strict release's answer-format mix (Str 62 %, Int 16 %, Float 8 %,
None 14 %); the systems differ in skill and in answer length, as real model outputs
do: *concise* systems answer with the value, *medium* ones with a sentence, *verbose*
ones with a paragraph (60–160 words) that may or may not contain the value. The
*sentence* style (eval_bench, bench_report) answers with a lead and the value when
right and with a lead and 3–25 filler words when wrong. About 1 % of answers are
missing and 1 % carry ``status: context_overflow``.

Used by eval_scale (concise/medium/verbose), eval_bench and bench_report (sentence),
and by hand: ``python bench/scale_data.py DIR --questions 1345``.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

FORMAT_SHARES = (("Str", 838), ("Int", 209), ("Float", 110), ("None", 188))
N_SYSTEMS = 13
STYLES = ("concise", "medium", "verbose")
SENTENCE = ("sentence",)
WORDS = (
    "annual report revenue board committee council depot station harbour policy manual "
    "section clause contract supplier region district programme audit fleet tariff budget "
    "capital expenditure operating margin ridership subsidy maintenance safety incident "
    "quarter growth decline forecast target emissions network route schedule passenger"
).split()
LEADS = ("Based on the document, ", "According to page 12, ", "The answer is ", "", "", "")


def _formats(n: int) -> list[str]:
    total = sum(count for _, count in FORMAT_SHARES)
    out: list[str] = []
    for fmt, count in FORMAT_SHARES:
        out += [fmt] * round(n * count / total)
    return (out + ["Str"] * n)[:n]


def _value(rng: random.Random, fmt: str) -> str:
    if fmt == "Str":
        return " ".join(rng.choice(WORDS).capitalize() for _ in range(rng.randint(1, 4)))
    if fmt == "Int":
        return f"{rng.randint(0, 250000):,}"
    if fmt == "Float":
        return f"{rng.uniform(0, 500):.2f}"
    return "Not answerable"


def make_gold(rng: random.Random, n: int) -> list[dict]:
    """``n`` gold rows in the release's shape."""
    rows = []
    for k, fmt in enumerate(_formats(n), 1):
        rows.append(
            {
                "question_id": f"q{k:06d}",
                "task_type": rng.choice(["single_doc", "cross_doc"]),
                "answer": {
                    "value": _value(rng, fmt),
                    "format": fmt,
                    "verification_rule": "casefold_exact_match",
                },
                "metadata": {
                    "domain": rng.choice(["finance", "legal", "medical", "government"]),
                    "reasoning_type": rng.choice(["extraction", "arithmetic", "comparison"]),
                    "difficulty": rng.choice(["easy", "medium", "hard"]),
                    "doc_type": rng.choice(["report", "manual", "slides"]),
                    "evidence_sources": rng.sample(["text", "table", "chart", "image"], 2),
                },
            }
        )
    return rows


def _filler(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high)))


def make_prediction(rng: random.Random, gold: dict, skill: float, style: str) -> str:
    """One system's answer to one question."""
    value = gold["answer"]["value"]
    right = rng.random() < skill
    if style == "sentence":
        return _sentence(rng, gold, value, right)
    if not right and gold["answer"]["format"] == "None":
        value = rng.choice(["Paris", "12", "The report does not say."])
    elif not right:
        value = _filler(rng, 1, 4)
    if style == "concise":
        return value
    if style == "medium":
        return rng.choice(LEADS) + value + rng.choice(["", ".", " in total."])
    before, after = _filler(rng, 30, 80), _filler(rng, 30, 80)
    return f"{before.capitalize()}. {rng.choice(LEADS)}{value}. {after}."


def _sentence(rng: random.Random, gold: dict, value: str, right: bool) -> str:
    if right:
        return rng.choice(LEADS) + value + rng.choice(["", ".", " in total."])
    if gold["answer"]["format"] == "None":
        return rng.choice(["Paris", "12", "The report does not say."])
    return rng.choice(LEADS) + _filler(rng, 3, 25)


def write(
    root: Path,
    n_questions: int,
    seed: int = 1345,
    n_systems: int = N_SYSTEMS,
    styles: tuple[str, ...] = STYLES,
) -> list[Path]:
    """Write ``qa_single_doc.jsonl`` and ``systems/systemNN.jsonl`` under ``root``.

    System ``s`` has skill ``0.3 + 0.05 s`` and style ``styles[s % len(styles)]``;
    returns the gold path, then the system files.
    """
    rng = random.Random(seed)
    root.mkdir(parents=True, exist_ok=True)
    gold = make_gold(rng, n_questions)
    gold_path = root / "qa_single_doc.jsonl"
    gold_path.write_text("".join(json.dumps(r) + "\n" for r in gold), "utf-8")
    folder = root / "systems"
    folder.mkdir(exist_ok=True)
    files = []
    for s in range(n_systems):
        skill, style = 0.3 + 0.05 * s, styles[s % len(styles)]
        lines = []
        for g in gold:
            if rng.random() < 0.01:
                continue
            status = "context_overflow" if rng.random() < 0.01 else "success"
            text = make_prediction(rng, g, skill, style)
            row = {"question_id": g["question_id"], "prediction": text, "status": status}
            lines.append(json.dumps(row) + "\n")
        path = folder / f"system{s:02d}.jsonl"
        path.write_text("".join(lines), "utf-8")
        files.append(path)
    return [gold_path, *files]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--questions", type=int, default=1345)
    parser.add_argument("--systems", type=int, default=N_SYSTEMS)
    parser.add_argument("--seed", type=int, default=1345)
    parser.add_argument("--styles", default=",".join(STYLES), help="comma-separated styles")
    args = parser.parse_args()
    write(args.root, args.questions, args.seed, args.systems, tuple(args.styles.split(",")))


if __name__ == "__main__":
    main()

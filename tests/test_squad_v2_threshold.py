"""SQuAD v2.0 no-answer threshold search against the official v2.0 script's published rules.

``_official`` transcribes the script's ``make_eval_dict``, ``apply_no_ans_threshold``
and ``find_best_thresh`` (dicts keyed by question id, as published) without using
assay's implementation; Hugging Face evaluate's ``squad_v2`` docstring example is the
published value.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

import assay

KEYS = ["exact", "f1", "HasAns_exact", "HasAns_f1", "NoAns_exact", "NoAns_f1",
        "best_exact", "best_exact_thresh", "best_f1", "best_f1_thresh"]  # fmt: skip


def _official(preds: dict, exact: dict, f1: dict, na_probs: dict, has_ans: dict) -> dict:
    def thresh(scores: dict) -> dict:  # apply_no_ans_threshold, na_prob_thresh = 1.0
        return {k: float(not has_ans[k]) if na_probs[k] > 1.0 else s for k, s in scores.items()}

    def evaluation(e: dict, f: dict, qids: list) -> tuple[float, float]:
        n = len(qids)
        return 100.0 * sum(e[k] for k in qids) / n, 100.0 * sum(f[k] for k in qids) / n

    def best(scores: dict) -> tuple[float, float]:  # find_best_thresh
        cur = best_score = sum(1 for k in has_ans if not has_ans[k])
        best_t = 0.0
        for qid in sorted(na_probs, key=lambda k: na_probs[k]):
            if qid not in scores:
                continue
            diff = scores[qid] if has_ans[qid] else (-1 if preds[qid] else 0)
            cur += diff
            if cur > best_score:
                best_score, best_t = cur, na_probs[qid]
        return 100.0 * best_score / len(scores), best_t

    e, f = thresh(exact), thresh(f1)
    out: dict = {}
    out["exact"], out["f1"] = evaluation(e, f, list(e))
    has = [k for k, v in has_ans.items() if v]
    no = [k for k, v in has_ans.items() if not v]
    if has:
        out["HasAns_exact"], out["HasAns_f1"] = evaluation(e, f, has)
    if no:
        out["NoAns_exact"], out["NoAns_f1"] = evaluation(e, f, no)
    out["best_exact"], out["best_exact_thresh"] = best(exact)
    out["best_f1"], out["best_f1_thresh"] = best(f1)
    return out


def _corpus(rng: random.Random, n: int) -> tuple[list[str], list[list[str]], list[str], dict]:
    words = "the a paris london 1976 in of cat dog blue".split()
    preds: list[str] = []
    targets: list[list[str]] = []
    ids: list[str] = []
    for i in range(n):
        answer = " ".join(rng.choice(words) for _ in range(rng.randint(1, 3)))
        targets.append([""] if rng.random() < 0.4 else [answer, answer + " x"][: rng.randint(1, 2)])
        roll = rng.random()
        preds.append("" if roll < 0.3 else answer if roll < 0.7 else rng.choice(words))
        ids.append(f"q{i}")
    keys = [f"q{i}" for i in range(n)]
    rng.shuffle(keys)  # the mapping's order decides ties, as the script's dict order does
    probs = {k: rng.choice([0.0, 0.1, 0.25, 0.5, 0.5, 0.75, 0.9, 1.0]) for k in keys}
    return preds, targets, ids, probs


@pytest.mark.parametrize("seed", range(25))
def test_threshold_search_matches_the_official_script(seed: int) -> None:
    rng = random.Random(seed)
    preds, targets, ids, probs = _corpus(rng, rng.randint(1, 60))
    em = assay.score_corpus("squad_v2.em", preds, targets).values
    f1 = assay.score_corpus("squad_v2.f1", preds, targets).values
    expected = _official(
        dict(zip(ids, preds, strict=True)),
        dict(zip(ids, em, strict=True)),
        dict(zip(ids, f1, strict=True)),
        probs,
        {i: bool([a for a in t if a]) for i, t in zip(ids, targets, strict=True)},
    )
    for name in ("squad_v2.em", "squad_v2.f1"):
        result = assay.score_corpus(name, preds, targets, no_answer_probabilities=probs, ids=ids)
        assert result.details is not None and set(result.details) == set(expected)
        for key, value in expected.items():
            assert result.details[key] == pytest.approx(value, abs=1e-9), key
        assert result.to_dict()["details"] == dict(result.details)


def test_hf_evaluate_squad_v2_docstring_example() -> None:
    # evaluate's squad_v2 example: one answered question, probability 0 ->
    # exact 100, f1 100, HasAns 100, best_exact 100 at threshold 0.0 (no NoAns keys).
    result = assay.score_corpus(
        "squad_v2.f1", ["1976"], [["1976"]], ids=["56e10a3be3433e1400422b22"],
        no_answer_probabilities={"56e10a3be3433e1400422b22": 0.0},
    )  # fmt: skip
    assert result.details == {
        "exact": 100.0, "f1": 100.0, "HasAns_exact": 100.0, "HasAns_f1": 100.0,
        "best_exact": 100.0, "best_exact_thresh": 0.0, "best_f1": 100.0, "best_f1_thresh": 0.0,
    }  # fmt: skip


def test_without_probabilities_nothing_changes() -> None:
    result = assay.score_corpus("squad_v2.f1", ["a"], [["a"]])
    assert result.details is None and "details" not in result.to_dict()


def test_bad_probabilities_are_one_clear_error() -> None:
    with pytest.raises(assay.InvalidOptionError, match="no entry for id 'b'"):
        assay.score_corpus("squad_v2.em", ["x", "y"], [["x"], [""]], ids=["a", "b"],
                           no_answer_probabilities={"a": 0.5})  # fmt: skip
    with pytest.raises(assay.InvalidOptionError, match="between 0 and 1"):
        assay.score_corpus("squad_v2.em", ["x"], [["x"]], no_answer_probabilities={0: 1.5})
    with pytest.raises(assay.InvalidOptionError, match="squad_v2.em and squad_v2.f1"):
        assay.score_corpus("f1", ["x"], [["x"]], no_answer_probabilities={0: 0.5})


def test_cli_reads_no_answer_probability_rows(tmp_path: Path) -> None:
    rows = [
        '{"id": "a", "prediction": "1976", "targets": ["1976"], "no_answer_probability": 0.1}',
        '{"id": "b", "prediction": "", "targets": [""], "no_answer_probability": 0.9}',
        '{"id": "c", "prediction": "x", "targets": [""], "no_answer_probability": 0.6}',
        '{"id": "d", "prediction": "Paris", "targets": ["Paris, France"], '
        '"no_answer_probability": 0.3}',
    ]
    path = tmp_path / "pairs.jsonl"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "assay", "score", "squad_v2.f1", "--file",
                           str(path)], capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = dict(line.split(": ", 1) for line in done.stdout.splitlines())
    # By hand: F1 = (1, 1, 0, 2/3); best F1: sorted probs 0.1 (+1), 0.3 (+2/3), 0.6 (-1), 0.9 (0),
    # starting at 2 unanswerable -> best 3.667 at 0.3 -> 91.67.
    assert float(lines["best_f1"]) == pytest.approx(100 * (2 + 1 + 2 / 3) / 4)
    assert float(lines["best_f1_thresh"]) == 0.3
    assert list(lines)[1:11] == KEYS
    bad = tmp_path / "bad.jsonl"
    bad.write_text(rows[0] + "\n" + '{"id": "z", "prediction": "", "targets": [""]}\n', "utf-8")
    done = subprocess.run([sys.executable, "-m", "assay", "score", "squad_v2.f1", "--file",
                           str(bad)], capture_output=True, text=True)  # fmt: skip
    assert done.returncode != 0 and done.stderr.startswith("error: ")
    assert "no_answer_probability" in done.stderr and ":2" in done.stderr

"""``assay score``: several metrics, per-item rows, JSON output and a seeded interval."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import sacrebleu

import assay
from cli_helpers import run

PAIRS = assay.data_path("qa_pairs.jsonl")


def rows() -> list[dict[str, object]]:
    return [json.loads(line) for line in PAIRS.read_text("utf-8").splitlines() if line.strip()]


def out(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert run(*args) == 0
    return capsys.readouterr().out


def test_several_metrics_in_one_call_each_spelling(capsys: pytest.CaptureFixture[str]) -> None:
    alone = [out(capsys, "score", m, "--file", str(PAIRS)) for m in ("f1", "rouge_l", "anls")]
    together = "".join(alone)
    assert out(capsys, "score", "-m", "f1", "-m", "rouge_l", "-m", "anls", "--file",
               str(PAIRS)) == together  # fmt: skip
    assert out(capsys, "score", "-m", "f1,rouge_l", "-m", "anls", "--file", str(PAIRS)) == together
    assert out(capsys, "score", "f1", "-m", "rouge_l,anls", "-m", "f1", "--file",
               str(PAIRS)) == together  # fmt: skip


def test_per_item_rows_hold_each_metric_in_input_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "items.jsonl"
    out(capsys, "score", "-m", "f1,exact_match", "--file", str(PAIRS), "--per-item", str(target))
    items = [json.loads(line) for line in target.read_text("utf-8").splitlines()]
    assert [r["id"] for r in items] == [r["id"] for r in rows()]
    assert list(items[0]) == ["id", "f1", "exact_match"]
    # q02: "the cat sat" against "the cat sat on the mat": P = 3/3, R = 3/6, F1 = 2/3.
    assert items[1]["id"] == "q02" and items[1]["f1"] == pytest.approx(2 / 3, abs=1e-12)
    assert items[0] == {"id": "q01", "f1": 1.0, "exact_match": 1.0}  # "Paris" / "Paris"


def test_json_output_matches_sacrebleu_and_names_every_signature(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    single = tmp_path / "single.jsonl"  # one target each, so sacrebleu takes one stream
    picked = [{**r, "targets": (r["targets"] if isinstance(r["targets"], list)
                                else [r["targets"]])[:1]} for r in rows()]  # fmt: skip
    single.write_text("".join(json.dumps(r) + "\n" for r in picked), "utf-8")
    document = json.loads(out(capsys, "score", "-m", "corpus_bleu,f1", "--file", str(single),
                              "--json"))  # fmt: skip
    assert document["kind"] == "assay.score" and document["input"] == str(single)
    bleu, f1 = document["metrics"]
    hyps = [str(r["prediction"]) for r in picked]
    refs = [[str(r["targets"][0]) for r in picked]]  # type: ignore[index]
    assert bleu["value"] == pytest.approx(sacrebleu.corpus_bleu(hyps, refs).score / 100, abs=1e-9)
    assert bleu["aggregation"] == "corpus" and f1["aggregation"] == "mean"
    assert bleu["signature"].startswith("corpus_bleu|") and f1["signature"].startswith("f1|")
    assert bleu["interval"] is None and document["options"]["confidence"] is None


def test_confidence_is_a_seeded_bootstrap_recorded_and_reproducible(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    items = tmp_path / "items.jsonl"
    args = ["score", "f1", "--file", str(PAIRS), "--confidence", "0.9", "--seed", "7",
            "--resamples", "500"]  # fmt: skip
    first = out(capsys, *args, "--json", "--per-item", str(items))
    assert out(capsys, *args, "--json", "--per-item", str(items)) == first  # byte-identical
    interval = json.loads(first)["metrics"][0]["interval"]
    assert (interval["seed"], interval["n_resamples"], interval["confidence"]) == (7, 500, 0.9)
    values = np.array([json.loads(line)["f1"] for line in items.read_text("utf-8").splitlines()])
    # Independent reference: one Generator, indices drawn as one (resamples, n) matrix.
    picks = np.random.default_rng(7).choice(len(values), size=(500, len(values)), replace=True)
    lower, upper = np.quantile(values[picks].mean(axis=1), [0.05, 0.95])
    assert (interval["lower"], interval["upper"]) == pytest.approx((lower, upper), abs=1e-12)
    text = out(capsys, *args)
    assert f"90% CI [{lower:.6f}, {upper:.6f}] (bootstrap, 500 resamples, seed 7)" in text


def test_a_corpus_metric_interval_resamples_its_statistics(
    capsys: pytest.CaptureFixture[str],
) -> None:
    document = json.loads(out(capsys, "score", "corpus_bleu", "--file", str(PAIRS),
                              "--confidence", "0.95", "--json"))  # fmt: skip
    metric = document["metrics"][0]
    interval = metric["interval"]
    assert interval["estimate"] == pytest.approx(metric["value"], abs=1e-12)
    assert interval["lower"] <= metric["value"] <= interval["upper"]
    assert interval["status"] == "ok" and interval["n"] == len(rows())


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["score", "f1", "-p", "a", "-t", "a", "--confidence", "0.95"], "need --file"),
        (["score", "-p", "a", "-t", "a"], "give a METRIC"),
        (["score", "-m", "f1,", "-p", "a", "-t", "a"], "give a METRIC"),
    ],
)
def test_score_usage_errors(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(*args) == 2
    assert words in capsys.readouterr().err


def test_an_unknown_metric_among_several_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("score", "-m", "f1,rouge_m", "-p", "a", "-t", "a") != 0
    err = capsys.readouterr().err
    assert "rouge_m" in err and err.startswith("error:")


def test_squad_v2_details_with_other_metrics(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [
        '{"id": "a", "prediction": "1976", "targets": ["1976"], "no_answer_probability": 0.1}',
        '{"id": "b", "prediction": "x", "targets": [""], "no_answer_probability": 0.9}',
    ]
    path = tmp_path / "pairs.jsonl"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    document = json.loads(out(capsys, "score", "-m", "f1,squad_v2.em", "--file", str(path),
                              "--json"))  # fmt: skip
    f1, em = document["metrics"]
    # Only the SQuAD v2 metric takes the probabilities. By hand: a is right, b answers an
    # unanswerable question; the running best-exact score starts at 1 (one unanswerable),
    # +1 at 0.1 (a) -> 2 (best, threshold 0.1), -1 at 0.9 (b) -> 100 * 2 / 2.
    assert "details" not in f1 and f1["value"] == 0.5
    assert em["details"]["exact"] == 50.0 and em["details"]["best_exact"] == 100.0
    assert em["details"]["best_exact_thresh"] == 0.1

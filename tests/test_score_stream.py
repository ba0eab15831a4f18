"""``assay score --file`` streams: chunks give score_corpus's numbers; ids cost 8 bytes each."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

import assay
from assay.api import bind, score_corpus
from assay.cli import score_file
from assay.errors import InputFileError
from assay.io.idset import HashedIds
from assay.io.pairs import read_pairs
from assay.metrics.stream import Tally, score_chunk
from cli_helpers import run, run_captured

WORDS = "the cat sat on a mat dog ran far away quick brown fox".split()
METRICS = ["f1", "exact_match", "corpus_bleu", "chrf", "gleu", "rouge_l", "ter", "wer"]


def _pairs(n: int, seed: int = 3) -> list[tuple[str, list[str]]]:
    rng = random.Random(seed)

    def text() -> str:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 9)))

    return [(text(), [text() for _ in range(rng.randint(1, 3))]) for _ in range(n)]


def _write(path: Path, pairs: list[tuple[str, list[str]]], **extra: list[object]) -> Path:
    rows = []
    for k, (prediction, targets) in enumerate(pairs):
        row: dict[str, object] = {"id": f"p{k}", "prediction": prediction, "targets": targets}
        row.update({key: values[k] for key, values in extra.items()})
        rows.append(json.dumps(row) + "\n")
    path.write_text("".join(rows), "utf-8")
    return path


@pytest.mark.parametrize("metric", METRICS)
def test_tallied_chunks_equal_score_corpus(metric: str) -> None:
    pairs = _pairs(300)
    corpus = score_corpus(metric, [p for p, _ in pairs], [t for _, t in pairs])
    bound = bind(metric)
    tally = Tally(bound, keep_statistics=True)
    for start in range(0, 300, 7):  # many chunks, a short last one
        chunk = pairs[start : start + 7]
        (part,) = score_chunk([bound], [p for p, _ in chunk], [t for _, t in chunk])
        tally.add(part)
    result = tally.result()
    assert (result.value, result.is_mean, result.n) == (corpus.value, corpus.is_mean, 300)
    assert tuple(tally.values) == corpus.values
    kept = tally.statistics()
    if not corpus.is_mean:
        assert kept is not None and kept.tolist() == [list(row) for row in corpus.statistics or ()]


def test_cli_streams_every_metric_and_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(score_file, "CHUNK", 11)
    pairs = _pairs(120)
    path = _write(tmp_path / "pairs.jsonl", pairs)
    items = tmp_path / "items.jsonl"
    code, out, err = run_captured("score", "-m", ",".join(METRICS), "--file", str(path),
                                  "--json", "--per-item", str(items))  # fmt: skip
    assert code == 0, err
    entries = json.loads(out)["metrics"]
    rows = [json.loads(line) for line in items.read_text("utf-8").splitlines()]
    assert [r["id"] for r in rows] == [f"p{k}" for k in range(120)]
    for entry in entries:
        corpus = score_corpus(entry["metric"], [p for p, _ in pairs], [t for _, t in pairs])
        assert (entry["value"], entry["n"]) == (corpus.value, 120)
        assert [r[entry["metric"]] for r in rows] == list(corpus.values)


def test_confidence_over_many_chunks_is_the_whole_corpus_bootstrap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(score_file, "CHUNK", 5)
    pairs = _pairs(60)
    path = _write(tmp_path / "pairs.jsonl", pairs)
    code, out, _ = run_captured("score", "f1", "--file", str(path), "--confidence", "0.9",
                                "--resamples", "400", "--seed", "11", "--json")  # fmt: skip
    assert code == 0
    interval = json.loads(out)["metrics"][0]["interval"]
    values = np.array(score_corpus("f1", [p for p, _ in pairs], [t for _, t in pairs]).values)
    # Independent reference: one Generator, indices drawn as one (resamples, n) matrix.
    picks = np.random.default_rng(11).choice(60, size=(400, 60), replace=True)
    lower, upper = np.quantile(values[picks].mean(axis=1), [0.05, 0.95])
    assert (interval["lower"], interval["upper"]) == pytest.approx((lower, upper), abs=1e-12)


def test_a_bad_row_late_in_the_file_leaves_the_old_per_item_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(score_file, "CHUNK", 4)
    path = _write(tmp_path / "pairs.jsonl", _pairs(30))
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"id": "late", "prediction": 7, "targets": ["x"]}\n')
    items = tmp_path / "items.jsonl"
    items.write_text("old\n", "utf-8")
    code, out, err = run_captured("score", "f1", "--file", str(path), "--per-item", str(items))
    assert code != 0 and out == ""
    assert err.startswith("error: ") and ":31" in err and "prediction" in err
    assert items.read_text("utf-8") == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["items.jsonl", "pairs.jsonl"]


def test_squad_v2_details_over_many_chunks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(score_file, "CHUNK", 3)
    rng = random.Random(5)
    pairs = [(p if rng.random() < 0.7 else "", t if rng.random() < 0.6 else [""])
             for p, t in _pairs(40)]  # fmt: skip
    chances = [round(rng.random(), 2) for _ in pairs]
    path = _write(tmp_path / "pairs.jsonl", pairs, no_answer_probability=list(chances))
    code, out, err = run_captured("score", "-m", "squad_v2.f1,squad_v2.em", "--file", str(path),
                                  "--json")  # fmt: skip
    assert code == 0, err
    ids = [f"p{k}" for k in range(40)]
    probabilities = dict(zip(ids, chances, strict=True))
    for entry in json.loads(out)["metrics"]:
        whole = assay.score_corpus(entry["metric"], [p for p, _ in pairs], [t for _, t in pairs],
                                   ids=ids, no_answer_probabilities=probabilities)  # fmt: skip
        assert entry["details"] == whole.details and entry["value"] == whole.value


@pytest.mark.parametrize("first_has", [True, False])
def test_no_answer_probability_on_some_rows_only_names_the_first_row_without(
    tmp_path: Path, first_has: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [{"id": f"r{k}", "prediction": "a", "targets": ["a"]} for k in range(9)]
    for k, row in enumerate(rows):
        if (k < 6) == first_has:
            row["no_answer_probability"] = 0.5
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    assert run("score", "squad_v2.f1", "--file", str(path)) != 0
    err = capsys.readouterr().err
    line = 7 if first_has else 1  # the first row without a probability
    assert err.startswith("error: ") and f":{line}" in err and "no_answer_probability" in err


def test_dask_gives_the_same_output_and_rows(tmp_path: Path) -> None:
    pytest.importorskip("dask.distributed")
    pairs = _pairs(90)
    chances = [k / 100 for k in range(90)]
    path = _write(tmp_path / "pairs.jsonl", pairs, no_answer_probability=chances)
    outputs = []
    for extra in ([], ["--dask", "local:2"]):
        items = tmp_path / "items.jsonl"
        code, out, err = run_captured("score", "-m", "squad_v2.f1,corpus_bleu", "--file", str(path),
                                      "--per-item", str(items), "--confidence", "0.95",
                                      *extra)  # fmt: skip
        assert code == 0, err
        outputs.append((out, items.read_bytes()))
    assert outputs[0] == outputs[1]


def test_hashed_ids_are_exact_about_new_ids() -> None:
    ids = HashedIds()
    assert all(ids.add(f"id{k}") for k in range(20_000))  # grows several times
    assert len(ids) == 20_000
    assert not ids.add("id7") and not ids.add("id19999")


def test_duplicate_ids_are_refused_with_both_lines(tmp_path: Path) -> None:
    path = tmp_path / "pairs.jsonl"
    rows = [{"id": f"p{k}", "prediction": "x", "targets": ["x"]} for k in range(6)]
    rows.append({"id": "p2", "prediction": "y", "targets": ["y"]})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    for hashed in (False, True):
        with pytest.raises(InputFileError) as caught:
            list(read_pairs(path, hashed_ids=hashed))
        assert "duplicate id 'p2' (first on line 3)" in str(caught.value)
        assert caught.value.line == 7


def test_a_hash_collision_is_not_a_duplicate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from assay.io import idset

    monkeypatch.setattr(idset.HashedIds, "_key", staticmethod(lambda value: 5))  # one hash
    path = tmp_path / "pairs.jsonl"
    rows = [{"id": f"p{k}", "prediction": "x", "targets": ["x"]} for k in range(5)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    assert [p.id for p in read_pairs(path, hashed_ids=True)] == [f"p{k}" for k in range(5)]
    rows.append(rows[1])
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    with pytest.raises(InputFileError, match="first on line 2"):
        list(read_pairs(path, hashed_ids=True))

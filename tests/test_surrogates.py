"""Lone surrogates (``"\\ud800"`` in JSON, or an argument byte that is not UTF-8) everywhere.

A lone surrogate is valid as a JSON string escape, so any input can hold one; it is not a
Unicode character, so it cannot be encoded as UTF-8. Every metric scores such text (as one
more character, the way it scores a private-use character), and every command that reads
text either scores it or stops with one ``error:`` line naming file, line and field —
never a traceback. Outputs keep the text (written as the backslash escape JSON reads back).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

import assay
from assay.metrics.registry import REGISTRY

DATA = Path(str(resources.files("assay") / "data"))
SRC = Path(__file__).resolve().parents[1] / "src"
LONE = ("\ud800", "\udc00", "\udfff", "\udbff")
# Each lone surrogate and a private-use character nothing else uses, for the comparison.
STAND_IN = dict(zip(LONE, ("\ue000", "\ue001", "\ue002", "\ue003"), strict=True))
PAIRS = [
    ("a\ud800b", ["a\udc00b"]),
    ("\ud800 x", ["\ud800 x"]),
    ("the \udfff cat sat", ["the cat sat"]),
    ("\ud800", ["\udbff"]),
    ("x\ud800", ["x\ud800y"]),
    ("plain words", ["a\udfff\udfffb words"]),
]
SEMANTIC = {name for name, spec in REGISTRY.items() if spec.family == "semantic"}


def _stand_in(text: str) -> str:
    for lone, other in STAND_IN.items():
        text = text.replace(lone, other)
    return text


def test_the_registry_has_metrics_of_every_family() -> None:
    assert len(REGISTRY) > 30 and SEMANTIC == {"embedding_cosine", "greedy_match"}


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_registered_metric_scores_lone_surrogates(name: str) -> None:
    values = [assay.score(name, p, ts) for p, ts in PAIRS]
    assert all(isinstance(v, float) and math.isfinite(v) for v in values)
    corpus = assay.score_corpus(name, [p for p, _ in PAIRS], [ts for _, ts in PAIRS])
    assert corpus.value is None or math.isfinite(corpus.value)
    same = [assay.score(name, p, [p]) for p, _ in PAIRS]
    plain = [assay.score(name, _stand_in(p), [_stand_in(p)]) for p, _ in PAIRS]
    assert same == plain  # a text against itself: as with any other character
    if name in SEMANTIC:
        # Scored over the surrogate's own bytes (tests/test_semantic.py has the token
        # ids): two different surrogates are different tokens.
        assert assay.score(name, "\ud800", ["\udc00"]) < 1.0
        assert all(0.0 <= v <= 1.0 for v in values)
    else:
        # Every other metric treats a lone surrogate as one opaque character, exactly as it
        # treats an unused private-use character.
        assert values == [
            assay.score(name, _stand_in(p), [_stand_in(t) for t in ts]) for p, ts in PAIRS
        ]


def _assay(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    return subprocess.run(
        [sys.executable, "-m", "assay", *args], capture_output=True, text=True, cwd=cwd,
        env=env, errors="backslashreplace", timeout=300,
    )  # fmt: skip


def _clean(done: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    if done.returncode != 0:
        assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr


def _inject(source: Path, target: Path, fields: tuple[str, ...]) -> Path:
    """Copy a JSONL file with a lone surrogate put into each string (or list) of ``fields``."""
    rows = []
    for number, line in enumerate(source.read_text(encoding="utf-8").splitlines()):
        if not line.strip():
            continue
        row = json.loads(line)
        lone = LONE[number % len(LONE)]
        for name in fields:
            value = row.get(name)
            if isinstance(value, str):
                row[name] = value[:3] + lone + value[3:]
            elif isinstance(value, list):
                row[name] = [v[:2] + lone + v[2:] if isinstance(v, str) else v for v in value]
        rows.append(json.dumps(row) + "\n")  # ensure_ascii: the surrogate as \\udXXX
    target.write_text("".join(rows), encoding="ascii")
    return target


def test_score_file_with_every_metric_equals_the_library(tmp_path: Path) -> None:
    rows = [{"id": i, "prediction": p, "targets": ts[:1]} for i, (p, ts) in enumerate(PAIRS)]
    pairs = tmp_path / "s.jsonl"
    pairs.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="ascii")
    done = _assay("score", "-m", ",".join(sorted(REGISTRY)), "--file", str(pairs), "--json",
                  cwd=tmp_path)  # fmt: skip
    _clean(done)
    assert done.returncode == 0
    got = {m["metric"]: m["value"] for m in json.loads(done.stdout)["metrics"]}
    preds, targets = [r["prediction"] for r in rows], [r["targets"] for r in rows]
    assert got == {name: assay.score_corpus(name, preds, targets).value for name in REGISTRY}


def test_the_issue_reproduction(tmp_path: Path) -> None:
    (tmp_path / "s.jsonl").write_text('{"id":1,"prediction":"a\\ud800b","targets":["a b"]}\n')
    for metric in ("embedding_cosine", "greedy_match"):
        done = _assay("score", metric, "--file", "s.jsonl", cwd=tmp_path)
        _clean(done)
        assert done.returncode == 0 and done.stdout.startswith(f"{metric}: 0.")
    assert 0.0 < assay.score("embedding_cosine", "a\ud800b", ["a b"]) < 1.0


def test_a_pair_given_as_arguments_that_are_not_utf8(tmp_path: Path) -> None:
    # Linux passes argument bytes; Python decodes a byte that is not UTF-8 as a lone
    # surrogate (surrogateescape): b"\xff" -> "\udcff".
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run(
        [os.fsencode(sys.executable), b"-m", b"assay", b"score", b"embedding_cosine", b"-m",
         b"f1,exact_match", b"-p", b"caf\xff", b"-t", b"caf\xff", b"--json"],
        capture_output=True, env=env, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    values = {m["metric"]: m["value"] for m in json.loads(done.stdout)["metrics"]}
    assert values == {"embedding_cosine": 1.0, "f1": 1.0, "exact_match": 1.0}


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Copies of the bundled inputs with a lone surrogate in every text field."""
    work = tmp_path_factory.mktemp("surrogates")
    xl = DATA / "xlsample"
    _inject(xl / "predictions" / "atlas-7b.jsonl", work / "atlas.jsonl", ("prediction",))
    _inject(xl / "predictions" / "cirrus-mini.jsonl", work / "cirrus.jsonl", ("prediction",))
    shutil.copytree(DATA / "harness" / "lm-eval", work / "lm")
    for samples in (work / "lm").glob("samples_*.jsonl"):
        _inject(samples, samples, ("resps", "filtered_resps"))
    _inject(DATA / "structured" / "responses.jsonl", work / "responses.jsonl", ("response",))
    _inject(DATA / "code" / "samples.jsonl", work / "code_samples.jsonl", ("completion",))
    _inject(DATA / "judge" / "human_labels.jsonl", work / "labels.jsonl", ("label",))
    return work


def _gold() -> list[str]:
    xl = DATA / "xlsample"
    return ["--gold-files", str(xl / "qa_single_doc.jsonl"), str(xl / "qa_cross_doc.jsonl")]


def _predictions(path: Path) -> dict[str, str]:
    return {r["question_id"]: r["prediction"]
            for r in map(json.loads, path.read_text().splitlines())}  # fmt: skip


def test_eval_compare_diff_report_keep_the_text(inputs: Path) -> None:
    atlas, cirrus = inputs / "atlas.jsonl", inputs / "cirrus.jsonl"
    for name, predictions in (("a", atlas), ("b", cirrus)):
        done = _assay("eval", *_gold(), "--predictions", str(predictions), "--output",
                      f"{name}.json", "--per-question-csv", f"{name}.csv", "--markdown",
                      f"{name}.md", cwd=inputs)  # fmt: skip
        _clean(done)
        assert done.returncode == 0
    kept = {q["question_id"]: q["prediction"]
            for q in json.loads((inputs / "a.json").read_text())["per_question"]}  # fmt: skip
    given = {k: v for k, v in _predictions(atlas).items() if isinstance(v, str) and
             any(lone in v for lone in LONE)}  # fmt: skip
    assert len(given) > 40 and all(kept[k] == v for k, v in given.items() if k in kept)
    done = _assay("compare", *_gold(), "--predictions", str(atlas), "--predictions",
                  str(cirrus), "--trials", "200", "--result-json", "res.json", "--html",
                  "c.html", cwd=inputs)  # fmt: skip
    _clean(done)
    assert done.returncode == 0
    for args in (["diff", "a.json", "b.json"],
                 ["report", "res.json", "--format", "md", "--output", "r.md"],
                 ["report", "a.json", "--format", "csv", "--output", "r.csv"]):  # fmt: skip
        done = _assay(*args, cwd=inputs)
        _clean(done)
        assert done.returncode == 0, args


def test_rescore_structured_and_judge_calibrate_score_it(inputs: Path) -> None:
    for args in (
        ["rescore", "lm", "-m", "f1,embedding_cosine", "--output", "rs.json",
         "--per-item", "rs.jsonl"],
        ["structured", "--items", "responses.jsonl", "--schema",
         str(DATA / "structured" / "product.schema.json"), "--references",
         str(DATA / "structured" / "references.jsonl"), "--output", "s.json"],
        ["judge-calibrate", "--human", "labels.jsonl"],
    ):  # fmt: skip
        done = _assay(*args, cwd=inputs)
        _clean(done)
        assert done.returncode == 0, args
    rows = [json.loads(line) for line in (inputs / "rs.jsonl").read_text().splitlines()]
    assert rows and all(0.0 <= r["embedding_cosine"] <= 1.0 for r in rows)


def test_code_refuses_a_completion_holding_one_in_one_line(inputs: Path) -> None:
    done = _assay("code", "--problems", str(DATA / "code" / "problems.jsonl"), "--samples",
                  "code_samples.jsonl", "--allow-code-execution", cwd=inputs)  # fmt: skip
    _clean(done)
    assert done.returncode == 3
    assert done.stderr.startswith("error: code_samples.jsonl:1: field 'completion': holds a "
                                  "lone surrogate ('\\ud800' at character 3")  # fmt: skip


def test_judge_reads_it_without_a_traceback(inputs: Path) -> None:
    # No judge is reachable (port 9 on loopback): every item fails for one transport
    # reason (exit 4, the report written); offline, the empty ledger misses in one line.
    _inject(DATA / "judge" / "answers.jsonl", inputs / "answers.jsonl", ("answer", "question"))
    common = ["judge", "--items", "answers.jsonl", "--rubric", str(DATA / "judge" / "rubric.txt"),
              "--judge-cache", "cache", "--judge-model", "m", "--judge-url",
              "http://127.0.0.1:9"]  # fmt: skip
    done = _assay(*common, "--output", "judged.json", "--judge-retries", "0", cwd=inputs)
    assert "Traceback" not in done.stderr and done.returncode == 4, done.stderr
    assert done.stderr.splitlines()[-1].startswith("error: the judge: every one of the 12 items")
    assert len(json.loads((inputs / "judged.json").read_text())["items"]) == 12
    done = _assay(*common, "--output", "offline.json", "--judge-offline", cwd=inputs)
    assert "Traceback" not in done.stderr and done.returncode == 4, done.stderr
    assert "12 replayed, 0 fetched" in done.stderr  # the recorded failures, replayed
    fresh = [*common[:5], "--judge-cache", "empty", *common[7:]]
    done = _assay(*fresh, "--output", "offline.json", "--judge-offline", cwd=inputs)
    _clean(done)
    assert done.returncode == 1 and "has no verdict for item" in done.stderr


def test_check_names_a_system_holding_one(inputs: Path) -> None:
    done = _assay("demo", "--out", "release", cwd=inputs)
    assert done.returncode == 0, done.stderr
    scores = inputs / "release" / "results" / "scores.jsonl"
    rows = [json.loads(line) for line in scores.read_text().splitlines()]
    rows[0]["system"] = "atlas\ud800-7b"
    scores.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="ascii")
    done = _assay("check", "release", cwd=inputs)
    assert "Traceback" not in done.stderr and done.returncode == 1, done.stderr
    assert "no summary for system 'atlas\\ud800-7b'" in done.stdout + done.stderr

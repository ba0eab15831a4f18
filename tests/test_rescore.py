"""`assay rescore` on logs written by the real harnesses (lm-eval, inspect_ai).

The logs are made once per module by the tools themselves (tests/harness_logs/):
lm-eval's own CLI with ``--log_samples`` on a local task, inspect_ai's ``eval()``
with its mock model, in both log formats. The reference pairs are extracted with
the tools' own readers (inspect_ai's ``read_eval_log``) or from the documented
fields with plain ``json`` (lm-eval), and scored directly with ``assay.score_corpus``.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import assay
from assay import rescore
from assay.cli.main import cli

HERE = Path(__file__).resolve().parent / "harness_logs"
METRICS = ["f1", "exact_match", "rouge_l", "anls"]


GENERATORS = (("make_lm_eval_logs.py", "lm", "lm_eval"), ("make_inspect_logs.py", "inspect",
                                                            "inspect_ai"))  # fmt: skip


def _generate(out: Path) -> None:
    """Run both generators (in parallel: most of their time is importing the tools)."""
    env = {**os.environ, "HF_HOME": str(out / "hf"), "HF_DATASETS_OFFLINE": "1",
           "HF_HUB_OFFLINE": "1"}  # fmt: skip
    runs = [
        subprocess.Popen(
            [sys.executable, str(HERE / script), str(out / name)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )  # fmt: skip
        for script, name, _ in GENERATORS
    ]
    for run in runs:
        output, _ = run.communicate(timeout=900)
        assert run.returncode == 0, output[-3000:]


@pytest.fixture(scope="module")
def harness_logs(request: pytest.FixtureRequest) -> dict[str, Path]:
    """The logs, made by the tools once per generator script and tool version.

    They are kept in pytest's cache under a key hashing the generator scripts and
    the installed tool versions, so a change to either makes them again.
    """
    key = hashlib.sha256()
    for script, _, package in GENERATORS:
        key.update((HERE / script).read_bytes() + importlib.metadata.version(package).encode())
    out = Path(request.config.cache.mkdir(f"harness-logs-{key.hexdigest()[:16]}"))
    if not (out / "done").is_file():
        for name in ("lm", "inspect", "hf"):
            shutil.rmtree(out / name, ignore_errors=True)
        _generate(out)
        (out / "done").write_text("generated\n", encoding="utf-8")
    (samples,) = (out / "lm" / "results").rglob("samples_assay_qa_*.jsonl")
    (results,) = (out / "lm" / "results").rglob("results_*.json")
    (choices,) = (out / "lm" / "mc").rglob("samples_assay_mc_*.jsonl")
    (json_log,) = (out / "inspect" / "json").glob("*.json")
    (eval_log,) = (out / "inspect" / "eval").glob("*.eval")
    return {"samples": samples, "results": results, "lm_folder": out / "lm" / "results",
            "choices": choices,
            "json": json_log, "eval": eval_log, "root": out}  # fmt: skip


def _lm_eval_pairs(samples: Path) -> dict[str, list[dict[str, Any]]]:
    """The documented SampleResult fields, read with plain json, by filter."""
    by_filter: dict[str, list[dict[str, Any]]] = {}
    for line in samples.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        by_filter.setdefault(row["filter"], []).append(row)
    return by_filter


def _values(result: Any, log: int, metric: str) -> list[float]:
    rows = [r for r in result.per_item_rows() if r["log"] == log and r["status"] == "scored"]
    return [r[metric] for r in rows]


def test_lm_eval_samples_rescore_as_their_pairs_scored_directly(harness_logs: dict[str, Path]):
    result = rescore(harness_logs["samples"], METRICS)
    expected = _lm_eval_pairs(harness_logs["samples"])
    assert [r.log.filter for r in result.logs] == list(expected) == ["whole", "first-word"]
    for index, rows in enumerate(expected.values()):
        predictions = [row["filtered_resps"][0] for row in rows]
        targets = [[row["target"]] for row in rows]
        for metric in METRICS:
            direct = assay.score_corpus(metric, predictions, targets)
            assert _values(result, index, metric) == list(direct.values)
            assert result.logs[index].metrics[METRICS.index(metric)].value == direct.value
        # lm-eval's own per-sample exact_match (no normalisation) agrees on these texts
        assert _values(result, index, "exact_match") == [row["exact_match"] for row in rows]
        assert [r["id"] for r in result.per_item_rows() if r["log"] == index] == [
            row["doc_id"] for row in rows
        ]


def test_lm_eval_multiple_choice_scores_the_chosen_option_against_the_gold_one(
    harness_logs: dict[str, Path],
):
    rows = [json.loads(x) for x in harness_logs["choices"].read_text("utf-8").splitlines()]
    result = rescore(harness_logs["choices"], ["exact_match", "f1"])
    (log,) = result.logs
    source = log.to_dict()["source"]
    assert (source["task"], source["task_version"]) == ("assay_mc", "2.0")
    assert source["prediction_from"] == "arguments[argmax(filtered_resps)]"
    # the gold option is the document's own choice at its label
    assert [s.targets for s in log.log.samples] == [
        (row["doc"]["choices"][row["doc"]["label"]],) for row in rows
    ]
    # exact match of chosen vs gold option is lm-eval's own per-sample acc (ties: first)
    assert _values(result, 0, "exact_match") == [row["acc"] for row in rows] == [1, 0, 1, 0]
    assert log.metrics[0].value == pytest.approx(
        json.loads(next(harness_logs["choices"].parent.glob("results_*.json")).read_text(
            "utf-8"))["results"]["assay_mc"]["acc,none"], abs=1e-12)  # fmt: skip
    chosen = [s.prediction for s in log.log.samples]
    assert chosen == ["Paris", "6", "Mars", "trout"]


def test_lm_eval_provenance_names_harness_version_task_and_model(harness_logs: dict[str, Path]):
    (log,) = rescore(harness_logs["samples"], ["f1"], filter_name="whole").logs
    source = log.to_dict()["source"]
    assert source["harness"] == "lm-evaluation-harness"
    assert source["harness_version"] == importlib.metadata.version("lm_eval")
    assert (source["task"], source["task_version"], source["model"]) == ("assay_qa", "1.0",
                                                                          "table-v1")  # fmt: skip
    assert source["filter"] == "whole" and source["prediction_from"] == "filtered_resps[0]"
    assert source["extra"]["results_file"] == harness_logs["results"].name
    assert source["signature"] == (
        f"harness:lm-evaluation-harness@{importlib.metadata.version('lm_eval')}|task:assay_qa@1.0"
        "|model:table-v1|filter:whole"
        "|pred:filtered_resps[0]"
    )


def test_lm_eval_results_file_folder_and_samples_file_give_one_result(
    harness_logs: dict[str, Path],
):
    documents = [
        rescore(harness_logs[key], ["f1", "rouge_l"]).to_dict()
        for key in ("samples", "results", "lm_folder")
    ]
    assert documents[0] == documents[1] == documents[2]
    assert len(documents[0]["logs"]) == 2


@pytest.mark.parametrize("kind", ["json", "eval"])
def test_inspect_logs_rescore_as_their_pairs_scored_directly(
    harness_logs: dict[str, Path], kind: str
):
    from inspect_ai.log import read_eval_log

    log = read_eval_log(str(harness_logs[kind]))
    assert log.samples is not None
    ok = [s for s in log.samples if s.error is None]
    order = {sid: i for i, sid in enumerate(log.eval.dataset.sample_ids or [])}
    ok.sort(key=lambda s: (order[s.id], s.epoch))
    predictions = [s.output.completion for s in ok]
    targets = [[s.target] if isinstance(s.target, str) else list(s.target) for s in ok]
    result = rescore(harness_logs[kind], METRICS)
    for metric in METRICS:
        direct = assay.score_corpus(metric, predictions, targets)
        assert _values(result, 0, metric) == list(direct.values)
    rows = [r for r in result.per_item_rows() if r["status"] == "scored"]
    assert [(r["id"], r["epoch"]) for r in rows] == [(s.id, s.epoch) for s in ok]
    (rescored,) = result.logs
    errors = [s for s in log.samples if s.error is not None]
    assert rescored.accounting() == {"error": len(errors), "scored": len(ok),
                                     "total": len(log.samples)} == {"error": 2, "scored": 8,
                                                                    "total": 10}  # fmt: skip
    source = rescored.log.provenance()
    assert source["harness"] == "inspect_ai"
    assert source["harness_version"] == importlib.metadata.version("inspect_ai")
    assert (source["task"], source["task_version"]) == (log.eval.task, str(log.eval.task_version))
    assert source["model"] == log.eval.model == "mockllm/model"
    assert source["format_version"] == log.version
    assert source["log_format"] == f"inspect_ai {kind}"


def test_inspect_scorer_answers_are_scored_when_asked(harness_logs: dict[str, Path]):
    from inspect_ai.log import read_eval_log

    log = read_eval_log(str(harness_logs["eval"]))
    assert log.samples is not None
    ok = [s for s in log.samples if s.error is None]
    order = {sid: i for i, sid in enumerate(log.eval.dataset.sample_ids or [])}
    ok.sort(key=lambda s: (order[s.id], s.epoch))
    answers = [s.scores["includes"].answer for s in ok]  # type: ignore[index]
    assert answers != [s.output.completion for s in ok]  # includes() lowercases its answer
    targets = [[s.target] if isinstance(s.target, str) else list(s.target) for s in ok]
    result = rescore(harness_logs["eval"], ["f1"], prediction_from="scorer:includes")
    assert _values(result, 0, "f1") == list(assay.score_corpus("f1", answers, targets).values)
    assert result.logs[0].log.prediction_from == "scores.includes.answer"


def test_both_inspect_formats_of_one_task_score_the_same(harness_logs: dict[str, Path]):
    a, b = (rescore(harness_logs[k], METRICS, profile="assay") for k in ("json", "eval"))
    strip = [{k: v for k, v in r.items() if k != "log"} for r in a.per_item_rows()]
    assert strip == [{k: v for k, v in r.items() if k != "log"} for r in b.per_item_rows()]
    assert [m.to_dict() for m in a.logs[0].metrics] == [m.to_dict() for m in b.logs[0].metrics]


def test_a_profile_scores_each_item_against_its_best_target(harness_logs: dict[str, Path]):
    from assay.evaluation.profiles import get_profile
    from assay.io.gold import GoldQuestion

    profile = get_profile("assay")
    result = rescore(harness_logs["json"], [], profile="assay")
    names = [m.name for m in result.logs[0].metrics]
    assert names == ["assay.accuracy", "assay.token_f1", "assay.anls"]
    rows = [r for r in result.per_item_rows() if r["status"] == "scored"]
    q2 = next(r for r in rows if r["id"] == "q2")  # "paris" vs ["Paris", "Paris, France"]
    gold = GoldQuestion("q2", "Paris", "Paris", "Str", "", "", "", "", "", "", (), False, (),
                        "", None)  # fmt: skip
    best = profile.score(profile.prepare(gold), "paris", False)
    assert (q2["assay.accuracy"], q2["assay.token_f1"], q2["assay.anls"]) == (
        best.accuracy, best.token_f1, best.anls) == (1.0, 1.0, 1.0)  # fmt: skip


def test_cli_writes_output_per_item_and_json(harness_logs: dict[str, Path], tmp_path: Path):
    out, rows = tmp_path / "rescore.json", tmp_path / "items.jsonl"
    args = ["rescore", str(harness_logs["eval"]), str(harness_logs["samples"]), "-m", "f1,rouge_l",
            "-m", "anls", "--output", str(out), "--per-item", str(rows)]  # fmt: skip
    done = CliRunner().invoke(cli, [*args, "--json"])
    assert done.exit_code == 0, done.output
    document = json.loads(out.read_text(encoding="utf-8"))
    assert json.loads(done.stdout) == document and document["kind"] == "assay.rescore"
    library = rescore([harness_logs["eval"], harness_logs["samples"]], ["f1", "rouge_l", "anls"])
    assert document == json.loads(json.dumps(library.to_dict()))
    written = [json.loads(line) for line in rows.read_text(encoding="utf-8").splitlines()]
    assert written == json.loads(json.dumps(library.per_item_rows()))
    assert [r["status"] for r in written].count("error") == 2
    assert all(r["f1"] is None for r in written if r["status"] == "error")
    again = CliRunner().invoke(cli, [*args])  # the same run again: byte-identical files
    version = importlib.metadata.version("inspect_ai")
    assert again.exit_code == 0 and f"inspect_ai {version} · task assay_mock_qa" in again.stdout
    assert out.read_text(encoding="utf-8") == json.dumps(document, indent=2, sort_keys=True,
                                                         ensure_ascii=False) + "\n"  # fmt: skip


def _invoke_error(*args: str) -> str:
    done = CliRunner().invoke(cli, ["rescore", *args])
    assert done.exit_code != 0 and "Traceback" not in done.output
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.output
    return lines[0]


def test_bad_lm_eval_lines_name_file_line_and_field(harness_logs: dict[str, Path],
                                                    tmp_path: Path):  # fmt: skip
    lines = harness_logs["samples"].read_text(encoding="utf-8").splitlines()
    broken = json.loads(lines[2])
    del broken["target"]
    bad = tmp_path / harness_logs["samples"].name
    bad.write_text("\n".join([lines[0], lines[1], json.dumps(broken)]) + "\n", encoding="utf-8")
    assert _invoke_error(str(bad), "-m", "f1").startswith(f"error: {bad}:3: field 'target':")
    bad.write_text(lines[0] + "\n" + lines[1][:40] + "\n", encoding="utf-8")
    assert _invoke_error(str(bad), "-m", "f1").startswith(f"error: {bad}:2: invalid JSON")
    choice = json.loads(lines[0])  # log-likelihood pairs without the choices' requests
    choice["filtered_resps"] = [["-1.5", "False"], ["-0.25", "True"]]
    bad.write_text(json.dumps(choice) + "\n", encoding="utf-8")
    message = _invoke_error(str(bad), "-m", "f1")
    assert message.startswith(f"error: {bad}:1: field 'arguments': a multiple-choice sample "
                              "needs one [context, continuation] request per log-likelihood (2)")
    choice["filtered_resps"] = [["-1.5", "False"]]  # a loglikelihood task: no choice
    bad.write_text(json.dumps(choice) + "\n", encoding="utf-8")
    message = _invoke_error(str(bad), "-m", "f1")
    assert message.startswith(f"error: {bad}:1: field 'filtered_resps': holds one log-likelihood")
    assert _invoke_error("-", "-", "-m", "f1") == (
        "error: <stdin>: - (standard input) is given twice; give it once"
    )
    message = _invoke_error(str(harness_logs["samples"]), "-m", "f1", "--filter", "strict")
    assert "no samples under filter 'strict'" in message and "'whole', 'first-word'" in message


def test_bad_inspect_logs_name_the_file_and_the_member(harness_logs: dict[str, Path],
                                                       tmp_path: Path):  # fmt: skip
    cut = tmp_path / "cut.eval"
    cut.write_bytes(harness_logs["eval"].read_bytes()[:-200])
    assert _invoke_error(str(cut), "-m", "f1").startswith(f"error: {cut}: not a readable zip")
    document = json.loads(harness_logs["json"].read_text(encoding="utf-8"))
    document["samples"][1]["target"] = 7
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(document), encoding="utf-8")
    assert _invoke_error(str(bad), "-m", "f1").startswith(
        f"error: {bad} (samples[1]): field 'target': expected str or list, found int"
    )
    document["version"] = 9
    bad.write_text(json.dumps(document), encoding="utf-8")
    assert "log format version 9" in _invoke_error(str(bad), "-m", "f1")
    other = tmp_path / "other.json"
    other.write_text('{"hello": 1}', encoding="utf-8")
    assert "not a harness log" in _invoke_error(str(other), "-m", "f1")
    message = _invoke_error(str(harness_logs["eval"]), "-m", "f1", "--prediction-from",
                            "scorer:nope")  # fmt: skip
    assert "no scorer 'nope'" in message and "'match', 'includes'" in message


def test_a_deflate_eval_archive_reads_as_the_zstandard_one(harness_logs: dict[str, Path],
                                                           tmp_path: Path):  # fmt: skip
    """Older inspect_ai versions wrote .eval members with deflate: the same members repacked."""
    from inspect_ai.log import read_eval_log

    log = read_eval_log(str(harness_logs["eval"]))  # inspect_ai reads its own zstd members
    with zipfile.ZipFile(harness_logs["eval"]) as original:
        methods = {info.compress_type for info in original.infolist()}
    assert methods == {93}
    deflated = tmp_path / "deflate.eval"
    from inspect_ai.log import write_eval_log

    write_eval_log(log, str(tmp_path / "rewritten.eval"))
    with (
        zipfile.ZipFile(tmp_path / "rewritten.eval") as source,
        zipfile.ZipFile(deflated, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for info in source.infolist():
            target.writestr(info.filename, source.read(info))  # zipfile-zstd reads method 93
    a = rescore(harness_logs["eval"], ["f1"]).per_item_rows()
    assert rescore(deflated, ["f1"]).per_item_rows() == a


def test_metric_entries_and_intervals_are_assay_scores_on_the_extracted_pairs(
    harness_logs: dict[str, Path], tmp_path: Path
):
    """`rescore --json` entries equal `assay score --json` on the pairs written out."""
    from inspect_ai.log import read_eval_log

    log = read_eval_log(str(harness_logs["json"]))
    assert log.samples is not None
    order = {sid: i for i, sid in enumerate(log.eval.dataset.sample_ids or [])}
    ok = sorted((s for s in log.samples if s.error is None), key=lambda s: (order[s.id], s.epoch))
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("".join(json.dumps({"id": f"{s.id}#{s.epoch}", "prediction":
                     s.output.completion, "targets": [s.target] if isinstance(s.target, str)
                     else list(s.target)}) + "\n" for s in ok), encoding="utf-8")  # fmt: skip
    common = ["-m", "f1,corpus_bleu", "--json", "--confidence", "0.9", "--seed", "7"]
    scored = CliRunner().invoke(cli, ["score", "--file", str(pairs), *common])
    rescored = CliRunner().invoke(cli, ["rescore", str(harness_logs["json"]), *common])
    assert scored.exit_code == 0 and rescored.exit_code == 0, scored.output + rescored.output
    (entry,) = json.loads(rescored.stdout)["logs"]
    assert entry["metrics"] == json.loads(scored.stdout)["metrics"]
    assert entry["metrics"][0]["interval"]["seed"] == 7


def test_rescore_result_repr_is_a_few_lines(harness_logs: dict[str, Path]) -> None:
    result = rescore(harness_logs["samples"], ["f1"])
    text = repr(result)
    logs = result.to_dict()["logs"]
    assert text.splitlines()[0] == f"RescoreResult: {len(logs)} log(s)"
    for log in logs:
        counts = log["accounting"]
        value = log["metrics"][0]["value"]
        assert f"{counts['scored']}/{counts['total']} scored; f1={value:.6f}" in text
    assert " at 0x" not in text and len(text.splitlines()) == 1 + len(logs)

"""`assay rescore -`: a harness log on standard input, recognised by its content.

The logs are the ones the real tools wrote (the ``harness_logs`` fixture of
tests/test_rescore.py). Each is piped to a real ``assay`` process and must give the
result of the same file given by name, except where the name carries facts (the
path; an lm-eval task and its results file); the lm-eval values are also checked
against the documented sample fields scored directly.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import assay
from input_helpers import assay as run
from test_rescore import harness_logs  # noqa: F401 - the module-scoped fixture

METRICS = "f1,exact_match,rouge_l"


def rescored(*args: str | Path, stdin: bytes | None = None) -> dict[str, Any]:
    done = run("rescore", *args, "-m", METRICS, "--json", stdin=stdin)
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def without_path(document: dict[str, Any]) -> list[Any]:
    logs = []
    for log in document["logs"]:
        source = {k: v for k, v in log["source"].items() if k != "path"}
        logs.append({**log, "source": source})
    return logs


def test_inspect_logs_in_both_formats_on_stdin(harness_logs: dict[str, Path]) -> None:  # noqa: F811
    for kind in ("json", "eval"):
        by_name = rescored(harness_logs[kind])
        piped = rescored("-", stdin=harness_logs[kind].read_bytes())
        assert [log["source"]["path"] for log in piped["logs"]] == ["<stdin>"]
        assert without_path(piped) == without_path(by_name), kind
        assert piped["logs"][0]["source"]["log_format"] == f"inspect_ai {kind}"
        assert piped["logs"][0]["accounting"] == {"error": 2, "scored": 8, "total": 10}


def test_lm_eval_samples_on_stdin_plain_or_gzip(harness_logs: dict[str, Path]) -> None:  # noqa: F811
    samples = harness_logs["samples"]
    by_name = rescored(samples)
    lines = [json.loads(x) for x in samples.read_text("utf-8").splitlines() if x.strip()]
    for data in (samples.read_bytes(), gzip.compress(samples.read_bytes())):
        piped = rescored("-", stdin=data)
        assert [log["source"]["filter"] for log in piped["logs"]] == ["whole", "first-word"]
        for got, named in zip(piped["logs"], by_name["logs"], strict=True):
            assert got["metrics"] == named["metrics"] and got["accounting"] == named["accounting"]
            source = got["source"]  # the name gave the task and the results file beside it
            assert (source["task"], source["path"], source["harness"]) == (
                "unknown", "<stdin>", "lm-evaluation-harness")  # fmt: skip
            assert source["extra"]["results_file"] is None
            rows = [r for r in lines if r["filter"] == source["filter"]]
            direct = assay.score_corpus(
                "f1", [r["filtered_resps"][0] for r in rows], [[r["target"]] for r in rows]
            )
            assert got["metrics"][0]["value"] == direct.value


def test_per_item_rows_from_stdin(harness_logs: dict[str, Path], tmp_path: Path) -> None:  # noqa: F811
    out = tmp_path / "items.jsonl"
    done = run("rescore", "-", "-m", "f1", "--per-item", out,
               stdin=harness_logs["eval"].read_bytes())  # fmt: skip
    assert done.returncode == 0, done.stderr
    piped = [json.loads(x) for x in out.read_text("utf-8").splitlines()]
    library = assay.rescore(harness_logs["eval"], ["f1"]).per_item_rows()
    assert piped == json.loads(json.dumps(library))
    assert len(piped) == 10


def one_error(stdin: bytes, *args: str) -> str:
    done = run("rescore", "-", *args, "-m", "f1", stdin=stdin)
    lines = done.stderr.decode("utf-8").splitlines()
    assert done.returncode != 0 and len(lines) == 1 and lines[0].startswith("error: "), lines
    return lines[0]


def test_what_stdin_cannot_be_is_one_line(harness_logs: dict[str, Path]) -> None:  # noqa: F811
    assert one_error(b"") == "error: <stdin>: is empty; pipe a harness log into assay rescore -"
    assert one_error(b'{"hello": 1}').startswith("error: <stdin>: not a harness log")
    assert one_error(b"id,prediction\n1,a\n").startswith("error: <stdin>:1: invalid JSON")
    message = one_error(harness_logs["results"].read_bytes())
    assert message.startswith("error: <stdin>: is an lm-eval results file") and "path" in message
    cut = harness_logs["eval"].read_bytes()[:-200]
    assert one_error(cut).startswith("error: <stdin>: not a readable zip archive")
    lines = harness_logs["samples"].read_text("utf-8").splitlines()
    broken = json.loads(lines[1])
    del broken["doc_id"]
    message = one_error("\n".join([lines[0], json.dumps(broken)]).encode())
    assert message.startswith("error: <stdin>:2: not an lm-eval sample")
    message = one_error(harness_logs["samples"].read_bytes(), "--filter", "strict")
    assert message.startswith("error: <stdin>: field 'filter': no samples under filter 'strict'")

"""`assay judge`, `judge-calibrate` and `structured --judge-url` as a user runs them.

Standard output carries the document alone with ``--output -``; no output replaces
the ledger or an input; ``-`` and compressed inputs; one-line errors for bad
inputs; exit 4 when every judged item failed for one transport reason.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

from judge_server import JudgeServer

DATA = Path(__file__).resolve().parents[1] / "src" / "assay" / "data" / "judge"
RUBRIC = DATA / "rubric.txt"
ANSWERS = DATA / "answers.jsonl"
HUMAN = DATA / "human_labels.jsonl"


def assay(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "assay", *args], capture_output=True,
                          input=stdin, timeout=300)  # fmt: skip
    return subprocess.CompletedProcess(done.args, done.returncode,
                                       done.stdout.decode("utf-8", "backslashreplace"),
                                       done.stderr.decode("utf-8", "backslashreplace"))  # fmt: skip


def judge_args(url: str, cache: Path, *extra: str) -> list[str]:
    return ["judge", "--items", str(ANSWERS), "--rubric", str(RUBRIC), "--judge-url", url,
            "--judge-model", "m", "--judge-cache", str(cache), *extra]  # fmt: skip


def one_error_line(done: subprocess.CompletedProcess[str], code: int, *parts: str) -> None:
    assert done.returncode == code, (done.returncode, done.stderr)
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr
    for part in parts:
        assert part in done.stderr, done.stderr


def test_judge_output_dash_is_the_report_alone(tmp_path: Path) -> None:
    with JudgeServer() as server:
        report = str(tmp_path / "r.json")
        to_file = assay(*judge_args(server.url, tmp_path / "c", "--output", report))
        to_stdout = assay(*judge_args(server.url, tmp_path / "c", "--output", "-"))
    assert to_file.returncode == 0 and to_stdout.returncode == 0, to_stdout.stderr
    assert to_stdout.stdout == (tmp_path / "r.json").read_text()
    assert "judge: 0.583" in to_stdout.stderr and "wrote" not in to_stdout.stdout
    assert "judge: 0.583" in to_file.stdout


def test_calibrate_output_dash_is_the_json_alone(tmp_path: Path) -> None:
    to_file = assay("judge-calibrate", "--human", str(HUMAN), "--output", str(tmp_path / "c.json"))
    assert to_file.returncode == 0, to_file.stderr
    to_stdout = assay("judge-calibrate", "--human", str(HUMAN), "--output", "-")
    assert to_stdout.returncode == 0, to_stdout.stderr
    assert to_stdout.stdout == (tmp_path / "c.json").read_text()
    assert "Cohen's kappa: 0.636 (n=12)" in to_stdout.stderr


def test_output_onto_the_ledger_is_refused(tmp_path: Path) -> None:
    cache = tmp_path / "c"
    with JudgeServer() as server:
        fresh = assay(*judge_args(server.url, cache, "--output", str(cache / "ledger.jsonl")))
        one_error_line(fresh, 3, "ledger.jsonl", "--judge-cache")
        assert not (cache / "ledger.jsonl").exists()
        done = assay(*judge_args(server.url, cache, "--output", str(tmp_path / "r.json")))
        assert done.returncode == 0, done.stderr
        before = (cache / "ledger.jsonl").read_bytes()
        again = assay(*judge_args(server.url, cache, "--output", str(cache / "ledger.jsonl")))
        one_error_line(again, 3, "--judge-cache")
        assert (cache / "ledger.jsonl").read_bytes() == before
        base = _structured(tmp_path)
        structured = assay(*base, "--judge-url", server.url, "--judge-model", "m",
                           "--judge-cache", str(cache), "--output", str(tmp_path / "s.json"),
                           "--per-item", str(cache / "ledger.jsonl"))  # fmt: skip
        one_error_line(structured, 3, "--judge-cache")
    assert (cache / "ledger.jsonl").read_bytes() == before


def test_rubric_from_stdin_and_compressed(tmp_path: Path) -> None:
    (tmp_path / "rubric.txt.gz").write_bytes(gzip.compress(RUBRIC.read_bytes()))
    with JudgeServer() as server:
        plain = assay(*judge_args(server.url, tmp_path / "c", "--output", str(tmp_path / "a.json")))
        args = judge_args(server.url, tmp_path / "c", "--output", str(tmp_path / "b.json"))
        args[args.index(str(RUBRIC))] = "-"
        piped = assay(*args, stdin=RUBRIC.read_bytes())
        args[args.index("-")] = str(tmp_path / "rubric.txt.gz")
        args[-1] = str(tmp_path / "g.json")
        packed = assay(*args)
        assert len(server.requests) == 12  # the same rubric: every vote replayed
    for done in (plain, piped, packed):
        assert done.returncode == 0, done.stderr
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "g.json").read_bytes()


def test_rubric_not_utf8_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "rubric.txt").write_bytes(b"Pass when \xff\xfe right.\n")
    args = judge_args("http://127.0.0.1:9/v1", tmp_path / "c", "--output", str(tmp_path / "r.json"))
    args[args.index(str(RUBRIC))] = str(tmp_path / "rubric.txt")
    one_error_line(assay(*args), 3, "rubric.txt", "not UTF-8", "--rubric")


def _judged(tmp_path: Path) -> Path:
    with JudgeServer() as server:
        done = assay(*judge_args(server.url, tmp_path / "c", "--output", str(tmp_path / "r.json")))
        assert done.returncode == 0, done.stderr
    return tmp_path / "r.json"


def test_calibrate_judged_from_stdin_and_compressed(tmp_path: Path) -> None:
    report = _judged(tmp_path)
    (tmp_path / "r.json.gz").write_bytes(gzip.compress(report.read_bytes()))
    plain = assay("judge-calibrate", "--human", str(HUMAN), "--judged", str(report))
    piped = assay("judge-calibrate", "--human", str(HUMAN), "--judged", "-",
                  stdin=report.read_bytes())  # fmt: skip
    packed = assay("judge-calibrate", "--human", str(HUMAN), "--judged",
                   str(tmp_path / "r.json.gz"))  # fmt: skip
    for done in (plain, piped, packed):
        assert done.returncode == 0, done.stderr
        assert "Cohen's kappa: 0.636 (n=12)" in done.stdout
    both = assay("judge-calibrate", "--human", "-", "--judged", "-", stdin=b"")
    assert both.returncode == 2 and "both read standard input" in both.stderr


@pytest.mark.parametrize("case", ["not_utf8", "deep", "huge_int"])
def test_calibrate_bad_judged_is_one_line(tmp_path: Path, case: str) -> None:
    report = json.loads(_judged(tmp_path).read_text())
    text = json.dumps(report)
    bad = {
        "not_utf8": text.encode().replace(b'"kind"', b'"ki\xffnd"', 1),
        "deep": text.replace('"report_version": 1', '"report_version": ' + "[" * 100_000
                             + "]" * 100_000).encode(),
        "huge_int": text.replace('"report_version": 1', '"report_version": ' + "9" * 5000).encode(),
    }[case]  # fmt: skip
    (tmp_path / "bad.json").write_bytes(bad)
    done = assay("judge-calibrate", "--human", str(HUMAN), "--judged", str(tmp_path / "bad.json"))
    one_error_line(done, 3, "bad.json")


def test_calibrate_label_with_a_lone_surrogate_prints(tmp_path: Path) -> None:
    rows = [json.loads(x) for x in HUMAN.read_text().splitlines()]
    rows[0]["label"] = "pa\ud800ss"
    (tmp_path / "h.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    done = assay("judge-calibrate", "--human", str(tmp_path / "h.jsonl"))
    assert done.returncode == 0, done.stderr
    assert "pa\\ud800ss" in done.stdout and "Traceback" not in done.stderr


def test_calibrate_no_id_in_common_is_an_error(tmp_path: Path) -> None:
    report = _judged(tmp_path)
    human = tmp_path / "h.jsonl"
    human.write_text('{"id": "zz1", "label": "pass"}\n{"id": "zz2", "label": "fail"}\n')
    done = assay("judge-calibrate", "--human", str(human), "--judged", str(report))
    one_error_line(done, 3, "r.json", "no id in common", "'zz1'")
    assert "kappa" not in done.stdout


def test_every_item_unreachable_exits_4(tmp_path: Path) -> None:
    server = JudgeServer().__enter__()
    dead = server.url
    server.stop()
    done = assay(*judge_args(dead, tmp_path / "c", "--judge-retries", "0",
                             "--output", str(tmp_path / "r.json")))  # fmt: skip
    assert done.returncode == 4, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("error: the judge: every one of the 12 items failed with "
                           "connection_error: ConnectError")  # fmt: skip
    assert json.loads((tmp_path / "r.json").read_text())["accounting"]["judge_failed"] == 12
    with JudgeServer() as server:
        server.script("ANSWER", *[(404, {}, '{"error": "no such route"}')] * 30)
        bad = assay(*judge_args(server.url, tmp_path / "d", "--output", str(tmp_path / "s.json")))
    assert bad.returncode == 4 and "failed with http_404" in bad.stderr, bad.stderr


def test_some_items_judged_exits_0(tmp_path: Path) -> None:
    with JudgeServer() as server:
        server.script("ANSWER", *[(404, {}, "{}")] * 11)
        done = assay(*judge_args(server.url, tmp_path / "c", "--output", str(tmp_path / "r.json")))
    assert done.returncode == 0, done.stderr


def _structured(tmp_path: Path, claims: list[str] | None = None) -> list[str]:
    (tmp_path / "schema.json").write_text('{"type": "object"}')
    reference = {"fields": {}, "statements": ["the lamp ships with a bulb"],
                 "contradictions": ["the lamp is cordless"]}  # fmt: skip
    row = {"id": "p1", "response": "{}", "reference": reference,
           "claims": claims or ["the lamp ships with a bulb", "the lamp is cordless"]}  # fmt: skip
    (tmp_path / "items.jsonl").write_text(json.dumps(row) + "\n")
    return ["structured", "--items", str(tmp_path / "items.jsonl"), "--schema",
            str(tmp_path / "schema.json")]  # fmt: skip


def test_structured_every_claim_unreachable_exits_4(tmp_path: Path) -> None:
    server = JudgeServer().__enter__()
    dead = server.url
    server.stop()
    done = assay(*_structured(tmp_path), "--judge-url", dead, "--judge-model", "m",
                 "--judge-retries", "0", "--judge-cache", str(tmp_path / "c"),
                 "--output", str(tmp_path / "s.json"))  # fmt: skip
    assert done.returncode == 4, done.stderr
    assert "every one of the 2 claims judged failed with connection_error" in done.stderr
    assert json.loads((tmp_path / "s.json").read_text())["llm_judge"]["claims_judge_failed"] == 2


def test_structured_counts_every_judged_claim(tmp_path: Path) -> None:
    claims = ["the lamp ships with a bulb", "a lamp \ud800 claim", "the lamp is cordless"]
    with JudgeServer() as server:
        done = assay(*_structured(tmp_path, claims), "--judge-url", server.url,
                     "--judge-model", "m", "--judge-cache", str(tmp_path / "c"),
                     "--output", str(tmp_path / "s.json"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = json.loads((tmp_path / "s.json").read_text())["llm_judge"]
    assert summary["claims_judged"] == 3 and len(summary["claims"]) == 3


def test_key_variable_not_set_is_one_line_before_any_request(tmp_path: Path) -> None:
    with JudgeServer() as server:
        args = judge_args(server.url, tmp_path / "c", "--judge-key-env", "ASSAY_TEST_UNSET_KEY")
        done = assay(*args, "--output", str(tmp_path / "r.json"))
        assert server.requests == []
    one_error_line(done, 2, "--judge-key-env ASSAY_TEST_UNSET_KEY")


@pytest.mark.parametrize("kind", ["fifo", "folder", "broken-link"])
def test_a_ledger_that_is_not_a_regular_file_is_one_line(tmp_path: Path, kind: str) -> None:
    # a FIFO ledger blocked the first append for ever (found by bench/fuzz.py)
    import os

    cache = tmp_path / "c"
    cache.mkdir()
    ledger = cache / "ledger.jsonl"
    if kind == "fifo":
        os.mkfifo(ledger)
    elif kind == "folder":
        ledger.mkdir()
    else:
        ledger.symlink_to(tmp_path / "absent")
    with JudgeServer() as server:
        done = assay(*judge_args(server.url, cache, "--output", str(tmp_path / "r.json")))
    one_error_line(done, 3, "ledger.jsonl", "not a regular file")
    assert not (tmp_path / "r.json").exists()

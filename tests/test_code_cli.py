"""``assay code`` end to end on the bundled set, opt-in, determinism, workers, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.cli_helpers import run

from assay.code import Limits, evaluate
from assay.code.problems import Problem, program_text

DATA = Path(__file__).resolve().parents[1] / "src" / "assay" / "data" / "code"
FAST = ["--timeout", "3", "--cpu-time", "2", "--memory", "1GiB", "--max-output", "4KiB"]


def _benign(tmp_path: Path) -> Path:
    """The bundled samples without the hostile ones (cheap to run twice)."""
    rows = [json.loads(line) for line in (DATA / "samples.jsonl").read_text().splitlines()]
    path = tmp_path / "benign.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows if "hostile" not in r["kind"]))
    return path


def test_program_layout_is_humaneval() -> None:
    with_entry = Problem("t", test="def check(c):\n    pass\n", prompt="def f():\n",
                         entry_point="f")  # fmt: skip
    assert program_text(with_entry, "    return 1\n") == (
        "def f():\n    return 1\n\ndef check(c):\n    pass\n\ncheck(f)"
    )
    without = Problem("t", test="assert f() == 1\n", prompt="ignored")
    assert program_text(without, "def f():\n    return 1\n") == (
        "def f():\n    return 1\n\nassert f() == 1\n"
    )


def test_execution_needs_opt_in(capsys: pytest.CaptureFixture[str]) -> None:
    code = run("code", "--problems", str(DATA / "problems.jsonl"),
               "--samples", str(DATA / "samples.jsonl"))  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2
    assert err == ("error: running untrusted programs needs an explicit opt-in: pass "
                   "allow_execution=True (CLI: --allow-code-execution)\n")  # fmt: skip
    with pytest.raises(ValueError, match="explicit opt-in"):
        evaluate(DATA / "problems.jsonl", DATA / "samples.jsonl")


def test_bundled_set_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report, per_sample = tmp_path / "report.json", tmp_path / "samples_out.jsonl"
    code = run("code", "--problems", str(DATA / "problems.jsonl"), "--samples",
               str(DATA / "samples.jsonl"), "--k", "1,2,3", "--allow-code-execution",
               "--workers", "2", "--output", str(report), "--per-sample", str(per_sample),
               *FAST)  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    document = json.loads(report.read_text())
    counts = document["accounting"]
    # Hand count of the bundled samples (kind field in samples.jsonl).
    assert counts == {"total": 22, "passed": 8, "failed": 6, "crashed": 5, "timeout": 2,
                      "memory": 1, "sandbox_error": 0}  # fmt: skip
    assert document["processes_left_behind"] == 0
    tasks = {t["task_id"]: (t["n"], t["c"]) for t in document["tasks"]}
    assert tasks == {"code/add": (11, 2), "code/is_palindrome": (3, 2),
                     "code/running_max": (4, 2), "code/word_count": (2, 1),
                     "code/sum_digits_js": (2, 1)}  # fmt: skip
    # pass@1 = mean of c/n; pass@3 leaves out the two tasks with n = 2.
    assert document["pass_at_k"]["pass@1"]["value"] == pytest.approx(
        (2 / 11 + 2 / 3 + 2 / 4 + 1 / 2 + 1 / 2) / 5)
    assert document["pass_at_k"]["pass@3"]["k_gt_n"] == ["code/word_count", "code/sum_digits_js"]
    rows = [json.loads(line) for line in per_sample.read_text().splitlines()]
    assert len(rows) == 22 and sum(r["outcome"] == "passed" for r in rows) == 8
    assert "checked: sums to total" in out and "22/22" in out


def test_workers_change_neither_results_nor_order(tmp_path: Path) -> None:
    samples = _benign(tmp_path)
    outputs = []
    for workers in ("1", "3"):
        report, per = tmp_path / f"r{workers}.json", tmp_path / f"s{workers}.jsonl"
        assert run("code", "--problems", str(DATA / "problems.jsonl"), "--samples",
                   str(samples), "--allow-code-execution", "--workers", workers,
                   "--output", str(report), "--per-sample", str(per), *FAST) == 0  # fmt: skip
        outputs.append((report.read_bytes(), per.read_bytes()))
    assert outputs[0] == outputs[1]
    rows = [json.loads(line) for line in outputs[0][1].decode().splitlines()]
    kinds = [json.loads(line)["kind"] for line in samples.read_text().splitlines()]
    expected = {"good": "passed", "wrong": "failed", "syntax error": "crashed", "crash": "crashed"}
    assert [r["outcome"] for r in rows] == [expected[k] for k in kinds]


def test_javascript_row(tmp_path: Path) -> None:
    problems = [json.loads(line) for line in (DATA / "problems.jsonl").read_text().splitlines()]
    (js,) = [p for p in problems if p["language"] == "javascript"]
    report = evaluate([js], [{"task_id": js["task_id"], "completion": "  return 6;\n}\n"},
                             {"task_id": js["task_id"], "completion": "  return n;\n}\n"},
                             {"task_id": js["task_id"], "completion": "  return n.x.y;\n}\n"}],
                      k=(1,), allow_execution=True)  # fmt: skip
    outcomes = [(r["outcome"], r["reason"]) for r in report.per_sample()]
    assert outcomes[0][0] == "failed" and "AssertionError" in str(outcomes[0][1])
    assert outcomes[1][0] == "failed"
    assert outcomes[2][0] == "crashed" and "TypeError" in str(outcomes[2][1])
    # V8 reserves a large code range at start-up: under 512 MiB it cannot start.
    small = evaluate([js], [{"task_id": js["task_id"], "completion": "  return 6;\n}\n"}], k=(1,),
                     allow_execution=True, limits=Limits(address_space_bytes=512 << 20))
    assert small.per_sample()[0]["outcome"] == "memory"


@pytest.mark.parametrize(
    ("problems", "samples", "message"),
    [
        ('{"task_id": "a", "test": "pass"}\n', '{"task_id": "b", "completion": ""}\n',
         "samples.jsonl:1: field 'task_id': task_id 'b' is not in the problems file"),
        ('{"task_id": "a"}\n', '{"task_id": "a", "completion": ""}\n',
         "problems.jsonl:1: field 'test': missing; give the test text"),
        ('{"task_id": "a", "test": "pass", "language": "cobol"}\n',
         '{"task_id": "a", "completion": ""}\n',
         "problems.jsonl:1: field 'language': unknown language 'cobol'"),
        ('{"task_id": "a", "test": "pass"}\n{"task_id": "a", "test": "pass"}\n',
         '{"task_id": "a", "completion": ""}\n',
         "problems.jsonl:2: field 'task_id': duplicate task_id 'a' (first on line 1)"),
        ('{"task_id": "a", "test": "pass"}\n', '{"task_id": "a", "completion": 3}\n',
         "samples.jsonl:1: field 'completion': must be a string, got number"),
    ],
)
def test_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               problems: str, samples: str, message: str) -> None:  # fmt: skip
    (tmp_path / "problems.jsonl").write_text(problems)
    (tmp_path / "samples.jsonl").write_text(samples)
    code = run("code", "--problems", str(tmp_path / "problems.jsonl"), "--samples",
               str(tmp_path / "samples.jsonl"), "--allow-code-execution")  # fmt: skip
    err = capsys.readouterr().err
    assert code == 3
    assert err.startswith("error: ") and err.count("\n") == 1 and message in err


def test_bad_limit_options(capsys: pytest.CaptureFixture[str]) -> None:
    code = run("code", "--problems", str(DATA / "problems.jsonl"), "--samples",
               str(DATA / "samples.jsonl"), "--allow-code-execution", "--memory", "lots")
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error: --memory must be a size like 2GiB")

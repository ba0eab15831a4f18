import json
import shutil
from pathlib import Path

import pytest

from assay.evaluation.fingerprint import fingerprint
from cli_helpers import GOLDEN_DATA as DATA
from cli_helpers import run, xldocbench_eval_args


def test_gold_files_nargs_and_assay_block(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.json"
    code = run(
        "eval",
        "--gold-files",
        str(DATA / "qa_single_doc.jsonl"),
        str(DATA / "qa_cross_doc.jsonl"),
        "--predictions",
        str(DATA / "predictions.jsonl"),
        "--duplicates",
        "last-wins",
        "--output",
        str(out),
    )
    assert code == 0
    report = json.loads(out.read_text("utf-8"))
    assert report["gold_count"] == 6
    assert list(report)[-1] == "assay"  # the assay profile appends its provenance block
    block = report["assay"]
    assert block["profile"] == "assay" and block["evaluator_sha256"] == fingerprint("assay")
    assert block["accounting"]["predictions"]["buckets"] == {
        "scored": 4,
        "empty": 0,
        "status_substituted": 1,
        "missing": 1,
    }
    assert "status_substituted" in capsys.readouterr().out


def test_xldocbench_sidecar_only_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.json"
    assert run(*xldocbench_eval_args(), "--output", str(out)) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]  # as released: no sidecar
    captured = capsys.readouterr()
    assert f"evaluator sha256: {fingerprint('xldocbench')}" in captured.err.splitlines()
    assert "sha256" not in captured.out
    assert run(*xldocbench_eval_args(), "--output", str(out), "--provenance-sidecar") == 0
    sidecar = json.loads((tmp_path / "r.provenance.json").read_text("utf-8"))
    assert sidecar["profile"] == "xldocbench" and sidecar["evaluator_sha256"] == fingerprint(
        "xldocbench"
    )
    assert "assay" not in json.loads(out.read_text("utf-8"))


@pytest.mark.parametrize(
    "extra", [["--provenance-sidecar"], ["--provenance-sidecar", "--profile", "assay"]]
)
def test_provenance_sidecar_needs_a_released_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    args = xldocbench_eval_args()
    if "assay" in extra:
        args += ["--output", str(tmp_path / "r.json")]
    assert run(*args, *extra) == 2
    assert "--provenance-sidecar needs --output and --profile xldocbench" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_bad_json_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"question_id": "g1", "prediction": "x"}\n{oops\n', "utf-8")
    code = run("eval", "--data-dir", str(DATA), "--predictions", str(bad))
    err = capsys.readouterr().err
    assert code == 3
    assert err.count("\n") == 1 and f"{bad}:2" in err and "Traceback" not in err


def test_missing_field_error_names_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"prediction": "x"}\n', "utf-8")
    assert run("eval", "--data-dir", str(DATA), "--predictions", str(bad)) == 3
    assert "field 'id'" in capsys.readouterr().err


def test_unknown_profile_and_missing_gold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        run(
            "eval",
            "--profile",
            "nope",
            "--data-dir",
            str(DATA),
            "--predictions",
            str(DATA / "predictions.jsonl"),
        )
        == 2
    )
    assert (
        run("eval", "--data-dir", str(tmp_path), "--predictions", str(DATA / "predictions.jsonl"))
        == 2
    )
    assert "qa_single_doc.jsonl" in capsys.readouterr().err


def test_directory_systems_and_results_dir(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    preds = tmp_path / "preds"
    preds.mkdir()
    shutil.copy(DATA / "predictions.jsonl", preds / "alpha.jsonl")
    (preds / "beta.json").write_text(json.dumps({"g1": "Paris", "g2": "1250"}), "utf-8")
    code = run(
        "eval",
        "--profile",
        "xldocbench",
        "--data-dir",
        str(DATA),
        "--predictions",
        str(preds),
        "--system",
        f"gamma={preds / 'beta.json'}",
        "--results-dir",
        str(tmp_path / "rel"),
        "--output",
        str(tmp_path / "all.json"),
        "--per-question-csv",
        str(tmp_path / "all.csv"),
    )
    assert code == 0
    rows = [
        json.loads(x)
        for x in (tmp_path / "rel" / "results" / "scores.jsonl").read_text().splitlines()
    ]
    assert len(rows) == 18 and list(rows[0]) == [
        "system",
        "question_id",
        "accuracy",
        "token_f1",
        "anls",
        "status",
    ]
    summary = json.loads((tmp_path / "rel" / "results" / "summary.json").read_text())
    assert sorted(summary["systems"]) == ["alpha", "beta", "gamma"]
    # beta: g1 and g2 right, four missing → 2/6
    assert summary["systems"]["beta"]["accuracy"] == round(2 / 6, 6)
    # Like every report, the summary carries the fingerprint with profile, version
    # and metric signatures.
    provenance = json.loads((tmp_path / "all.json").read_text("utf-8"))["assay"]
    for key in ("profile", "evaluator_sha256", "assay_version", "metric_signatures"):
        assert summary[key] == provenance[key], key
    assert summary["profile"] == "xldocbench"
    combined = json.loads((tmp_path / "all.json").read_text("utf-8"))
    assert [row["system"] for row in combined["leaderboard"]][0] == "alpha"
    beta = next(row for row in combined["leaderboard"] if row["system"] == "beta")
    # beta answers 2 of the 6 gold questions (see above): 4 missing, all 6 evaluated.
    assert (beta["count"], beta["gold_count"], beta["missing_prediction_count"]) == (6, 6, 4)
    assert beta["extra_prediction_count"] == 0
    assert (tmp_path / "all.csv").read_text("utf-8").startswith("system,question_id,")
    assert "Leaderboard" in capsys.readouterr().out


def test_results_dir_named_results(tmp_path: Path) -> None:
    assert (
        run(
            "eval",
            "--data-dir",
            str(DATA),
            "--predictions",
            str(DATA / "predictions.jsonl"),
            "--duplicates",
            "last-wins",
            "--results-dir",
            str(tmp_path / "results"),
        )
        == 0
    )
    assert (tmp_path / "results" / "scores.jsonl").is_file()


def test_fingerprint_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("fingerprint", "--profile", "xldocbench") == 0
    assert capsys.readouterr().out.strip() == fingerprint("xldocbench")
    assert fingerprint("xldocbench") != fingerprint("assay")


def test_demo_writes_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert run("demo") == 0
    out = capsys.readouterr().out
    assert "Leaderboard" in out and "assay-demo" in out and "assay-demo/report.md" in out
    for name in (
        "report.json",
        "per_question.csv",
        "results/scores.jsonl",
        "results/summary.json",
        "manifest.json",
    ):
        assert (tmp_path / "assay-demo" / name).is_file(), name
    report = json.loads((tmp_path / "assay-demo" / "report.json").read_text("utf-8"))
    assert sorted(report["systems"]) == ["atlas-7b", "borealis-70b", "cirrus-mini"]
    first = (tmp_path / "assay-demo" / "report.json").read_bytes()
    assert run("demo") == 0  # deterministic: byte-identical on a second run
    assert (tmp_path / "assay-demo" / "report.json").read_bytes() == first


def test_missing_prediction_file_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.jsonl"
    assert run("eval", "--data-dir", str(DATA), "--predictions", str(missing)) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(missing) in err


def test_prediction_field_option(tmp_path: Path) -> None:
    preds = tmp_path / "p.jsonl"
    preds.write_text('{"question_id": "g1", "prediction": "Rome", "final": "Paris"}\n', "utf-8")
    out = tmp_path / "r.json"
    assert (
        run(
            *xldocbench_eval_args(preds),
            "--prediction-field",
            "final",
            "--ignore-missing",
            "--output",
            str(out),
        )
        == 0
    )
    report = json.loads(out.read_text("utf-8"))
    assert report["per_question"][0]["prediction"] == "Paris"
    assert report["overall"]["accuracy"] == 1.0 and report["evaluated_count"] == 1

"""assay diff: hand-built flip lists, definition-change flagging before any number."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assay.evaluation.diff import diff_reports
from cli_helpers import run
from compare_helpers import GOLD_DIR, write_predictions


def _release_report(
    tmp_path: Path, system: str, profile: str = "assay", *extra: str
) -> Path:
    files = {f.stem: f for f in write_predictions(tmp_path / "pred")}
    out = tmp_path / f"{system}-{profile}.json"
    code = run(
        "eval", "--data-dir", str(GOLD_DIR), "--predictions", str(files[system]),
        "--profile", profile, "--output", str(out), *extra,
    )  # fmt: skip
    assert code == 0
    return out


def _load(path: Path) -> Any:
    return json.loads(path.read_text("utf-8"))


def test_flips_between_two_release_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = _release_report(tmp_path, "alpha"), _release_report(tmp_path, "beta")
    diff = diff_reports(_load(old), _load(new))
    assert diff["definition"]["same"] is True
    (entry,) = diff["systems"]
    # alpha [1,1,1,1,1,0] -> beta [1,0,1,0,1,0]: g2 and g4 go from right to wrong.
    for metric in ("accuracy", "token_f1", "anls"):
        m = entry["metrics"][metric]
        assert m["pass_to_fail"] == ["g2", "g4"] and m["fail_to_pass"] == []
        assert [c["question_id"] for c in m["changed"]] == ["g2", "g4"]
        assert [c["delta"] for c in m["changed"]] == [-1.0, -1.0]
        assert m["mean_delta"] == pytest.approx(3 / 6 - 5 / 6)
    assert entry["items_compared"] == 6 and entry["only_in_old"] == []
    capsys.readouterr()
    assert run("diff", str(old), str(new)) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("definitions: match")
    assert "    pass->fail: g2, g4" in out


def test_flips_between_result_documents(tmp_path: Path) -> None:
    files = write_predictions(tmp_path / "a")
    swapped = write_predictions(
        tmp_path / "b", {"alpha": [0, 1, 1, 1, 1, 1], "beta": [1, 0, 1, 0, 1, 0], "gamma": [0] * 6}
    )
    paths = []
    for name, group in (("old", files), ("new", swapped)):
        out = tmp_path / f"{name}.json"
        predictions = [a for f in group for a in ("--predictions", str(f))]
        code = run(
            "compare", "--data-dir", str(GOLD_DIR), *predictions, "--trials", "100",
            "--result-json", str(out),
        )  # fmt: skip
        assert code == 0
        paths.append(out)
    diff = diff_reports(_load(paths[0]), _load(paths[1]))
    assert diff["definition"]["same"]
    by_system = {e["system"]: e["metrics"]["accuracy"] for e in diff["systems"]}
    # alpha: g1 1->0, g6 0->1; beta unchanged; gamma: g3 1->0
    assert (by_system["alpha"]["pass_to_fail"], by_system["alpha"]["fail_to_pass"]) == (
        ["g1"],
        ["g6"],
    )
    assert by_system["beta"]["changed"] == []
    assert (by_system["gamma"]["pass_to_fail"], by_system["gamma"]["fail_to_pass"]) == (["g3"], [])


def test_definition_change_flagged_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = _release_report(tmp_path, "alpha", "assay")
    new_doc = _load(old)
    new_doc["assay"]["metric_signatures"]["anls"] = "anls|threshold:0.6|v:0.1.0"
    new_doc["assay"]["evaluator_sha256"] = "0" * 64
    new = tmp_path / "changed.json"
    new.write_text(json.dumps(new_doc), "utf-8")
    diff = diff_reports(_load(old), new_doc)
    changes = diff["definition"]["changes"]
    assert diff["definition"]["same"] is False
    assert any(c.startswith("evaluator_sha256 changed") for c in changes)
    assert any(c.startswith("signature of anls changed") for c in changes)
    capsys.readouterr()
    assert run("diff", str(old), str(new)) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("DEFINITION CHANGED")
    first_number = next(i for i, line in enumerate(lines) if "mean" in line)
    flagged = [i for i, line in enumerate(lines) if "signature of anls changed" in line]
    assert flagged and flagged[0] < first_number


def test_profile_change_and_unrecorded_definitions(tmp_path: Path) -> None:
    assay = _release_report(tmp_path, "alpha", "assay")
    released = _release_report(tmp_path, "alpha", "xldocbench")  # no provenance block
    diff = diff_reports(_load(assay), _load(released))
    assert not diff["definition"]["same"]
    assert "profile not recorded in the new report" in diff["definition"]["changes"]


def test_xldocbench_reports_use_their_provenance_sidecar(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Under xldocbench the report keeps the released layout; asked for, the provenance
    # is in NAME.provenance.json beside it, and diff must read it from there.
    old = _release_report(tmp_path, "alpha", "xldocbench", "--provenance-sidecar")
    new = _release_report(tmp_path, "beta", "xldocbench", "--provenance-sidecar")
    assert "assay" not in _load(old)
    assert old.with_name(old.stem + ".provenance.json").is_file()
    capsys.readouterr()
    assert run("diff", str(old), str(new)) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("definitions: match (profile xldocbench")
    assert "    pass->fail: g2, g4" in out
    mixed = _release_report(tmp_path, "beta", "assay")
    capsys.readouterr()
    assert run("diff", str(old), str(mixed)) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("DEFINITION CHANGED")
    assert "  - profile changed: xldocbench -> assay" in lines

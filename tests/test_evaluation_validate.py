import json
from pathlib import Path

import pytest

from assay.evaluation.validate import check_release, smoke_test
from cli_helpers import run


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("demo")
    assert run("demo", "--out", str(root / "rel")) == 0
    return root / "rel"


def copy_release(release: Path, tmp_path: Path) -> Path:
    target = tmp_path / "rel"
    for path in release.rglob("*"):
        if path.is_file():
            dest = target / path.relative_to(release)
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(path.read_bytes())
    return target


def edit_jsonl(path: Path, index: int, change: dict) -> None:
    lines = path.read_text("utf-8").splitlines()
    row = json.loads(lines[index])
    for key, value in change.items():
        target = row
        *parents, last = key.split(".")
        for part in parents:
            target = target[part]
        target[last] = value
    lines[index] = json.dumps(row, ensure_ascii=False)
    path.write_text("\n".join(lines) + "\n", "utf-8")


def test_demo_release_is_clean(release: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert check_release(release) == []
    assert run("check", str(release)) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("smoke test: PASS")


def test_smoke_sample_is_perfect() -> None:
    assert smoke_test() == []


def test_problems_are_located(
    release: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rel = copy_release(release, tmp_path)
    single = rel / "qa_single_doc.jsonl"
    edit_jsonl(single, 0, {"document.evidence_pages": [0, 999]})
    edit_jsonl(single, 1, {"document.document_id": "D99"})
    edit_jsonl(single, 2, {"answer.format": "Fraction", "answer.verification_rule": "fuzzy"})
    edit_jsonl(single, 3, {"question_id": "s-S01"})  # duplicate id
    manifest = json.loads((rel / "manifest.json").read_text("utf-8"))
    manifest["document_count"] = 9
    manifest["score_evaluator_sha256"] = "0" * 64
    (rel / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    scores = rel / "results" / "scores.jsonl"
    lines = scores.read_text("utf-8").splitlines()
    scores.write_text("\n".join(lines[1:]) + "\n", "utf-8")  # drop (atlas-7b, s-S01)
    messages = [str(p) for p in check_release(rel)]
    text = "\n".join(messages)
    assert f"{single}:1: evidence page 0 of D01 must be ≥ 1" in text
    assert f"{single}:1: evidence page 999 of D01 exceeds page_count 84" in text
    assert f"{single}:2: document 'D99' is not in documents.jsonl" in text
    assert (
        "unknown answer format 'Fraction'" in text and "unknown verification rule 'fuzzy'" in text
    )
    assert f"{single}:4: duplicate question id 's-S01'" in text
    assert "manifest.json: document_count is 9 but the files hold 8" in text
    assert "manifest.json: question_count is 48 but the files hold 47" in text
    assert "system 'atlas-7b' has no score for" in text
    assert "score_evaluator_sha256 0000" in text
    assert "atlas-7b: accuracy is" in text  # summary no longer matches the rows
    assert run("check", str(rel)) == 1
    assert "smoke test: PASS" in capsys.readouterr().out


def test_unknown_question_in_first_score_row_is_a_problem(
    release: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rel = copy_release(release, tmp_path)
    scores = rel / "results" / "scores.jsonl"
    lines = scores.read_text("utf-8").splitlines()
    first = json.loads(lines[0])
    first["question_id"] = "no-such-question"
    lines[0] = json.dumps(first)
    scores.write_text("\n".join(lines) + "\n", "utf-8")
    text = "\n".join(str(p) for p in check_release(rel))
    assert f"{scores}:1: question 'no-such-question' is not in the gold files" in text
    assert run("check", str(rel)) == 1
    assert capsys.readouterr().out.rstrip().endswith("smoke test: PASS")


def test_unreadable_line_is_a_located_problem_and_smoke_test_still_runs(
    release: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rel = copy_release(release, tmp_path)
    cross = rel / "qa_cross_doc.jsonl"
    with open(cross, "a", encoding="utf-8") as handle:
        handle.write("{not json\n")
    n_lines = len(cross.read_text("utf-8").splitlines())
    assert run("check", str(rel)) == 1
    out = capsys.readouterr().out
    assert f"{cross}:{n_lines}: invalid JSON" in out
    assert out.rstrip().endswith("smoke test: PASS")


def test_spec_formats_in_any_case_are_known(release: Path, tmp_path: Path) -> None:
    # The spec names single_choice, list and quantity as formats typed by their
    # lowercased name; "Fraction" stays unknown.
    rel = copy_release(release, tmp_path)
    single = rel / "qa_single_doc.jsonl"
    edit_jsonl(single, 0, {"answer.format": "list"})
    edit_jsonl(single, 1, {"answer.format": "Quantity"})
    edit_jsonl(single, 2, {"answer.format": "Single_Choice"})
    edit_jsonl(single, 3, {"answer.format": "Fraction"})
    text = "\n".join(str(p) for p in check_release(rel))
    assert "unknown answer format 'Fraction'" in text
    for name in ("list", "Quantity", "Single_Choice"):
        assert f"unknown answer format {name!r}" not in text


@pytest.mark.parametrize(
    ("counts", "label"),
    [
        ({"num_documents": 7, "num_questions": 48}, "num_documents is 7"),
        ({"counts": {"documents": 8, "questions": 50}}, "counts.questions is 50"),
    ],
)
def test_manifest_count_spellings(release: Path, tmp_path: Path, counts: dict, label: str) -> None:
    # The bundled release has 8 documents and 48 questions (hand-counted in manifest.json).
    rel = copy_release(release, tmp_path)
    manifest = json.loads((rel / "manifest.json").read_text("utf-8"))
    del manifest["document_count"], manifest["question_count"]
    manifest.update(counts)
    (rel / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    messages = [str(p) for p in check_release(rel)]
    assert len(messages) == 1 and label in messages[0], messages


def test_system_listed_in_manifest_needs_scores(release: Path, tmp_path: Path) -> None:
    rel = copy_release(release, tmp_path)
    manifest = json.loads((rel / "manifest.json").read_text("utf-8"))
    manifest["systems"] = [*manifest["systems"], "dawn-3b"]
    (rel / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    text = "\n".join(str(p) for p in check_release(rel))
    assert "system 'dawn-3b' has no score for 48 question(s)" in text
    assert "no summary for system 'dawn-3b'" in text


def test_score_files_where_the_manifest_names_them(release: Path, tmp_path: Path) -> None:
    rel = copy_release(release, tmp_path)
    (rel / "scores").mkdir()
    (rel / "results" / "scores.jsonl").rename(rel / "scores" / "all.jsonl")
    (rel / "results" / "summary.json").rename(rel / "scores" / "totals.json")
    manifest = json.loads((rel / "manifest.json").read_text("utf-8"))
    manifest["results"] = {"scores": "scores/all.jsonl", "summary": "scores/totals.json"}
    (rel / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    assert check_release(rel) == []
    lines = (rel / "scores" / "all.jsonl").read_text("utf-8").splitlines()
    (rel / "scores" / "all.jsonl").write_text("\n".join(lines[1:]) + "\n", "utf-8")
    text = "\n".join(str(p) for p in check_release(rel))
    assert "all.jsonl: system 'atlas-7b' has no score for 1 question(s)" in text

"""stage_file + commit writes what write_file writes; eval's result JSON staged by its child."""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from assay.cli import forked
from assay.cli.main import cli
from assay.errors import OutputFileError
from assay.io.output import stage_file, write_file

TEXTS = ["", "plain\n", "unicode é ☃ \U0001f600\r\n", "lone \ud800 surrogate", "x" * 100_000]


@pytest.mark.parametrize("text", TEXTS)
def test_commit_writes_the_bytes_write_file_writes(text: str, tmp_path: Path) -> None:
    write_file(tmp_path / "a" / "ref.txt", text)
    staged = stage_file(tmp_path / "b" / "new.txt", text, option="--x")
    assert not (tmp_path / "b" / "new.txt").exists()  # staged, not yet in place
    assert staged.commit() == tmp_path / "b" / "new.txt"
    assert (tmp_path / "b" / "new.txt").read_bytes() == (tmp_path / "a" / "ref.txt").read_bytes()
    assert os.listdir(tmp_path / "b") == ["new.txt"]  # no temporary file left


def test_commit_keeps_the_old_mode_and_follows_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_text("old", "utf-8")
    real.chmod(0o640)
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    stage_file(link, "new").commit()
    assert link.is_symlink() and real.read_text("utf-8") == "new"
    assert real.stat().st_mode & 0o7777 == 0o640


def test_discard_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "t.txt"
    target.write_text("old", "utf-8")
    stage_file(target, "new").discard()
    assert target.read_text("utf-8") == "old"
    assert os.listdir(tmp_path) == ["t.txt"]


def test_errors_are_those_of_write_file(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("", "utf-8")
    for path in (tmp_path / "folder", tmp_path / "file" / "under.txt"):
        with pytest.raises(OutputFileError) as staged:
            stage_file(path, "x", option="--x")
        with pytest.raises(OutputFileError) as plain:
            write_file(path, "x", option="--x")
        assert str(staged.value) == str(plain.value)


SAMPLE = Path(str(resources.files("assay") / "data" / "xlsample"))


def eval_args(**paths: Path) -> list[str]:
    args = ["eval", "--data-dir", str(SAMPLE), "--predictions", str(SAMPLE / "predictions")]
    for option, path in paths.items():
        args += [f"--{option.replace('_', '-')}", str(path)]
    return args


def test_eval_result_json_staged_by_the_child_equals_the_in_line_text(tmp_path: Path) -> None:
    from assay.cli.eval_cmd import render_comparison_files, write_rendered
    from assay.evaluation.compare import result_document
    from assay.evaluation.runs import SystemInput, default_gold_files, evaluate

    systems = [SystemInput(f.stem, (str(f),)) for f in sorted((SAMPLE / "predictions").iterdir())]
    document = result_document(evaluate(default_gold_files(SAMPLE), systems))
    paths = [tmp_path / n for n in ("one.json", "one.html", "one.md")]
    in_line = render_comparison_files(document, *paths)
    forked = render_comparison_files(document, *(p.with_stem("two") for p in paths), forked=True)
    assert isinstance(in_line[0][1], str) and not isinstance(forked[0][1], str)
    write_rendered(in_line)
    write_rendered(forked)
    for path in paths:
        assert path.with_stem("two").read_bytes() == path.read_bytes()
    assert sorted(os.listdir(tmp_path)) == sorted(
        [p.name for p in paths] + [p.with_stem("two").name for p in paths]
    )


def run_both(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, **paths: str) -> list[Any]:
    """The eval's exit code, message and files: forked, then in line (no fork)."""
    outcomes = []
    for name, forking in (("forked", True), ("in_line", False)):
        root = tmp_path / name
        root.mkdir()
        (root / "file").write_text("", "utf-8")
        with monkeypatch.context() as patch:
            if not forking:
                patch.setattr(forked, "can_fork", lambda: False)
            result = CliRunner().invoke(
                cli, eval_args(**{k: root / v for k, v in paths.items()})
            )
        outcomes.append(
            (result.exit_code, result.output.replace(str(root), "ROOT"), sorted(os.listdir(root)))
        )
    return outcomes


def test_eval_unwritable_result_json_fails_as_in_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with_fork, in_line = run_both(
        monkeypatch, tmp_path, result_json="file/a.json", html="r.html", output="r.json"
    )
    assert with_fork == in_line
    code, message, files = with_fork
    assert code != 0 and "--result-json" in message and "it is a file" in message
    assert files == ["file"]  # all or nothing: r.json and the HTML are not written either


def test_eval_failing_release_file_leaves_no_staged_result_json(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with_fork, in_line = run_both(
        monkeypatch, tmp_path, per_question_csv="file/pq.csv", result_json="a.json"
    )
    assert with_fork == in_line
    code, message, files = with_fork
    assert code != 0 and "it is a file" in message
    assert files == ["file"]  # no result JSON, no temporary file


def test_eval_every_file_as_in_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with_fork, in_line = run_both(
        monkeypatch, tmp_path, result_json="a.json", html="r.html", markdown="r.md",
        output="r.json",
    )  # fmt: skip
    assert with_fork == in_line and with_fork[0] == 0
    for name in with_fork[2]:
        ours, theirs = tmp_path / "forked" / name, tmp_path / "in_line" / name
        assert ours.read_bytes() == theirs.read_bytes()


def test_a_temporary_is_pending_from_the_moment_it_exists(tmp_path: Path) -> None:
    # an interrupt while an output is being filled (or between its temporary file and
    # its staged record) must find the file in discard_pending: none may be left behind
    from assay.io.output import open_output, stage_file
    from assay.io.pending import discard_pending, pending

    target = tmp_path / "out.txt"
    with open_output(target) as sink:
        sink.write(b"partial")
        assert pending() == [target]
        names = [p.name for p in tmp_path.iterdir()]
        assert len(names) == 1 and names[0].endswith(".tmp")
    assert pending() == [] and target.read_text() == "partial"
    staged = stage_file(tmp_path / "staged.txt", "text")
    assert pending() == [tmp_path / "staged.txt"]
    assert discard_pending() == [tmp_path / "staged.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]
    assert staged.target == tmp_path / "staged.txt" and pending() == []

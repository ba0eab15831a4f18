"""The CLI as a user runs it: `python -m assay` in a subprocess."""

import os
import subprocess
import sys
from pathlib import Path

import assay

SRC = str(Path(__file__).resolve().parents[1] / "src")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC, "COLUMNS": "200"}
    return subprocess.run(
        [sys.executable, "-m", "assay", *args], capture_output=True, text=True, env=env, check=False
    )


def test_score_prints_value_and_signature() -> None:
    done = run("score", "f1", "--prediction", "the cat sat", "--target", "the cat sat on the mat")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "f1: 0.666667",
        "signature: f1|tok:word|norm:none|multi:max|v:0.1.0",
    ]


def test_score_takes_several_targets_and_options() -> None:
    done = run("score", "f1", "-p", "cat", "-t", "dog", "-t", "cat", "--tokenizer", "whitespace")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "f1: 1.000000"
    assert "tok:whitespace" in done.stdout


def test_score_file_prints_mean_and_count(tmp_path: Path) -> None:
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(
        '{"id": "1", "prediction": "a", "targets": ["a"]}\n'
        '{"id": "2", "prediction": "b", "targets": ["c"]}\n'
        '{"id": "3", "prediction": "d", "targets": ["d", "e"]}\n',
        encoding="utf-8",
    )
    done = run("score", "exact_match", "--file", str(pairs))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "exact_match: 0.666667 (mean over n=3)"


def test_unknown_metric_is_one_line_and_exit_2() -> None:
    done = run("score", "f2", "-p", "a", "-t", "a")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("error: unknown metric 'f2'. Did you mean 'f1'?")


def test_unknown_tokenizer_exit_2() -> None:
    done = run("score", "f1", "-p", "a", "-t", "a", "--tokenizer", "nope")
    assert done.returncode == 2 and "unknown tokenizer 'nope'" in done.stderr


def test_malformed_jsonl_names_file_and_line(tmp_path: Path) -> None:
    pairs = tmp_path / "bad.jsonl"
    pairs.write_text('{"prediction": "a", "targets": ["a"]}\n{oops\n', encoding="utf-8")
    done = run("score", "f1", "--file", str(pairs))
    assert done.returncode == 3
    assert done.stderr.startswith(f"error: {pairs}:2: invalid JSON")
    assert "Traceback" not in done.stderr


def test_missing_arguments_is_a_usage_error() -> None:
    done = run("score", "f1", "-p", "a")
    assert done.returncode == 2 and "--target" in done.stderr


def test_metrics_lists_every_metric_with_signature() -> None:
    done = run("metrics")
    assert done.returncode == 0
    for signature in (
        "f1|tok:word|norm:none|multi:max|v:0.1.0",
        "anls|tok:none|norm:lower-space|thr:0.5|multi:max|v:0.1.0",
    ):
        assert signature in done.stdout


def test_version() -> None:
    done = run("--version")
    assert done.returncode == 0 and "0.1.0" in done.stdout


def test_docs_metrics_md_matches_the_registry() -> None:
    done = run("metrics", "--format", "markdown")
    assert done.returncode == 0
    docs = (Path(__file__).resolve().parents[1] / "docs" / "metrics.md").read_text(encoding="utf-8")
    assert docs.endswith(done.stdout), (
        "regenerate docs/metrics.md with `assay metrics --format markdown`"
    )


def test_unwritable_output_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    done = run("demo", "--out", str(blocker / "sub"))
    assert done.returncode == 3, done.stderr
    assert done.stderr.startswith("error: ") and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1


def test_metrics_lines_hold_whole_signatures_at_default_width() -> None:
    # No COLUMNS: as a hidden harness or a pipe would run it; nothing may be wrapped.
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    done = subprocess.run(
        [sys.executable, "-m", "assay", "metrics"],
        capture_output=True,
        text=True,
        env={**env, "PYTHONPATH": SRC},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    names = assay.metric_names()
    assert len(lines) == 1 + len(names)
    for name, line in zip(names, lines[1:], strict=True):
        assert line.startswith(f"{name} ")
        assert line.endswith(assay.signature(name))
        assert assay.get_metric(name).description in line


def test_cli_group_invoked_directly_prints_one_line_errors(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from assay.cli.main import cli

    runner = CliRunner()
    ok = runner.invoke(cli, ["score", "f1", "--prediction", "a b", "--target", "a"])
    assert ok.exit_code == 0 and ok.stdout.startswith("f1: 0.666667\n")
    bad = runner.invoke(cli, ["score", "f2", "--prediction", "a", "--target", "a"])
    assert bad.exit_code == 2
    assert bad.stderr.startswith("error: unknown metric 'f2'. Did you mean 'f1'?")
    assert bad.stderr.count("\n") == 1 and "Traceback" not in bad.output
    pairs = tmp_path / "bad.jsonl"
    pairs.write_text('{"prediction": "a", "targets": []}\n', encoding="utf-8")
    broken = runner.invoke(cli, ["score", "f1", "--file", str(pairs)])
    assert broken.exit_code == 3 and broken.stderr.startswith(f"error: {pairs}:1:")


def test_cli_package_exports_the_group_and_main() -> None:
    from assay.cli import cli, main
    from assay.cli.main import cli as group
    from assay.cli.main import main as entry

    assert cli is group and main is entry


def test_score_takes_metric_options_as_flags() -> None:
    # 'a b c' vs 'a b d', floor smoothing: p1 = 2/3, p2 = 1/2, p3 = 0.1/1 (no match);
    # no 4-gram, effective order keeps 3 orders; BP = 1 (c = r = 3).
    # BLEU = (2/3 · 1/2 · 1/10)^(1/3) = (1/30)^(1/3) = 0.321830.
    done = run("score", "bleu", "-p", "a b c", "-t", "a b d", "--smoothing", "floor")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "bleu: 0.321830"
    assert "|smooth:floor|" in done.stdout
    # --max-order 2 and a bare --lowercase flag: p1 = 2/3, p2 = 1/2 -> (1/3)^(1/2).
    done = run("score", "bleu", "-p", "A b c", "-t", "a b d", "--max-order", "2", "--lowercase")
    assert done.stdout.splitlines()[0] == "bleu: 0.577350"
    assert "|order:2|lc:yes|" in done.stdout
    done = run("score", "rouge_l", "-p", "a b c", "-t", "a b", "--measure=p")
    assert done.stdout.splitlines()[0] == "rouge_l: 0.666667"


def test_score_flag_errors_are_one_line() -> None:
    done = run("score", "f1", "-p", "a", "-t", "a", "--bogus", "3")
    assert done.returncode == 2 and "does not take option 'bogus'" in done.stderr
    done = run("score", "f1", "-p", "a", "-t", "a", "stray")
    assert done.returncode == 2 and "unexpected argument 'stray'" in done.stderr


def test_score_under_an_alias_prints_the_canonical_name() -> None:
    # chrF++ of "a b" vs "ab": characters equal (whitespace removed) -> char P = R = 1;
    # word unigrams "a","b" vs "ab": 0 matches; P = R = (1 + 1 + 0) / 3 = 2/3 -> F = 2/3.
    done = run("score", "chrF++", "-p", "a b", "-t", "ab")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "chrf++: 0.666667"
    assert done.stdout.splitlines()[1] == "scale: 0-1 (sacrebleu prints it x 100: 66.67)"
    assert done.stdout.splitlines()[2].startswith("signature: chrf++|")

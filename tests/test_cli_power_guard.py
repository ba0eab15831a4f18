"""assay eval / compare: the exact sign-flip test and the power guard from the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.report.result.markdown import render_result_markdown
from cli_helpers import run, run_captured
from compare_helpers import GOLD_DIR, VECTORS, write_predictions


def _eval(tmp_path: Path, *extra: str) -> int:
    write_predictions(tmp_path / "pred")
    return run(
        "eval", "--data-dir", str(GOLD_DIR), "--predictions", str(tmp_path / "pred"),
        "--result-json", str(tmp_path / "r.json"), *extra,
    )  # fmt: skip


def test_exact_sign_flip_from_the_cli(tmp_path: Path) -> None:
    assert _eval(tmp_path, "--test", "exact_sign_flip") == 0
    comparison = json.loads((tmp_path / "r.json").read_text("utf-8"))["comparison"]
    assert (comparison["method"], comparison["n_resamples"]) == ("exact_sign_flip", 0)
    assert comparison["power_guard"] == "exact"
    pairs = {(p["a"], p["b"]): p for p in comparison["pairs"]}
    # alpha vs gamma (compare_helpers.VECTORS): alpha alone right on g1, g2, g4, g5,
    # gamma never alone: D = 4, |2K - 4| >= 4 iff K in {0, 4}: p = 2/16.
    assert VECTORS["alpha"][:2] == [1, 1]
    assert pairs[("alpha", "gamma")]["test"]["p_value"] == 0.125
    # alpha vs beta: D = 2 (g2, g4), both to alpha: p = 2/4.
    assert pairs[("alpha", "beta")]["test"]["p_value"] == 0.5
    markdown = render_result_markdown(json.loads((tmp_path / "r.json").read_text("utf-8")))
    assert "Paired test: exact_sign_flip, exact, no trials" in markdown


def test_too_few_explicit_trials_are_refused_with_the_minimum(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 3 systems, 3 pairs: 3 / (T + 1) <= 0.05 needs T >= 59.
    assert _eval(tmp_path, "--trials", "20") == 2
    err = capsys.readouterr().err
    assert err == (
        "error: 20 trials cannot reach alpha 0.05 after the Holm correction over 3 pairs "
        "(smallest adjusted p = 3/21 = 0.1429); use at least 59 trials (--trials 59).\n"
    )
    assert not (tmp_path / "r.json").exists()
    assert _eval(tmp_path, "--trials", "59") == 0
    comparison = json.loads((tmp_path / "r.json").read_text("utf-8"))["comparison"]
    assert (comparison["n_resamples"], comparison["power_guard"]) == (59, "met")
    assert comparison["min_trials"] == 59


def test_exact_ties_that_no_test_could_separate_are_unresolved(tmp_path: Path) -> None:
    from assay.report.result.html import render_html

    assert _eval(tmp_path, "--test", "exact_sign_flip") == 0
    document = json.loads((tmp_path / "r.json").read_text("utf-8"))
    comparison = document["comparison"]
    # Every pair differs on at most 4 of the 6 questions: the smallest exact p is
    # 2^(1-4) = 0.125, times 3 pairs (Holm) = 0.375 > 0.05. No pair could be separated,
    # so each adjacent pair is unresolved rather than a measured tie, and no two systems
    # are merged into one group by a test that could not have separated them.
    assert all(not p["could_separate"] for p in comparison["pairs"])
    ranked = comparison["systems"]
    assert comparison["tie_groups"]["groups"] == [1, 2, 3]
    assert comparison["tie_groups"]["members"] == [[ranked[0]], [ranked[1]], [ranked[2]]]
    assert comparison["tie_groups"]["unresolved"] == [
        [ranked[0], ranked[1]], [ranked[1], ranked[2]]
    ]  # fmt: skip
    note = f"Unresolved, not tied: {ranked[0]} – {ranked[1]}, {ranked[1]} – {ranked[2]}."
    assert note in render_result_markdown(document)
    html = render_html(document)
    assert note in html and 'id="unresolved-ties"' in html
    assert "exact_sign_flip (exact, no trials)" in html and "0 trials" not in html


def test_ties_from_tests_that_could_separate_are_not_flagged(tmp_path: Path) -> None:
    from assay.report.result.html import render_html

    assert _eval(tmp_path, "--trials", "59") == 0
    document = json.loads((tmp_path / "r.json").read_text("utf-8"))
    comparison = document["comparison"]
    # 59 trials: smallest p 1/60, times 3 pairs = 0.05 <= alpha: every pair could separate.
    assert all(p["could_separate"] for p in comparison["pairs"])
    assert comparison["tie_groups"]["unresolved"] == []
    assert "Unresolved" not in render_result_markdown(document)
    assert "unresolved-ties" not in render_html(document)
    assert "approximate_randomization (59 trials)" in render_html(document)


# 11 systems, 55 pairs: the smallest Holm-adjusted p is 55 / (T + 1), at most 0.05 only
# from T + 1 = 1100 on, so the bootstrap's default 1,000 resamples are raised to 1,099.
ELEVEN = {f"s{k:02d}": [int(bit) for bit in f"{k:06b}"] for k in range(1, 12)}


def test_a_raised_default_is_said_in_the_terminal_pair_list(tmp_path: Path) -> None:
    write_predictions(tmp_path / "pred", ELEVEN)
    code, out, _ = run_captured(
        "eval", "--data-dir", str(GOLD_DIR), "--predictions", str(tmp_path / "pred"),
        "--test", "paired_bootstrap", "--result-json", str(tmp_path / "r.json"),
    )  # fmt: skip
    assert code == 0
    comparison = json.loads((tmp_path / "r.json").read_text("utf-8"))["comparison"]
    assert (comparison["n_resamples"], comparison["power_guard"]) == (1099, "raised")
    assert comparison["n_resamples_requested"] == 1000
    flat = " ".join(out.split())  # the table title wraps at the terminal's width
    assert "a − b" in flat  # 11 systems: the pair list, not the matrix
    assert "paired_bootstrap, 1099 resamples (raised from 1000 by the power guard" in flat
    assert "1099 trials" not in flat


def test_a_raised_default_is_said_by_score_with_several_files(tmp_path: Path) -> None:
    files = []
    for name, vector in ELEVEN.items():
        path = tmp_path / f"{name}.jsonl"
        rows = [{"id": f"q{i}", "prediction": "yes" if right else "no", "targets": ["yes"]}
                for i, right in enumerate(vector)]  # fmt: skip
        path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
        files += ["--file", str(path)]
    code, out, _ = run_captured("score", "exact_match", *files, "--test", "paired_bootstrap")
    assert code == 0
    first = out.splitlines()[0]
    assert "11 systems on n=6 items; paired_bootstrap, 1099 resamples (raised from 1000" in first

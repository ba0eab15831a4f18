"""Issue 32 item 12: where a same-named peer gives another number, assay says so."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import sacrebleu
from rouge_score import rouge_scorer

import assay

ROOT = Path(__file__).resolve().parents[1]
P, T = "Le café est très bon", "le café est bon"


def extras() -> dict[str, str]:
    """``[project.optional-dependencies]``: extra name -> its requirement list as written."""
    text = (ROOT / "pyproject.toml").read_text("utf-8")
    table = text.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
    return dict(re.findall(r"^([a-z]\w*) = (\[.*?\])", table, flags=re.M | re.S))


def score_text(*args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "assay", "score", *args], capture_output=True,
                          text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_rouge_l_default_and_rouge_score_tokenizer_against_rouge_score() -> None:
    peer = rouge_scorer.RougeScorer(["rougeL"]).score(T, P)["rougeL"].fmeasure
    assert assay.score("rouge_l", P, T, tokenizer="rouge-score") == peer
    assert assay.score("rouge_l", P, T) != peer  # the documented difference is real
    lines = score_text("rouge_l", "-p", P, "-t", T)
    assert lines[1].startswith("note: tok:word;") and "--tokenizer rouge-score" in lines[1]
    assert not any(x.startswith("note:") for x in
                   score_text("rouge_l", "-p", P, "-t", T, "--tokenizer", "rouge-score"))
    readme = (ROOT / "README.md").read_text("utf-8")
    assert f"0.888889, rouge-score\n  {peer:g}" in readme or f"rouge-score\n  {peer:g}" in readme


def test_bleu_text_output_says_the_scale_with_sacrebleus_figure() -> None:
    hyp, ref = "the cat sat on the mat today", "the cat sat on the mat"
    peer = sacrebleu.corpus_bleu([hyp], [[ref]]).score  # sacrebleu's 0-100 number
    lines = score_text("corpus_bleu", "-p", hyp, "-t", ref)
    assert lines[1] == f"scale: 0-1 (sacrebleu prints it x 100: {peer:.2f})"


def test_the_stem_extra_installs_nltk_and_its_absence_names_it() -> None:
    assert '"nltk' in extras()["stem"]
    code = (
        "import sys; sys.modules['nltk'] = None\n"
        "from assay.cli.main import main\n"
        "main(['score', 'rouge_l', '-p', 'cats', '-t', 'cat', '--use-stemmer'])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)  # fmt: skip
    assert done.returncode != 0
    assert done.stderr.startswith("error: ") and "pip install 'assay[stem]'" in done.stderr


def test_readme_lists_each_extra_of_pyproject() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    section = readme.split("### Optional extras", 1)[1].split("\n### ", 1)[0]
    for extra in extras():
        if extra != "test":
            assert f"`assay[{extra}]`" in section, extra
    assert "`.eval` logs" in section and "`assay[zstd]`" in section

"""Issue 32, done when: docs/mistakes.md shows what fifteen common mistakes now get.

Each mistake is run here as written in the doc (real subprocesses in a scratch folder
holding the files the doc shows), and its output must equal the doc's. Run this file
(``python tests/test_mistakes_doc.py > docs/mistakes.md``) to write the doc.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOLD = (ROOT / "src" / "assay" / "data" / "xlsample" / "qa_single_doc.jsonl").read_text("utf-8")
GOLD_ROWS = [json.loads(line) for line in GOLD.splitlines()[:3]]
PAIRS = '{"id": "q1", "prediction": "Paris", "targets": ["Paris"]}\n'

FILES: dict[str, str] = {
    "gold.jsonl": "".join(json.dumps(r) + "\n" for r in GOLD_ROWS),
    "renamed.jsonl": "".join(json.dumps({"question_id": r["question_id"], "model_output": "x"})
                             + "\n" for r in GOLD_ROWS),  # fmt: skip
    "pairs.jsonl": PAIRS,
    "dup.jsonl": PAIRS + PAIRS,
    "no_targets.jsonl": '{"id": "q1", "prediction": "Paris"}\n',
    "truncated.jsonl": '{"id": "q1", "prediction": "Par\n',
    "empty.jsonl": "",
    "semicolons.csv": "id;prediction;targets\nq1;Paris;Paris\nq2;blue;red\n",
    "lists.csv": "id,prediction,targets\nq1,Paris,\"['paris', 'Paris']\"\n",
    "numbers.csv": 'id,prediction,targets\nq1,a,"[1, 2]"\n',
    "adir/keep": "",
}

# (the mistake, the command as a user types it, standard input)
MISTAKES: list[tuple[str, str, str | None]] = [
    ("A prediction field under another name (`model_output`)",
     "assay eval --gold-files gold.jsonl --predictions renamed.jsonl", None),
    ("A mistyped flag", "assay score f1 --file pairs.jsonl --confidance 0.95", None),
    ("Pairs piped in without `--file -`", "assay score f1", PAIRS),
    ("A misspelt metric name", "assay score rougel -p a -t a", None),
    ("A misspelt metric option", "assay score bleu -p a -t a --max-ordr 2", None),
    ("A repeated id in a pairs file", "assay score f1 --file dup.jsonl", None),
    ("A row without targets", "assay score f1 --file no_targets.jsonl", None),
    ("A truncated JSONL line", "assay score f1 --file truncated.jsonl", None),
    ("An empty pairs file", "assay score f1 --file empty.jsonl", None),
    ("A folder where a file goes", "assay score f1 --file adir", None),
    ("An output that would overwrite an input",
     "assay score f1 --file pairs.jsonl --per-item pairs.jsonl", None),
    ("A CSV saved by Excel with semicolons (now read)",
     "assay score exact_match --file semicolons.csv", None),
    ("List targets written by pandas' to_csv (now several references)",
     "assay score exact_match --file lists.csv", None),
    ("A list cell that is not strings", "assay score f1 --file numbers.csv", None),
    ("A missing prediction (None) in the library",
     "python -c \"import assay; assay.score_corpus('f1', ['a', None], ['a', 'b'])\"", None),
    ("Expecting rouge-score's ROUGE-L", "assay score rouge_l -p 'Le café est bon' -t 'le café'",
     None),
    ("Reading BLEU as sacrebleu prints it",
     "assay score corpus_bleu -p 'the cat sat on the mat today' -t 'the cat sat on the mat'",
     None),
    ("An old flag spelling (here beside mistake 1)",
     "assay compare --gold-files gold.jsonl --predictions renamed.jsonl --metric anls", None),
]  # fmt: skip


def run(command: str, stdin: str | None, cwd: Path) -> tuple[int, str]:
    """The command's exit code and what it printed (stderr, then stdout's first lines)."""
    words = shlex.split(command)
    argv = [sys.executable, "-m", "assay", *words[1:]] if words[0] == "assay" else [
        sys.executable, *words[1:]]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "100"}
    done = subprocess.run(argv, input=stdin or "", capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=120)  # fmt: skip
    if "Traceback" in done.stderr:  # the library case: its last line is the error
        shown = done.stderr.strip().splitlines()[-1]
    else:
        shown = "\n".join([*done.stderr.strip().splitlines(), *done.stdout.splitlines()[:3]])
    return done.returncode, shown


def render() -> str:
    """docs/mistakes.md: each mistake, its command and what assay now says (run for real)."""
    lines = [
        "# Common mistakes (the fifteen of issue 32, and three more) and what assay now says",
        "",
        "Each command below was run by `tests/test_mistakes_doc.py` in a folder holding the",
        "files named (the test runs them again and compares every line shown here). Errors are",
        "one `error:` line with the fix; see [cli.md](cli.md) for the exit codes.",
        "",
    ]
    with tempfile.TemporaryDirectory() as scratch:
        cwd = Path(scratch)
        for name, text in FILES.items():
            (cwd / name).parent.mkdir(parents=True, exist_ok=True)
            (cwd / name).write_text(text, encoding="utf-8")
        for k, (title, command, stdin) in enumerate(MISTAKES, 1):
            code, shown = run(command, stdin, cwd)
            piped = "cat pairs.jsonl | " if stdin is not None else ""
            lines += [f"## {k}. {title}", "", "```bash", f"{piped}{command}", "```", "",
                      f"exit {code}:", "", "```text", shown, "```", ""]  # fmt: skip
    return "\n".join(lines)


def test_the_mistakes_doc_shows_what_the_code_says() -> None:
    text = (ROOT / "docs" / "mistakes.md").read_text("utf-8")
    assert text == render(), "regenerate: python tests/test_mistakes_doc.py > docs/mistakes.md"
    assert len(MISTAKES) >= 15
    assert "[docs/mistakes.md](docs/mistakes.md)" in (ROOT / "README.md").read_text("utf-8")


if __name__ == "__main__":
    print(render(), end="")

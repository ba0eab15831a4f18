"""Where the released XL-DocBench evaluator is: ``../shared/peers/xldocbench_evaluate.py``.

Beside the repository (CI and this machine have ``../shared/``; a fresh clone may not:
then :data:`RELEASED` is ``None`` and the tests comparing with it skip with
:data:`SKIP_REASON`). Imports nothing of assay, so benches may use it too.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RELEASED_NAME = "xldocbench_evaluate.py"


def released_script(root: Path = ROOT) -> Path | None:
    """``../shared/peers/xldocbench_evaluate.py`` beside the repository, or ``None``.

    For a linked git worktree the main checkout's ``../shared`` counts too (its
    ``.git`` file names ``MAIN/.git/worktrees/NAME``).
    """
    roots = [root]
    git = root / ".git"
    if git.is_file():
        gitdir = Path(git.read_text(encoding="utf-8").partition("gitdir:")[2].strip())
        if gitdir.parent.name == "worktrees":
            roots.append(gitdir.parent.parent.parent)
    for base in roots:
        candidate = base.parent / "shared" / "peers" / RELEASED_NAME
        if candidate.is_file():
            return candidate
    return None


RELEASED = released_script()
SKIP_REASON = (
    f"the released evaluator ../shared/peers/{RELEASED_NAME} is not beside the repository "
    "(a clone without shared/): nothing to compare against"
)

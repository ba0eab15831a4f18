"""Tie groups: rank groups of systems that no significant difference separates.

* :func:`tie_groups` — walking systems best-first, a system joins the group of the
  next-better system only if their difference is not significant (``p > alpha``) *and*
  their test could have separated them; otherwise it starts a new rank group.

A tie is only evidence when the test could have separated the pair (its smallest
attainable p, after the correction, reaches alpha; see
:func:`~assay.stats.guard.could_separate`). Sampled tests are made able to by the
power guard; the exact sign-flip test on a handful of discordant items cannot be.
Such a pair never merges two systems into one group: it is listed in ``unresolved``
(no evidence either way, neither a tie nor a significant difference), the two keep
separate groups in rank order, and every renderer says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from assay.errors import InvalidInputError
from assay.stats._common import check_probability, record_dict


@dataclass(frozen=True, slots=True)
class TieGroups:
    """Rank groups of systems ordered best first.

    Attributes:
        systems: system names, best first.
        groups: 1-based rank group of each system (parallel to ``systems``).
        members: the systems of each group, group 1 first.
        p_next_better: p-value of each system against the next-better one
            (``None`` for the first).
        alpha: significance level separating groups.
        unresolved: adjacent pairs ``(better, worse)``, not significant, whose test could
            not have separated them at all: no evidence either way, so not a tie; the two
            are in consecutive groups (never merged).
    """

    systems: tuple[str, ...]
    groups: tuple[int, ...]
    members: tuple[tuple[str, ...], ...]
    p_next_better: tuple[float | None, ...]
    alpha: float
    unresolved: tuple[tuple[str, str], ...] = ()

    def group_of(self, system: str) -> int:
        """Return the rank group of ``system``."""
        try:
            return self.groups[self.systems.index(system)]
        except ValueError:
            raise InvalidInputError(
                f"unknown system {system!r}; known: {', '.join(self.systems)}."
            ) from None

    def to_dict(self) -> dict[str, Any]:
        """Return the canonical JSON form (sorted keys)."""
        return record_dict(self)


def _pair_p(p_values: Mapping[tuple[str, str], float], x: str, y: str) -> float:
    """Look up the p-value of a pair in either order."""
    for key in ((x, y), (y, x)):
        if key in p_values:
            value = float(p_values[key])
            if not 0.0 <= value <= 1.0:
                raise InvalidInputError(f"p-value of {key} must lie in [0, 1], got {value}.")
            return value
    raise InvalidInputError(
        f"no p-value for the pair ({x!r}, {y!r}); pass p_values keyed by (system, system)."
    )


def tie_groups(
    ranked: Sequence[str],
    p_values: Mapping[tuple[str, str], float],
    *,
    alpha: float = 0.05,
    separable: Mapping[tuple[str, str], bool] | None = None,
) -> TieGroups:
    """Group systems whose difference from the next-better system is a measured tie.

    A measured tie: not significant, from a test that could have separated the pair.

    Args:
        ranked: system names sorted best first.
        p_values: p-value per pair keyed ``(x, y)`` in either order (pass
            Holm-adjusted p-values to control the family-wise error rate);
            only adjacent pairs are read.
        alpha: significance level: ``p <= alpha`` (significant, as in :func:`holm`)
            starts a new group.
        separable: per pair (either order), whether its test could have reached
            ``alpha`` at all; a pair that could not and is not significant goes to
            ``unresolved`` and starts a new group instead of counting as a tie
            (missing pairs: could).

    Returns:
        :class:`TieGroups` with 1-based group numbers (group 1 holds the best system).
    """
    alpha = check_probability(alpha, "alpha")
    systems = tuple(str(s) for s in ranked)
    if len(set(systems)) != len(systems):
        raise InvalidInputError(f"ranked: system names must be unique, got {list(systems)}.")
    groups: list[int] = []
    p_next: list[float | None] = []
    unresolved: list[tuple[str, str]] = []
    for position, system in enumerate(systems):
        if position == 0:
            groups.append(1)
            p_next.append(None)
            continue
        better = systems[position - 1]
        p = _pair_p(p_values, better, system)
        p_next.append(p)
        tied = p > alpha
        if tied and not _separable(separable, better, system):
            unresolved.append((better, system))
            tied = False  # no test that could separate them: no evidence of a tie either
        groups.append(groups[-1] if tied else groups[-1] + 1)
    members = tuple(
        tuple(s for s, g in zip(systems, groups, strict=True) if g == group)
        for group in sorted(set(groups))
    )
    return TieGroups(systems, tuple(groups), members, tuple(p_next), alpha, tuple(unresolved))


def _separable(separable: Mapping[tuple[str, str], bool] | None, x: str, y: str) -> bool:
    """Whether the pair's test could have separated it (``True`` when not given)."""
    if separable is None:
        return True
    return bool(separable.get((x, y), separable.get((y, x), True)))

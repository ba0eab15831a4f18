"""Issue 15: a seeded mutation fuzzer over every command finds nothing (bounded for CI).

120 cases (seed 15) visit every command × mutation class of :mod:`fuzz_harness`:
truncations, byte flips, wrong types, huge values, number literals Python cannot
hold, deep nesting, dropped/repeated lines, line-end oddities and links (symlink
loops, dangling links, directories, FIFOs, an output hard-linked to an input). Each
run fails the test on a traceback, a hang (30 s), a silent loss (rows counted from
the mutated input) or a second run (another hash seed) giving other bytes. Run many
more with ``FUZZ_RUNS=3000 python bench/fuzz.py``.
"""

from __future__ import annotations

from pathlib import Path

from fuzz_harness import COMMANDS, MUTATIONS, fuzz, make_seeds

RUNS, SEED = 120, 15


def test_fuzz_every_command_finds_nothing(tmp_path: Path) -> None:
    seeds = make_seeds(tmp_path / "seeds")
    figures = fuzz(seeds, tmp_path, RUNS, SEED)
    assert figures.runs == RUNS
    assert set(figures.classes) == set(MUTATIONS)
    assert figures.problems() == [], figures.summary()
    assert figures.exits[0] > 0 and sum(figures.exits.values()) > figures.exits[0]


def test_fuzz_cases_cover_every_command_and_class() -> None:
    from fuzz_harness import cases

    chosen = cases(len(COMMANDS) * len(MUTATIONS), SEED)
    assert {(c.command, c.mutation) for c in chosen} == {
        (c, m) for c in COMMANDS for m in MUTATIONS
    }
    assert cases(50, SEED) == cases(50, SEED)  # seeded: the same cases every time

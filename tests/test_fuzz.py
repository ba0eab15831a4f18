"""Issues 15 and 31: a seeded mutation fuzzer over every command finds nothing (bounded for CI).

One case per command × mutation class of :mod:`fuzz_harness` (seed 15): the commands
of issue 15 (eval, compare, report, diff, score --file, structured, check) and of
issue 31 (rescore on lm-eval folders and samples files and on inspect_ai ``.eval`` and
``.json`` logs, judge, judge-calibrate, code, report --format parquet, structured with
the LLM judge), under truncations, byte flips, wrong types, huge values, number
literals Python cannot hold, deep nesting, dropped/repeated lines, line-end oddities,
links (symlink loops, dangling links, directories, FIFOs, an output hard-linked to an
input), lone surrogates, corrupt archives and ledgers, an output onto a file the
command reads (named or not), and hostile replies from the judge server the harness
starts on 127.0.0.1. Each run fails the test on a traceback, a hang (30 s), a silent
loss (rows counted from the mutated input; an input whose bytes changed) or a second
run (another hash seed) giving other bytes. Run many more with
``FUZZ_RUNS=3000 python bench/fuzz.py``.
"""

from __future__ import annotations

from pathlib import Path

import fuzz_targets
from fuzz_harness import COMMANDS, MUTATIONS, applies, cases, fuzz, make_seeds

SEED = 15
PAIRS = {(c, m) for c in COMMANDS for m in MUTATIONS if applies(c, m)}


def test_fuzz_every_command_finds_nothing(tmp_path: Path) -> None:
    seeds = make_seeds(tmp_path / "seeds")
    figures = fuzz(seeds, tmp_path, len(PAIRS), SEED, determinism_every=2)
    assert figures.runs == len(PAIRS)
    assert set(figures.classes) == set(MUTATIONS)
    assert figures.problems() == [], figures.summary()
    assert figures.exits[0] > 0 and sum(figures.exits.values()) > figures.exits[0]


def test_fuzz_cases_cover_every_command_and_class() -> None:
    chosen = cases(len(PAIRS), SEED)
    assert {(c.command, c.mutation) for c in chosen} == PAIRS
    assert set(fuzz_targets.COMMANDS) <= {c.command for c in chosen}
    assert {"rescore", "judge", "judge-calibrate", "code"} <= {
        COMMANDS[c][1](_any_files(), Path("out"))[0] for c in COMMANDS
    }
    hostile = {c.command for c in chosen if c.mutation == "hostile_judge"}
    assert hostile == set(fuzz_targets.JUDGE_COMMANDS)
    assert cases(50, SEED) == cases(50, SEED)  # seeded: the same cases every time


def _any_files() -> dict[str, Path]:
    class Every(dict[str, Path]):
        def __missing__(self, key: str) -> Path:
            return Path(f"{key}.jsonl")

    return Every()

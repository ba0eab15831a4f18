"""tests/xl_reference.py agrees with the released evaluator's own functions.

The released file (``../shared/peers/xldocbench_evaluate.py``) is loaded in a separate
process, which computes ``normalize_answer`` and ``token_f1_score`` of every pair of the
generator's hostile strings; the in-process restatement must give the same values.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys

import pytest

import xl_reference as ref
from xl_generator import POOLS, SPACES
from xl_released import RELEASED, SKIP_REASON

ORACLE = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("released", sys.argv[1])
released = sys.modules["released"] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(released)
pairs = json.load(sys.stdin)
out = [[released.normalize_answer(p), released.token_f1_score(p, g)] for p, g in pairs]
json.dump(out, sys.stdout)
"""


@pytest.mark.skipif(RELEASED is None, reason=SKIP_REASON)
def test_normalize_and_token_f1_equal_the_released_functions() -> None:
    texts = sorted({t for pool in POOLS for t in pool} | {f"x{s}y the" for s in SPACES})
    pairs = list(itertools.product(texts, texts[::7]))
    done = subprocess.run(
        [sys.executable, "-c", ORACLE, str(RELEASED)], input=json.dumps(pairs), text=True,
        capture_output=True, timeout=120, check=True,
    )  # fmt: skip
    expected = json.loads(done.stdout)
    got = [[ref.normalize(p), ref.token_f1(p, g)] for p, g in pairs]
    assert got == expected
    assert len(pairs) > 1000

r"""The released XL-DocBench normalisation and token F1, restated for in-process tests.

The released evaluator itself (``../shared/peers/xldocbench_evaluate.py``) is the
oracle of the ``xldocbench`` profile: the differential tests run it as a separate
process and compare every output byte for byte. What stays here are the two pure text
functions that hypothesis and property tests call thousands of times in-process
(``tests/test_eval_hotpath.py``, ``tests/test_scoring_fastpaths.py``,
``tests/test_token_f1_set_batch.py``), where one process per example would be far too
slow and where a clone without ``../shared/`` still needs a literal statement of the
rule. ``tests/test_xl_reference.py`` holds them to the released file's own functions.
Imports nothing from assay.
"""

from __future__ import annotations

import re


def normalize(text: str) -> str:
    """Strip, lowercase, drop the answer prefixes, punctuation and articles, squeeze spaces."""
    text = text.strip().lower()
    for prefix in ("the answer is", "answer:", "answer is"):
        if text.startswith(prefix):
            text = text[len(prefix) :].strip()
    text = re.sub(r"[^\w\s.\-%]", "", text)
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return re.sub(r"\s+", " ", text).strip()


def token_f1(pred: str, gold: str) -> float:
    """F1 of the token sets of the normalised texts (empty gold: 1 iff no tokens predicted)."""
    ps, gs = set(normalize(pred).split()), set(normalize(gold).split())
    if not gs:
        return 1.0 if not ps else 0.0
    common = len(ps & gs)
    if not ps or common == 0:
        return 0.0
    precision, recall = common / len(ps), common / len(gs)
    return 2 * precision * recall / (precision + recall)

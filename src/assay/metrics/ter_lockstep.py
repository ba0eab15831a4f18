r"""TER statistics of a whole corpus, the shift searches of its pairs run in lockstep.

Each pair's Tercom search (:func:`assay.metrics.ter_search.shift_search`) asks for one
alignment per shift round. :func:`ter_edits_many` advances the searches of all pairs whose
references have ``NUMPY_FROM`` (:mod:`assay.metrics.ter_table`) words or more
together, a round at a time, and builds that round's banded tables for all of them by
one NumPy row step (:func:`assay.metrics.ter_band.band_rows_many`); pairs with shorter
references run the per-pair search alone (:func:`assay.metrics.ter_search.ter_edits`).
TER's ``batch_stats_fn`` (:mod:`assay.metrics.ter`) gives it every (hypothesis,
reference) pair of a corpus. Every search still takes its own steps,
so the edits, the statistics and the scores are the same numbers as the per-pair search
gives (and sacrebleu's); ``tests/test_ter_lockstep.py`` checks both.
It imports the search from :mod:`assay.metrics.ter_search`, never :mod:`assay.metrics.ter`
(which imports it); NumPy is loaded by :mod:`assay.metrics.ter_band` when tables are built.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

from assay.metrics.ter_search import Request, Traced, shift_search, ter_edits
from assay.metrics.ter_table import NUMPY_FROM


def ter_edits_many(pairs: Sequence[tuple[Sequence[str], Sequence[str]]]) -> list[int]:
    """:func:`~assay.metrics.ter_search.ter_edits` of every ``(hyp, ref)`` pair, in lockstep.

    Each pair's search (:func:`~assay.metrics.ter_search.shift_search`) asks for one
    alignment per shift round; the rounds of all pairs with references of ``NUMPY_FROM``
    words or more are served together (shorter ones run alone,
    :func:`~assay.metrics.ter_search.ter_edits`),
    and their banded tables are built by one NumPy row step for all of them
    (:func:`assay.metrics.ter_band.band_rows_many`: the same rows as
    :func:`~assay.metrics.ter_table.band_rows` table by table). Each search's own steps, and
    so its result, are unchanged.
    """
    results = [0] * len(pairs)
    pending: list[tuple[int, Generator[Request, Traced, int], Request]] = []

    def advance(index: int, search: Generator[Request, Traced, int], value: Any) -> None:
        try:
            request = search.send(value)
        except StopIteration as stop:
            results[index] = stop.value
        else:
            pending.append((index, search, request))

    for index, (hyp, ref) in enumerate(pairs):
        if len(ref) < NUMPY_FROM:  # its table is not built in NumPy: nothing to share
            results[index] = ter_edits(hyp, ref)
        else:
            search = shift_search(hyp, ref)
            if isinstance(search, int):
                results[index] = search
            else:
                advance(index, search, None)
    while pending:
        batch, pending = pending, []
        big = [n for n, (_, _, (table, words)) in enumerate(batch)
               if table.n_ref >= NUMPY_FROM and words]  # fmt: skip
        bands: dict[int, Any] = {}
        if len(big) > 1:
            from assay.metrics.ter_band import band_rows_many

            computed = band_rows_many([batch[n][2][0] for n in big], [batch[n][2][1] for n in big])
            bands = dict(zip(big, computed, strict=True))
        for n, (index, search, (table, words)) in enumerate(batch):
            advance(index, search, table.trace(words, bands.get(n)))
    return results

"""The words for a system's counts, defined once; every surface uses them alike.

For a system with ``G`` gold questions, of which ``M`` have no prediction row:

=============  ===========================================================================
``n``          the questions a figure is over: all ``G`` (a missing prediction is
               scored as ""), or ``G - M`` under ``--ignore-missing``. Every mean,
               interval and ``k/n`` is over ``n``. The released layout's
               ``evaluated_count`` (``report.json``, the xldocbench summary's
               ``evaluated``) is this number, under its released name.
``evaluated``  the questions with a prediction row, ``G - M``, whatever the options;
               written ``evaluated/G`` (``47/48``). Evaluated = scored + empty +
               status_substituted.
``scored``     the accounting bucket: evaluated questions with non-blank text and a
               normal status (see :mod:`assay.evaluation.align`).
``correct``    the questions with accuracy 1; written ``correct/n`` (``37/48``).
=============  ===========================================================================

The terminal summary and leaderboard, ``result.json`` (``evaluated``, ``n``,
``accuracy_rate.k``), the Markdown and HTML reports, the repr and ``summary_frame()``
read these functions (or the document fields they fill); none counts on its own.
"""

from __future__ import annotations

from assay.evaluation.benchmark import SystemResult


def evaluated(system: SystemResult) -> int:
    """The questions with a prediction row (gold minus missing)."""
    return system.gold_count - system.missing_prediction_count


def questions_over(system: SystemResult) -> int:
    """``n``: the questions every figure of the system is over."""
    return system.evaluated_count  # the released name of n (len(system.questions))


def correct(system: SystemResult) -> int:
    """The questions with accuracy 1."""
    return sum(1 for q in system.questions if q.accuracy == 1.0)

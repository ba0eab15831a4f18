"""Renderers (layer 5): they read result records and never recompute a number.

One subpackage per record family, so the folder shows which renderer reads which record:

* :mod:`assay.report.release` — the **release report** of ``assay eval``
  (an :class:`~assay.evaluation.runs.EvaluationResult`): the released XL-DocBench
  ``report.json`` layout with its provenance block, the per-question CSV,
  ``results/scores.jsonl`` + ``results/summary.json`` and the plain-text summary.
* :mod:`assay.report.result` — the **result document** (``assay-result.json``, kind
  ``assay.result``): its JSON writer/reader and schema check, per-item CSV, Markdown,
  rich terminal view and the self-contained HTML report with its inline SVG plots.
* :mod:`assay.report.structured` — the **structured report**
  (``StructuredReport.to_dict()``, kind ``assay.structured``): JSON, per-item JSONL/CSV
  and the terminal view.

Shared helpers stay at the top: :mod:`assay.report.markdown` (number formatting and
Markdown tables over plain rows) and :mod:`assay.report.diff_text` (the text of a
report diff from :mod:`assay.evaluation.diff`).
"""

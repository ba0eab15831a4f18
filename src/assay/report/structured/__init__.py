"""The structured report (``assay structured``): JSON, per-item JSONL/CSV, terminal view."""

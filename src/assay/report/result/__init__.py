"""The result document (``assay-result.json``): JSON, schema, CSV, Markdown, terminal, HTML."""

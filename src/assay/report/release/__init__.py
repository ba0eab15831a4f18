"""The release report of ``assay eval``: the released XL-DocBench layout and its sidecars."""

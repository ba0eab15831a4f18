"""The command-line interface (thin: parse, call the library, render)."""

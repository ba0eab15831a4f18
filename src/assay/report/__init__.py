"""Renderers: they read result records and never recompute a number."""

"""Renderers (layer 5): they read result records and never recompute a number."""

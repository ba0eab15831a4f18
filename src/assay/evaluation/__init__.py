"""Benchmark evaluation: align gold and predictions, score with a profile, aggregate."""

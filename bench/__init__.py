"""Benchmarks: a synthetic corpus with ground truth, and the measurements run over it."""

"""Benchmarks run by `make bench`; each prints its figures (they are never timed tests)."""

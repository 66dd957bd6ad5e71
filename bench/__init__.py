"""Benchmarks against peers; `make bench` runs them all and prints the ratios."""

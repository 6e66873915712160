"""Benchmarks: each prints one JSON line (README, "Benchmarks")."""

import sys

from tests.benchmarks import _on_path

# ``import _on_path`` in a benchmark run as a module finds this one (tests/benchmarks/_on_path.py says why)
sys.modules.setdefault("_on_path", _on_path)

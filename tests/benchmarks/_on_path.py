"""Puts the repository on ``sys.path``, so that a benchmark run as a file (``python tests/benchmarks/X.py``:
Python puts only ``tests/benchmarks`` there) imports ``tests.…`` as it does under ``python -m tests.benchmarks.X``.

Every benchmark imports it first, as ``import _on_path``: as a file, it is found beside the benchmark; as a
module, ``tests/benchmarks/__init__.py`` has already registered it under that name.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]

if str(REPOSITORY) not in sys.path:
    sys.path.insert(0, str(REPOSITORY))

"""Every benchmark runs as the README says, both ``python tests/benchmarks/X.py`` and
``python -m tests.benchmarks.X`` (issue 24: three failed as files with ModuleNotFoundError: tests).

Loading each one both ways (its imports, not its run) is enough: a benchmark's main is behind
``if __name__ == "__main__"``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[1]
BENCHMARKS = sorted(path.stem for path in (REPOSITORY / "tests" / "benchmarks").glob("*.py")
                    if not path.stem.startswith("_"))  # __init__, and _on_path (what each imports first)


def test_every_benchmark_has_a_main_guard() -> None:
    assert len(BENCHMARKS) >= 17
    for name in BENCHMARKS:
        assert 'if __name__ == "__main__":' in (REPOSITORY / "tests" / "benchmarks" / f"{name}.py").read_text()


@pytest.mark.parametrize("name", BENCHMARKS)
def test_a_benchmark_loads_as_a_file_and_as_a_module(name: str, tmp_path: Path) -> None:
    path = REPOSITORY / "tests" / "benchmarks" / f"{name}.py"
    # as a file, from elsewhere: sys.path[0] is not the repository, as under `python tests/benchmarks/X.py`
    as_file = ("import runpy, sys; sys.path[0] = sys.argv[1]; "
               "runpy.run_path(sys.argv[1] + '/' + sys.argv[2] + '.py', run_name='loaded')")
    loaded = subprocess.run([sys.executable, "-c", as_file, str(path.parent), name], cwd=tmp_path,
                            capture_output=True, text=True, timeout=120)
    assert loaded.returncode == 0, loaded.stderr[-2000:]
    as_module = f"import importlib; importlib.import_module('tests.benchmarks.{name}')"
    loaded = subprocess.run([sys.executable, "-c", as_module], cwd=REPOSITORY, capture_output=True, text=True,
                            timeout=120)
    assert loaded.returncode == 0, loaded.stderr[-2000:]

"""Every benchmark runs as the README says, both ``python tests/benchmarks/X.py`` and
``python -m tests.benchmarks.X`` (issue 24: three failed as files with ModuleNotFoundError: tests).

Loading each one both ways (its imports, not its run) is enough: a benchmark's main is behind
``if __name__ == "__main__"``. One interpreter loads them all each way (two interpreters per benchmark took
~45 s of the suite, mostly importing the same libraries again): before each file, the path is what
``python tests/benchmarks/X.py`` gives (the benchmarks' folder first, not the repository) and every module of
``tests`` already loaded is forgotten, so each file must find ``tests`` by itself as it would alone.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
BENCHMARKS = sorted(path.stem for path in (REPOSITORY / "tests" / "benchmarks").glob("*.py")
                    if not path.stem.startswith("_"))  # __init__, and _on_path (what each imports first)

AS_FILES = """
import json, runpy, sys, traceback
folder, names = sys.argv[1], sys.argv[2:]
path, failures = [folder] + sys.path[1:], {}
for name in names:
    sys.path[:] = path  # as `python tests/benchmarks/X.py` from elsewhere: sys.path[0] is the benchmarks' folder
    for module in [module for module in sys.modules if module == "_on_path" or module.split(".")[0] == "tests"
                   or (getattr(sys.modules[module], "__file__", None) or "").startswith(folder)]:
        del sys.modules[module]
    try:
        runpy.run_path(folder + "/" + name + ".py", run_name="loaded")
    except BaseException:
        failures[name] = traceback.format_exc()[-2000:]
print(json.dumps(failures))
"""

AS_MODULES = """
import importlib, json, sys, traceback
failures = {}
for name in sys.argv[1:]:
    try:
        importlib.import_module("tests.benchmarks." + name)
    except BaseException:
        failures[name] = traceback.format_exc()[-2000:]
print(json.dumps(failures))
"""


def test_every_benchmark_has_a_main_guard() -> None:
    assert len(BENCHMARKS) >= 17
    for name in BENCHMARKS:
        assert 'if __name__ == "__main__":' in (REPOSITORY / "tests" / "benchmarks" / f"{name}.py").read_text()


def loaded(script: str, arguments: list[str], cwd: Path) -> dict[str, str]:
    """The benchmarks ``script`` could not load (name → the end of its traceback)."""
    run = subprocess.run([sys.executable, "-c", script, *arguments], cwd=cwd, capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    failures: dict[str, str] = json.loads(run.stdout.strip().splitlines()[-1])
    return failures


def test_every_benchmark_loads_as_a_file(tmp_path: Path) -> None:
    assert loaded(AS_FILES, [str(REPOSITORY / "tests" / "benchmarks"), *BENCHMARKS], tmp_path) == {}


def test_every_benchmark_loads_as_a_module() -> None:
    assert loaded(AS_MODULES, BENCHMARKS, REPOSITORY) == {}

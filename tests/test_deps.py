"""scripts/deps.py: the import graph check fails on a made-up cycle and on each broken layering rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts.deps import main, problems, read_graph


def write(root: Path, files: dict[str, str]) -> Path:
    for name in ("engine", "hosting", "tui"):
        (root / name).mkdir(exist_ok=True)
        (root / name / "__init__.py").touch()
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    return root


def test_a_clean_tree_has_no_problem_and_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write(tmp_path, {"engine/cards.py": "", "hosting/room.py": "from engine import cards\n",
                            "tui/app.py": "from hosting.room import Room\n",
                            "hosting/cli.py": "def main():\n    from tui.app import App\n"})
    assert problems(read_graph(root)) == []
    assert main(["--root", str(root)]) == 0
    printed = capsys.readouterr().out
    assert "  hosting.room -> engine.cards\n" in printed
    assert "  tui -> hosting\n" in printed  # the package graph
    assert "0 problem(s)" in printed


def test_a_cycle_fails_even_when_hidden_in_a_function_or_behind_type_checking(tmp_path: Path) -> None:
    root = write(tmp_path, {
        "hosting/store/__init__.py": "from hosting.store.hands import Hands\n",
        "hosting/store/hands.py": "def report():\n    from hosting.records import load\n",
        "hosting/records.py": "from hosting import room\n",
        "hosting/room.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from hosting.store import Store\n",
    })
    assert problems(read_graph(root)) == [
        "import cycle: hosting.records -> hosting.room -> hosting.store -> hosting.store.hands -> hosting.records"]
    assert main(["--root", str(root)]) == 1


def test_relative_imports_are_resolved(tmp_path: Path) -> None:
    root = write(tmp_path, {"tui/widgets/__init__.py": "", "tui/widgets/felt.py": "from ..app import App\n",
                            "tui/app.py": "from .widgets import felt\n"})
    assert problems(read_graph(root)) == ["import cycle: tui.app -> tui.widgets.felt -> tui.app"]


def test_hosting_may_not_use_the_tui_outside_the_command_line(tmp_path: Path) -> None:
    root = write(tmp_path, {
        "tui/served.py": "", "tui/app.py": "",
        "hosting/pty_session.py": 'import sys\nARGS = [sys.executable, "-m", "tui.served"]\n',
        "hosting/bots.py": "def show():\n    import tui.app\n",
        "hosting/cli.py": "import tui.app\n",
        "hosting/commands/__init__.py": "", "hosting/commands/play.py": "from tui import app\n",
        "hosting/words.py": '"""Mentions tui.served in prose only."""\n',
    })
    assert problems(read_graph(root)) == [
        "only the command line (hosting.cli, hosting.commands) may use the TUI: hosting.bots:2 imports tui.app",
        "only the command line (hosting.cli, hosting.commands) may use the TUI: hosting.pty_session:2 names tui.served",
    ]


def test_nothing_imports_the_command_line(tmp_path: Path) -> None:
    root = write(tmp_path, {"hosting/commands/__init__.py": "", "hosting/commands/parser.py": "",
                            "hosting/cli.py": "from hosting.commands import parser\n",
                            "tui/host_screen.py": "from hosting.commands.parser import parse\n"})
    assert problems(read_graph(root)) == [
        "nothing uses the command line (it is the composition root): tui.host_screen:1 imports hosting.commands.parser"]


def test_the_engine_imports_neither_hosting_nor_the_tui(tmp_path: Path) -> None:
    root = write(tmp_path, {"hosting/store.py": "", "engine/hand.py": "from hosting.store import Store\n"})
    assert problems(read_graph(root)) == ["the engine is pure: engine.hand:1 imports hosting.store"]


def test_this_repository_keeps_the_rules() -> None:
    root = Path(__file__).resolve().parents[1]
    graph = read_graph(root)
    assert {"engine.hand", "hosting.store.db", "tui.app", "hosting.cli"} <= graph.modules
    assert problems(graph) == []

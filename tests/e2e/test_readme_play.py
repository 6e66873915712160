"""The README's first command on a fresh clone, in a fresh virtual environment, under tmux (issue 9).

It installs croupier with pip (pip may reuse its cache; no network needed when the cache has everything) and
runs ``croupier play``: the practice table must show cards, and the C key (check/call) plays a hand to its
end. Then ``croupier play`` is started again from the installed environment and must show the table with
cards (a hang guard that waits while the screen or croupier's CPU time moves: how fast it starts is a
benchmark's question, not a test's). Skips (with the reason) when tmux or git is missing.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.e2e.tmux import Tmux, have_tmux

REPO = Path(__file__).resolve().parents[2]
SUIT = re.compile("[♠♥♦♣]")

pytestmark = [
    pytest.mark.skipif(not have_tmux(), reason="tmux is not installed"),
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
    pytest.mark.timeout(1200),
]


def readme_commands() -> list[str]:
    """The shell commands of the README's ```sh blocks, in order."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", text, re.S)]


def table_with_cards(screen: str) -> bool:
    # our own hole cards are face up (suit glyphs) and the hand number is on the table's header
    return "hand #" in screen and SUIT.search(screen) is not None


def hand_log(screen: str) -> list[str]:
    """The hand log column (right of the table's last vertical rule): it grows by a line with each action."""
    return [line.rsplit("│", 1)[1].strip() for line in screen.splitlines() if "│" in line]


def play_one_hand(tmux: Tmux) -> str:
    """Press C (check/call) whenever it is our turn until the next hand starts; the screen at that point.

    A press has landed when the hand log changes ("You check", "You call 2"): our turn can go on across
    streets (first to act on the next street), so "YOUR TURN" may never leave the screen between presses."""
    first = tmux.wait_for(lambda screen: re.search(r"hand #(\d+)", screen) is not None, 60, "a hand number")
    number = int(re.search(r"hand #(\d+)", first).group(1))  # type: ignore[union-attr]
    for _ in range(200):
        screen = tmux.screen()
        now = re.search(r"hand #(\d+)", screen)
        if now is not None and int(now.group(1)) > number:
            return screen
        if "YOUR TURN" in screen:
            before = hand_log(screen)
            tmux.keys("c")
            tmux.wait_for(lambda shown, before=before: hand_log(shown) != before or "YOUR TURN" not in shown
                          or f"hand #{number + 1}" in shown, 60, "the move to be taken")
        else:
            tmux.wait_for(lambda shown: "YOUR TURN" in shown or f"hand #{number + 1}" in shown, 60,
                          "our turn or the next hand")
    raise AssertionError("the hand did not end")


def test_readme_first_command_installs_and_plays(tmp_path: Path) -> None:
    commands = readme_commands()
    assert commands and commands[0].endswith("croupier play"), commands[:1]
    assert "pip install -e ." in commands[0]
    clone = tmp_path / "croupier"
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True)
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "TERM": "xterm-256color", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    tmux = Tmux(tmp_path / "tmux.sock")
    try:
        tmux.start(commands[0], clone, env)
        screen = tmux.wait_for(lambda shown: table_with_cards(shown) or "COMMAND-ENDED" in shown, 900,
                               "pip install, then the practice table with cards")
        assert "COMMAND-ENDED" not in screen, screen
        assert "practice" in screen
        screen = play_one_hand(tmux)
        assert "Traceback" not in screen
        tmux.keys("C-q")
        tmux.wait_for(lambda shown: "COMMAND-ENDED" in shown, 60, "croupier play to quit on Ctrl+Q")
        tmux.kill()
        # started again from the environment the README made: the table with cards, nothing installed again
        tmux = Tmux(tmp_path / "tmux2.sock")
        tmux.start(". .venv/bin/activate && croupier play", clone, env)
        screen = tmux.wait_for(table_with_cards, 60, "the table with cards")
        assert "Traceback" not in screen
    finally:
        tmux.kill()

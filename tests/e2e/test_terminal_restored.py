"""``kill PID`` (SIGTERM) on ``croupier play`` ends it like Ctrl+Q: the terminal leaves the alternate screen,
mouse reporting is off and the cursor is back (before, the shell was left unusable until ``reset``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.tmux import Tmux, have_tmux

pytestmark = pytest.mark.skipif(not have_tmux(), reason="tmux is not installed")


def terminal_state(tmux: Tmux) -> str:
    return subprocess.run(["tmux", "-S", tmux.socket, "display", "-p", "-t", tmux.name,
                           "alt=#{alternate_on} mouse=#{mouse_any_flag} cursor=#{cursor_flag}"],
                          capture_output=True, text=True, check=True).stdout.strip()


def test_sigterm_on_croupier_play_gives_the_terminal_back(tmp_path: Path) -> None:
    croupier = Path(sys.executable).parent / "croupier"
    pid_file = tmp_path / "pid"
    tmux = Tmux(tmp_path / "tmux.sock")
    try:
        # in the foreground (a background job has no terminal): the shell writes its pid, then becomes croupier
        tmux.start(f"sh -c 'echo $$ > {pid_file}; exec {croupier} play --data {tmp_path / 'data'}'; echo EXIT=$?",
                   tmp_path, {"TERM": "xterm-256color"}, width=100, height=30)
        tmux.wait_for(lambda screen: "hand #" in screen, 60, "the practice table")
        assert terminal_state(tmux) == "alt=1 mouse=1 cursor=0"  # the app owns the terminal
        os.kill(int(pid_file.read_text()), signal.SIGTERM)
        screen = tmux.wait_for(lambda shown: "EXIT=" in shown, 60, "croupier play to end")
        assert "EXIT=0" in screen and "Traceback" not in screen
        assert terminal_state(tmux) == "alt=0 mouse=0 cursor=1"
    finally:
        tmux.kill()

"""A tmux session as a test harness: start a command in a fixed-size window, read the screen, send keys."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.waiting import QUIET, Progress, cpu_ticks, wait_until


def have_tmux() -> bool:
    return shutil.which("tmux") is not None


class Tmux:
    """One detached tmux session (its own server socket, so tests never touch a user's tmux)."""

    def __init__(self, socket: Path, name: str = "e2e") -> None:
        self.socket = str(socket)
        self.name = name
        self._pane_pid: int | None = None

    def _tmux(self, *arguments: str) -> str:
        return subprocess.run(["tmux", "-S", self.socket, *arguments], check=True, capture_output=True,
                              text=True).stdout

    def start(self, command: str, cwd: Path, env: dict[str, str], width: int = 120, height: int = 40) -> None:
        exports = " ".join(f"{key}={value!r}" for key, value in env.items())
        # keep the window open after the command ends so its last screen can still be read
        self._tmux("new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height), "-c", str(cwd),
                   f"env {exports} bash -c {_quote(command + '; echo COMMAND-ENDED; sleep 600')}")

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", self.name)

    def keys(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", self.name, *keys)

    def pane_pid(self) -> int:
        if self._pane_pid is None:
            self._pane_pid = int(self._tmux("display", "-p", "-t", self.name, "#{pane_pid}"))
        return self._pane_pid

    def activity(self) -> tuple[str, int]:
        """What shows this session is moving: its screen, and the CPU time of the processes in its window."""
        return self.screen(), cpu_ticks(self.pane_pid())

    def wait_for(self, condition: Callable[[str], bool], quiet: float = QUIET, what: str = "the screen",
                 also: Progress | None = None) -> str:
        """The screen once ``condition(screen)`` holds; fails only after ``quiet`` seconds in which neither the
        screen nor the window's processes (nor ``also()``, e.g. the room's session) moved (tests.waiting)."""
        shown = [""]

        def ready() -> bool:
            shown[0] = self.screen()
            return condition(shown[0])

        def moved() -> object:
            return self.activity(), also() if also is not None else None

        try:
            wait_until(ready, what, quiet=quiet, progress=moved)
        except AssertionError as stalled:
            raise AssertionError(f"{stalled}; the screen was:\n{shown[0]}") from None
        return shown[0]

    def kill(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True)


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"

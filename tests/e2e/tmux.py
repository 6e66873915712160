"""A tmux session as a test harness: start a command in a fixed-size window, read the screen, send keys."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path


def have_tmux() -> bool:
    return shutil.which("tmux") is not None


class Tmux:
    """One detached tmux session (its own server socket, so tests never touch a user's tmux)."""

    def __init__(self, socket: Path, name: str = "e2e") -> None:
        self.socket = str(socket)
        self.name = name

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

    def wait_for(self, condition: Callable[[str], bool], timeout: float, what: str) -> str:
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if condition(screen):
                return screen
            time.sleep(0.2)
        raise AssertionError(f"timed out after {timeout}s waiting for {what}; the screen was:\n{screen}")

    def kill(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True)


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"

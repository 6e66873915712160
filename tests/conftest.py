"""Every test gets a home of its own (issue 24): the suite passes the same on a developer's machine, with keys in
``~/.ssh``, an ssh-agent and a ``~/.config/croupier``, as on a bare CI runner.

The fixture changes ``os.environ``, so the ``croupier`` processes a test starts see the same home. The OpenSSH
client reads its home from the password database, not ``$HOME``: tests that run ``ssh`` pass ``-F`` and
``IdentityFile`` themselves.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

# What a user's shell may set that changes how croupier, asyncssh or Textual behave: keys and agents, locale,
# terminal size and colours, tmux, croupier's own switches. The sample-size knobs (CROUPIER_*_HANDS,
# CROUPIER_*_EXAMPLES, ...) stay: they are set on purpose to run a sweep longer.
REMOVED = ("SSH_AUTH_SOCK", "SSH_AGENT_PID", "SSH_ASKPASS", "SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY",
           "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "LANGUAGE", "COLUMNS", "LINES", "COLORTERM", "NO_COLOR",
           "FORCE_COLOR", "TEXTUAL", "TMUX", "TMUX_PANE", "STY", "CROUPIER_LOG_LEVEL", "CROUPIER_HAND_PAUSE")
XDG = {"XDG_CONFIG_HOME": ".config", "XDG_DATA_HOME": ".local/share", "XDG_STATE_HOME": ".local/state",
       "XDG_CACHE_HOME": ".cache", "XDG_RUNTIME_DIR": "run"}
FIXED = {"TERM": "xterm-256color", "LANG": "C.UTF-8"}


@pytest.fixture(autouse=True)
def own_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh, empty ``HOME`` with its XDG directories, no ssh-agent, a fixed ``TERM`` and ``LANG``."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    for name, relative in XDG.items():
        folder = home / relative
        folder.mkdir(mode=0o700, parents=True)
        monkeypatch.setenv(name, str(folder))
    for name in REMOVED:
        monkeypatch.delenv(name, raising=False)
    for name, value in FIXED.items():
        monkeypatch.setenv(name, value)
    yield home


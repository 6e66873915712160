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

SLOWEST = Path(__file__).with_name("slowest.txt")


def slowest() -> dict[str, float]:
    """``tests/slowest.txt``: seconds each of the suite's slowest tests, by ``path::name`` (no parameters)."""
    seconds: dict[str, float] = {}
    for line in SLOWEST.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            value, name = line.split(maxsplit=1)
            seconds[name] = float(value)
    return seconds


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The files of the slowest tests first, by their slowest test, and in each its slowest tests first; the rest
    after them in their own order (issue 24). With two workers (scripts/test), a long test started near the end
    ran alone while the other worker had nothing left: started first, the short ones fill in beside them and
    the two workers end together. A file's tests stay together (its module-scoped fixtures are made once)."""
    seconds = slowest()

    def weight(item: pytest.Item) -> float:
        return seconds.get(item.nodeid.split("[")[0], 0.0)

    files: dict[str, tuple[float, int]] = {}  # each file's slowest test, and where the file came in the collection
    for index, item in enumerate(items):
        name = item.nodeid.split("::")[0]
        heaviest, first = files.get(name, (0.0, index))
        files[name] = (max(heaviest, weight(item)), first)
    items.sort(key=lambda item: (-files[item.nodeid.split("::")[0]][0], files[item.nodeid.split("::")[0]][1],
                                 -weight(item)))

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


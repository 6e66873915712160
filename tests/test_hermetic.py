"""The suite-wide home of tests/conftest.py: each test's own, and the processes it starts see the same."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hosting import datadir
from hosting.commands.join import known_hosts_file


def test_each_test_has_an_empty_home_no_agent_and_a_fixed_terminal(own_home: Path) -> None:
    assert Path.home() == own_home and os.path.expanduser("~/.ssh") == str(own_home / ".ssh")
    assert sorted(path.name for path in own_home.iterdir()) == [".cache", ".config", ".local", "run"]
    assert "SSH_AUTH_SOCK" not in os.environ and "SSH_AGENT_PID" not in os.environ
    assert (os.environ["TERM"], os.environ["LANG"]) == ("xterm-256color", "C.UTF-8")
    assert "LC_ALL" not in os.environ and "COLUMNS" not in os.environ
    assert known_hosts_file() == own_home / ".ssh" / "known_hosts"
    assert datadir.default_data_dir() == own_home / ".local" / "share" / "croupier"


def test_a_process_a_test_starts_sees_the_same_home(own_home: Path) -> None:
    script = ("import json, os, pathlib, platformdirs; print(json.dumps([str(pathlib.Path.home()), "
              "platformdirs.user_config_dir('croupier'), os.environ.get('SSH_AUTH_SOCK')]))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == [str(own_home), str(own_home / ".config" / "croupier"), None]


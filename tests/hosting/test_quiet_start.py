"""Found trying the room as a new host from a fresh clone: with the cryptography release pip installs today,
importing asyncssh printed ten lines of CryptographyDeprecationWarning (DSA) on every `croupier host`, `join`
and `bots`, before the share line and in a player's terminal, and broke the tests that read their one-line
answers."""

from __future__ import annotations

import subprocess
import sys


def test_the_room_s_ssh_code_imports_without_a_warning_on_stderr() -> None:
    for module in ("hosting.client", "hosting.server", "tui.connection"):
        result = subprocess.run([sys.executable, "-W", "default", "-c", f"import {module}"],
                                capture_output=True, text=True, timeout=120, check=False)
        assert result.returncode == 0, result.stderr
        assert result.stderr == "", f"{module}: {result.stderr[:300]}"

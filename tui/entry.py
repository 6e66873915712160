"""The TUI's programs as the room runs them for plain-ssh players (DESIGN.md "hosting/", way 1): the command
line (the composition root) hands them to :func:`hosting.server.start_room`, so hosting never names tui."""

from __future__ import annotations

from hosting.pty_session import TuiPrograms

SERVED_TUI = TuiPrograms(served="tui.served", fork_server="tui.zygote")

"""A real room (:func:`hosting.server.start_room`) on a free loopback port, answering plain ssh with a pty
(the served TUI) and the ``croupier`` subsystem; used by tests and tests/benchmarks/served_tui.py."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from hosting.config import AccessConfig, RoomConfig, TableConfig
from hosting.server import RunningRoom, start_room
from tests.tui.roombots import FAST
from tui.entry import SERVED_TUI

PlainSshRoom = RunningRoom


async def start_plain_ssh_room(data_dir: Path, tables: Sequence[TableConfig], fork: bool = False,
                               ready_screens: int = 0, access: AccessConfig | None = None) -> RunningRoom:
    """``fork=True`` waits for the TUI fork server before returning; ``False`` never starts one.
    ``ready_screens``: TUIs started ahead of their players (with ``fork=True``; they start in the background).
    ``access``: the room's gates (a password, invite codes); by default none, and logins unthrottled."""
    if access is None:
        access = AccessConfig(connections_per_minute=1000, pending_logins_per_address=1000,
                              logins_per_address=1000, registrations_per_address=100_000)  # benchmarks: many
    config = RoomConfig(name="test room", tables=tuple(tables), access=access, ready_screens=ready_screens)
    return await start_room(config, data_dir, host="127.0.0.1", port=0, runner_settings=FAST, fork_server=fork,
                            served_tui=SERVED_TUI)

"""A real room (:func:`hosting.server.start_room`) on a free loopback port, answering plain ssh with a pty
(the served TUI) and the ``croupier`` subsystem; used by tests and tests/benchmarks/served_tui.py."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from hosting.config import AccessConfig, RoomConfig, TableConfig
from hosting.server import RunningRoom, start_room
from tests import waiting
from tests.tui.roombots import FAST
from tests.waiting import QUIET
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


async def read_until(process: Any, needle: bytes, seen: bytearray, timeout: float = QUIET) -> None:
    """Read the session's output until ``needle``; fails once no output came for ``timeout`` seconds."""
    while needle not in seen:
        try:
            chunk = await asyncio.wait_for(process.stdout.read(65536), max(timeout, QUIET))
        except TimeoutError:
            raise AssertionError(f"no output for {max(timeout, QUIET):g} s before {needle!r}; "
                                 f"got {bytes(seen[-400:])!r}") from None
        if not chunk:
            raise AssertionError(f"session ended before {needle!r}; got {bytes(seen[-400:])!r}")
        seen.extend(chunk)


@dataclass
class PlainSshPlayer:
    """A player's plain ``ssh`` session with a terminal (a pty, xterm-256color): its process and every byte his
    terminal got so far (``seen``)."""

    process: Any
    seen: bytearray = field(default_factory=bytearray)

    async def read_until(self, needle: bytes) -> None:
        await read_until(self.process, needle, self.seen)

    async def read_to_end(self) -> None:
        """Every byte until the room ends the session (fails after :data:`QUIET` seconds without one)."""
        while chunk := await asyncio.wait_for(self.process.stdout.read(65536), QUIET):
            self.seen.extend(chunk)

    async def sit_at(self, running: RunningRoom, table: str, name: str) -> None:
        """From the lobby, ``table`` its highlighted (first) row: J opens the buy-in window with its maximum
        typed, Enter sits; until the room has ``name`` seated there."""
        await self.read_until(f"Table {table}".encode())
        engine = running.room.tables[table].engine
        self.process.stdin.write(b"j")
        await self.read_until(b"Buy-in")
        self.process.stdin.write(b"\r")
        await waiting.until(lambda: engine.seat_of(name) is not None, f"{name} seated",
                            progress=lambda: len(self.seen))


@contextlib.asynccontextmanager
async def plain_ssh_player(running: RunningRoom, name: str,
                           size: tuple[int, int] = (100, 30)) -> AsyncIterator[PlainSshPlayer]:
    """``name`` logged in with plain ``ssh`` and a fresh key (a terminal of ``size``), until the block ends."""
    async with asyncssh.connect("127.0.0.1", running.port, username=name, known_hosts=None,
                                client_keys=[asyncssh.generate_private_key("ssh-ed25519")],
                                agent_path=None, config=[]) as connection:
        process = await connection.create_process(term_type="xterm-256color", term_size=size, encoding=None)
        yield PlainSshPlayer(process)

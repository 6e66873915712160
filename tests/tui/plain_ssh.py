"""A room answering both ways in over asyncssh — the ``croupier`` subsystem and plain ssh with a pty — wired the
way ``hosting.server`` should wire :mod:`hosting.pty_session` (used by tests and tests/benchmarks/served_tui.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import asyncssh

from hosting.config import TableConfig
from hosting.protocol import Limits
from hosting.pty_session import LocalGate, TuiForkServer, serve_pty
from hosting.room import Room
from hosting.server import LoginServer, serve_subsystem
from tests.tui.roombots import make_room


class PlainSshRoom:
    def __init__(self, room: Room, gate: LocalGate, server: Any) -> None:
        self.room = room
        self.gate = gate
        self.server = server
        self.port = int(server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        self.server.close()
        if self.gate.fork_server is not None:
            await self.gate.fork_server.close()
        await self.gate.close()
        await asyncio.wait_for(self.room.stop(), 5)


async def start_plain_ssh_room(data_dir: Path, tables: Sequence[TableConfig], fork: bool = False) -> PlainSshRoom:
    room = make_room(data_dir, tables)
    room.start()
    gate = await LocalGate.start(room, data_dir / "sockets")
    if fork:
        gate.fork_server = await TuiForkServer.start(data_dir / "sockets")

    async def session(process: asyncssh.SSHServerProcess[bytes]) -> None:
        owner = process.get_extra_info("connection").get_owner()
        if process.subsystem is None and process.term_type and owner.login is not None:
            await serve_pty(process, gate, *owner.login)
        else:
            await serve_subsystem(room, process, Limits())

    server = await asyncssh.create_server(lambda: LoginServer(room.gatekeeper, room.clock), "127.0.0.1", 0,
                                          server_host_keys=[asyncssh.generate_private_key("ssh-ed25519")],
                                          process_factory=session, encoding=None)
    return PlainSshRoom(room, gate, server)

"""Fixtures for the TUI tests: a real in-process room with bots, and the app connected to it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from hosting.config import TableConfig
from hosting.room import Room
from tests.tui.roombots import Bot, make_room, table
from tui.app import CroupierApp
from tui.connection import LocalConnection


class Setup:
    """A started room, its bots, and a factory for the app logged in as ``me``."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.bots: list[Bot] = []

    async def bot(self, name: str, tables: list[str], **options: Any) -> Bot:
        bot = await Bot.seat(self.room, name, tables, **options)
        self.bots.append(bot)
        return bot

    def app(self, name: str = "me", **options: Any) -> CroupierApp:
        key = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode().strip()

        async def connect() -> LocalConnection:  # the same key on every reconnect, as a real player's
            return await LocalConnection.attach(self.room, name, key)

        app = CroupierApp(connect, **options)
        app.strict = True  # type: ignore[attr-defined]
        return app


@pytest.fixture
async def room_setup(tmp_path: Path) -> AsyncIterator[Callable[[list[TableConfig]], Any]]:
    made: list[Setup] = []

    async def start(tables: list[TableConfig] | None = None) -> Setup:
        room = make_room(tmp_path / f"room{len(made)}", tables or [table("t1")])
        room.start()
        setup = Setup(room)
        made.append(setup)
        return setup

    yield start
    for setup in made:
        for bot in setup.bots:
            await asyncio.wait_for(bot.stop(), 5)
        await asyncio.wait_for(setup.room.stop(), 5)


class PlainSshRoom:
    """A room listening for both ways in, as ``hosting.server`` should wire them (see hosting/pty_session.py)."""

    def __init__(self, room: Room, gate: Any, server: Any) -> None:
        self.room = room
        self.gate = gate
        self.server = server
        self.port = int(server.sockets[0].getsockname()[1])


@pytest.fixture
async def plain_ssh_room(tmp_path: Path) -> AsyncIterator[Callable[[list[TableConfig]], Any]]:
    from hosting.protocol import Limits
    from hosting.pty_session import LocalGate, serve_pty
    from hosting.server import LoginServer, serve_subsystem

    made: list[PlainSshRoom] = []

    async def start(tables: list[TableConfig]) -> PlainSshRoom:
        room = make_room(tmp_path / f"plain{len(made)}", tables)
        room.start()
        gate = await LocalGate.start(room, tmp_path / f"sockets{len(made)}")

        async def session(process: asyncssh.SSHServerProcess[bytes]) -> None:
            owner = process.get_extra_info("connection").get_owner()
            if process.subsystem is None and process.term_type and owner.login is not None:
                await serve_pty(process, gate, *owner.login)
            else:
                await serve_subsystem(room, process, Limits())

        server = await asyncssh.create_server(lambda: LoginServer(room.gatekeeper, room.clock), "127.0.0.1", 0,
                                              server_host_keys=[asyncssh.generate_private_key("ssh-ed25519")],
                                              process_factory=session, encoding=None)
        served = PlainSshRoom(room, gate, server)
        made.append(served)
        return served

    yield start
    for served in made:
        served.server.close()
        await served.gate.close()
        await asyncio.wait_for(served.room.stop(), 5)

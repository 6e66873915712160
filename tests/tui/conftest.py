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
from tests.tui.plain_ssh import PlainSshRoom, start_plain_ssh_room
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



@pytest.fixture
async def plain_ssh_room(tmp_path: Path) -> AsyncIterator[Callable[[list[TableConfig]], Any]]:
    """``await plain_ssh_room(tables, fork=False)``: a real start_room answering plain ssh and the subsystem."""
    made: list[PlainSshRoom] = []

    async def start(tables: list[TableConfig], fork: bool = False) -> PlainSshRoom:
        served = await start_plain_ssh_room(tmp_path / f"plain{len(made)}", tables, fork=fork)
        made.append(served)
        return served

    yield start
    for served in made:
        await served.close()

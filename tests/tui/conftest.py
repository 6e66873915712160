"""Fixtures for the TUI tests: a real in-process room with bots, and the app connected to it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from hosting.config import TableConfig
from hosting.identity import Gatekeeper
from hosting.room import Room
from hosting.store import Store, StoreAccounts
from tests.tui.helpers import HOST, HOST_KEY, served_app
from tests.tui.plain_ssh import PlainSshRoom, start_plain_ssh_room
from tests.tui.roombots import Bot, make_room, table
from tui.app import CroupierApp


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
        return served_app(self.room, name, **options)


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
def home_tables() -> list[TableConfig]:
    """The tables of :func:`home_room`; a test module overrides this fixture to name its own."""
    return [table("t1"), table("t2")]


@pytest.fixture
async def home_room(tmp_path: Path, home_tables: list[TableConfig]) -> AsyncIterator[Room]:
    """A home game as ``croupier host`` runs it: the tables (1/2), a store keeping accounts and chips, a night
    begun, and its host ``HOST`` (tests.tui.helpers) registered with ``HOST_KEY`` before the room opened and
    vouched for (a room.toml host's name is no host by being registered first)."""
    room = make_room(tmp_path / "room", home_tables)
    room.store = Store.open(tmp_path / "room")
    room.store.start()
    room.store.begin_session("tonight")
    room.gatekeeper = Gatekeeper(room.gatekeeper.access, StoreAccounts(room.store))  # type: ignore[arg-type]
    room.gatekeeper.banned = room.console.ban_reason
    room.console.config_hosts = frozenset({HOST})
    room.gatekeeper.register(HOST, HOST_KEY, 0.0)
    room.console.vouch(HOST, [HOST_KEY])  # the host vouched for her key once (make-host ana)
    room.start()
    yield room
    await asyncio.wait_for(room.stop(), 5)
    await room.store.close()


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

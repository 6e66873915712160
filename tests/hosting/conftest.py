"""Loopback rooms, fresh client keys, and rooms with a host and players logged in, for the hosting tests."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from hosting.client import RoomClient
from hosting.config import RoomConfig, default_room, parse_room
from hosting.identity import normalize_key
from hosting.protocol import Limits
from hosting.server import RunningRoom, start_room
from tui.entry import SERVED_TUI

StartRoom = Callable[..., "AsyncIterator[RunningRoom]"]


@pytest.fixture
def new_key() -> Callable[[], asyncssh.SSHKey]:
    return lambda: asyncssh.generate_private_key("ssh-ed25519")


@pytest.fixture
async def rooms(tmp_path: Path) -> AsyncIterator[Callable[..., object]]:
    """``await rooms(config=None, limits=None, **options)``: a room on 127.0.0.1, a free port; closed after."""
    started: list[RunningRoom] = []

    async def start(config: RoomConfig | None = None, limits: Limits | None = None,
                    data_dir: Path | None = None, **options: Any) -> RunningRoom:
        options.setdefault("served_tui", SERVED_TUI)  # plain ssh with a pty gets the TUI, as under `croupier host`
        running = await start_room(config or default_room(), data_dir or tmp_path / f"data{len(started)}",
                                   host="127.0.0.1", port=0, limits=limits, **options)
        started.append(running)
        return running

    yield start
    for running in started:
        await running.close()


@pytest.fixture
async def room(rooms: Callable[..., object]) -> RunningRoom:
    running = await rooms()  # type: ignore[misc]
    assert isinstance(running, RunningRoom)
    return running


@pytest.fixture
async def connect() -> AsyncIterator[Callable[..., object]]:
    """``await connect(room, name, key=None)`` → a :class:`RoomClient` (closed after the test)."""
    clients: list[RoomClient] = []

    async def open_client(running: RunningRoom, name: str, key: asyncssh.SSHKey | None = None,
                          **options: object) -> RoomClient:
        client = await RoomClient.connect("127.0.0.1", running.port, name,
                                          client_keys=[key or asyncssh.generate_private_key("ssh-ed25519")],
                                          **options)  # type: ignore[arg-type]
        clients.append(client)
        return client

    yield open_client
    for client in clients:
        with contextlib.suppress(Exception):  # some were already closed by the room
            await client.close()


@dataclass
class RoomWithPlayers:
    """A room started from room.toml text, its host's key pinned (the name is hers alone, as a room.toml host's
    after her first login), and its players logging in over SSH: each one's first login registers his key."""

    running: RunningRoom
    host: str | None
    host_key: asyncssh.SSHKey
    connect: Callable[..., Awaitable[RoomClient]]

    async def login(self, name: str, key: asyncssh.SSHKey | None = None) -> RoomClient:
        """``name`` logged in: the host with her key, anyone else with ``key`` or a fresh one (closed after)."""
        if key is None and name == self.host:
            key = self.host_key
        return await self.connect(self.running, name, key)


@pytest.fixture
async def room_with_players(rooms: Callable[..., Awaitable[RunningRoom]],
                            connect: Callable[..., Awaitable[RoomClient]]) -> Callable[..., Awaitable[RoomWithPlayers]]:
    """``await room_with_players(room_toml, host="ana", **options)``: the room (``rooms``' options: runner_settings,
    limits…; no served TUI unless asked), with ``host``'s key pinned if one is named."""

    async def start(room_toml: str, host: str | None = None, **options: Any) -> RoomWithPlayers:
        host_key = asyncssh.generate_private_key("ssh-ed25519")
        config = parse_room(room_toml)
        if host is not None:
            pinned = {**config.access.pinned_keys, host: normalize_key(host_key.export_public_key().decode())}
            config = replace(config, access=replace(config.access, pinned_keys=pinned))
        options.setdefault("served_tui", False)
        return RoomWithPlayers(await rooms(config, **options), host, host_key, connect)

    return start

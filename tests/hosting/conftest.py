"""Loopback rooms and fresh client keys for the hosting tests."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from hosting.config import RoomConfig, default_room
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
    from hosting.client import RoomClient

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

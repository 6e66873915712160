"""Shared pieces of the security tests: small rooms, raw SSH logins kept without a channel, channels opened late."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncssh

from hosting.client import ConnectionClosed, RoomClient
from hosting.config import AccessConfig, RoomConfig, TableConfig
from hosting.protocol import SUBSYSTEM
from hosting.server import RunningRoom
from hosting.table_runner import RunnerSettings

FAST = RunnerSettings(commit_seconds=2.0, reveal_seconds=2.0, pause_between_hands=0.05)


def small_room(access: AccessConfig | None = None, seats: int = 6, **table: Any) -> RoomConfig:
    config = TableConfig("t1", "Hold'em 1/2", "texas_holdem", "no_limit", 1, 2, seats, 40, 200, **table)
    return RoomConfig("security room", (config,), access or AccessConfig(connections_per_minute=1000))


async def ssh_login(running: RunningRoom, name: str, key: asyncssh.SSHKey) -> asyncssh.SSHClientConnection:
    """An SSH login that opens no channel (yet)."""
    return await asyncio.wait_for(asyncssh.connect(
        "127.0.0.1", running.port, username=name, client_keys=[key], known_hosts=None, agent_path=None, config=[],
        password=None, kbdint_auth=False, gss_auth=False), 20)


async def open_channel(connection: asyncssh.SSHClientConnection) -> RoomClient:
    """The ``croupier`` subsystem on a kept login, as a client that plays no part in the shuffle."""
    writer, reader, _ = await connection.open_session(subsystem=SUBSYSTEM, encoding=None)
    return RoomClient(connection, writer, reader, None)


async def drain(client: RoomClient, seconds: float) -> list[dict[str, Any]]:
    """Everything ``client`` receives within ``seconds`` (or until its channel closes)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    got: list[dict[str, Any]] = []
    while loop.time() < end:
        try:
            got.append(await client.receive(timeout=max(0.05, end - loop.time())))
        except (TimeoutError, ConnectionClosed):
            break
    return got

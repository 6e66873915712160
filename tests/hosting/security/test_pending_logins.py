"""Issue 13 item 7: connections that never log in are bounded (in all and per address), have little time to
log in, and do not spend their address's logins: 300 idle sockets from one address used up its allowance (a
real login from it refused), and 1,100 idle ones exhausted the host's file descriptors."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from typing import Any

import pytest

from hosting.client import RoomClient
from hosting.config import AccessConfig
from hosting.server import RunningRoom
from tests.hosting.security.helpers import small_room

Socket = tuple[asyncio.StreamReader, asyncio.StreamWriter]


async def _idle_sockets(running: RunningRoom, count: int, source: str = "127.0.0.1") -> list[Socket]:
    sockets = []
    for _ in range(count):
        sockets.append(await asyncio.open_connection("127.0.0.1", running.port, local_addr=(source, 0)))
    return sockets


async def _still_open(sockets: list[Socket], settle: float = 4.0) -> int:
    """How many of ``sockets`` the host has not closed (each read until EOF for up to ``settle`` seconds)."""
    async def open_after(reader: asyncio.StreamReader) -> bool:
        with contextlib.suppress(TimeoutError, ConnectionError):
            while await asyncio.wait_for(reader.read(4096), settle):
                pass
            return False
        return True

    return sum(await asyncio.gather(*(open_after(reader) for reader, _ in sockets)))


def _close(sockets: list[Socket]) -> None:
    for _, writer in sockets:
        writer.close()


async def test_idle_sockets_from_one_address_neither_pile_up_nor_lock_out_a_real_login(
        rooms: Any, connect: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    running: RunningRoom = await rooms(small_room(AccessConfig(connections_per_minute=20)), deal=False)
    sockets = await _idle_sockets(running, 300)
    try:
        assert await _still_open(sockets) <= 10  # the address's pending_logins_per_address (default 10)
        assert len(running.room.gatekeeper.pending) <= 10
        client: RoomClient = await connect(running, "ana")  # the same address: a real login still gets in
        assert client.hello["name"] == "ana"
        reports = [record.getMessage() for record in caplog.records if "not logged in" in record.getMessage()]
        assert len(reports) == 1 and "127.0.0.1" in reports[0]  # one line for the burst, not 290
    finally:
        _close(sockets)


async def test_1100_idle_sockets_from_110_addresses_hold_at_most_100_of_the_hosts_descriptors(
        rooms: Any, connect: Any) -> None:
    running: RunningRoom = await rooms(small_room(), deal=False)  # defaults: 100 pending, 10 per address
    descriptors = len(os.listdir("/proc/self/fd"))
    sockets: list[Socket] = []
    try:
        for index in range(110):  # the 1,100 idle connections, 10 from each of 110 addresses
            sockets += await _idle_sockets(running, 10, f"127.0.1.{index + 1}")
        assert await _still_open(sockets) <= 100
        assert len(running.room.gatekeeper.pending) <= 100
        host_side = len(os.listdir("/proc/self/fd")) - descriptors - len(sockets)  # the test's own ends aside
        assert host_side <= 100 + 10, host_side  # was one per connection: 1,100 (a 1024 limit exhausted)
        client: RoomClient = await connect(running, "ana")
        assert (await client.request("ping", id=1))["id"] == 1
    finally:
        _close(sockets)


async def test_a_connection_that_does_not_log_in_is_closed_after_login_seconds(rooms: Any) -> None:
    running: RunningRoom = await rooms(small_room(AccessConfig(login_seconds=1)), deal=False)
    sockets = await _idle_sockets(running, 1)
    try:
        loop = asyncio.get_running_loop()
        started = loop.time()
        assert await _still_open(sockets, settle=8.0) == 0
        assert loop.time() - started < 6.0
        assert len(running.room.gatekeeper.pending) == 0
    finally:
        _close(sockets)

"""Attack pass after issue 25: ``connections_per_minute`` only bounds how fast one address logs in, not how many
logins it holds. One address kept 86 logins open after 200 s (20 a minute, each with a channel in the lobby,
every one alive), and would go on without end: each a descriptor and its channels, until the host runs out of
descriptors and nobody can come in. ``logins_per_address`` (default 64) bounds the logins one address (an IPv6
/64) holds at once; a login past it is refused with the room's reason, and a closed one frees its place."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import asyncssh
import pytest

from hosting.client import RoomClient
from hosting.config import AccessConfig, parse_room
from hosting.server import RunningRoom
from tests.hosting.security.helpers import small_room, ssh_login


class Banners(asyncssh.SSHClient):
    def __init__(self) -> None:
        self.banners: list[str] = []

    def auth_banner_received(self, msg: str, lang: str) -> None:
        self.banners.append(msg)


async def test_an_address_holds_at_most_logins_per_address_at_once(rooms: Any, connect: Any, new_key: Any) -> None:
    running: RunningRoom = await rooms(small_room(AccessConfig(connections_per_minute=1000, logins_per_address=3)),
                                       deal=False, served_tui=False)
    held = [await ssh_login(running, f"hold{number}", new_key()) for number in range(3)]
    client = Banners()
    with pytest.raises(asyncssh.PermissionDenied):  # before: a 4th, 5th … login, without end
        await asyncio.wait_for(asyncssh.connect(
            "127.0.0.1", running.port, username="hold3", client_keys=[new_key()], known_hosts=None, agent_path=None,
            config=[], password=None, kbdint_auth=False, gss_auth=False, client_factory=lambda: client), 20)
    assert any("too many connections from your address at once" in banner for banner in client.banners)

    held.pop().close()  # one closes: its place is free again
    async def logged_in() -> RoomClient:
        while True:
            with contextlib.suppress(asyncssh.PermissionDenied):
                player: RoomClient = await connect(running, "ana", new_key())
                return player
            await asyncio.sleep(0.2)
    ana = await asyncio.wait_for(logged_in(), 60)
    assert (await ana.request("ping", id=1))["id"] == 1
    for login in held:
        login.close()


def test_logins_per_address_is_read_from_the_room_file() -> None:
    assert parse_room("[room]\nlogins_per_address = 8\n").access.logins_per_address == 8
    assert parse_room("").access.logins_per_address == 64

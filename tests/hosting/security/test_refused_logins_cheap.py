"""Issue 25 "must show", strangers part 2: an address with no login left is told once, then dropped cheaply.

Under the room's default limits a channel-cycling attacker that logs in again at once when refused made 772
refused logins in 30 s (tests/benchmarks/abuse.py): each a full SSH key exchange (the host's key signature and
the key agreement), its banner and a host.log line, a fifth of a core. An address refused for its logins per
minute (or at once) is told so in the banner; for the next ``RETELL_SECONDS`` its connections are dropped before
their key exchange (one host.log line counts them), then it is told again.
"""

from __future__ import annotations

import logging
from typing import Any

import asyncssh
import pytest

from hosting.client import LoginRefused, RoomClient, open_ssh
from hosting.config import AccessConfig
from hosting.identity import RETELL_SECONDS
from hosting.server import RunningRoom
from tests.hosting.security.helpers import small_room


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def _login(running: RunningRoom, name: str, key: asyncssh.SSHKey) -> asyncssh.SSHClientConnection:
    return await open_ssh("127.0.0.1", running.port, 20, username=name, client_keys=[key], known_hosts=None,
                          agent_path=None, config=[], password=None, kbdint_auth=False, gss_auth=False,
                          local_addr=("127.0.0.21", 0))


async def test_an_address_told_it_has_no_login_left_is_dropped_before_the_key_exchange(
        rooms: Any, new_key: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    clock = Clock()
    running: RunningRoom = await rooms(small_room(AccessConfig(connections_per_minute=2)), deal=False,
                                       served_tui=False, clock=clock)
    key = new_key()
    for _ in range(2):
        (await _login(running, "cycler", key)).close()
    with pytest.raises(LoginRefused, match="too many logins from your address"):  # told, in words
        await _login(running, "cycler", key)
    for _ in range(5):  # before: each one another key exchange and the same banner
        with pytest.raises((asyncssh.ConnectionLost, ConnectionResetError)):
            await _login(running, "cycler", key)
    warnings = [record.getMessage() for record in caplog.records if record.name == "croupier.security"]
    assert sum("too many logins from your address" in line for line in warnings) == 1
    assert any(line.startswith("dropped 1 connections before their key exchange") for line in warnings)

    clock.now += RETELL_SECONDS  # told again once, with the wait
    with pytest.raises(LoginRefused, match="too many logins from your address"):
        await _login(running, "cycler", key)
    other = await RoomClient.connect("127.0.0.1", running.port, "bystander", client_keys=[new_key()])
    assert (await other.request("ping", id=3))["id"] == 3  # another address is not held
    await other.close()
    clock.now += 60  # a login back, and the drops end with it
    login = await _login(running, "cycler", key)
    login.close()

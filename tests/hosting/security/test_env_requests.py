"""Attack pass on a clean clone after issue 25 (strangers part 2): SSH ``env`` requests were kept without bound.

A stranger with any SSH key and no room password opened a session with 1,000 environment variables of 30 KB: the
room's memory grew by 30 MB for that one channel (3 channels a login, 64 logins an address, for the 120 s before
a login holding no name is closed). A session now keeps at most ``MAX_ENVIRONMENT_VARIABLES`` of at most
``MAX_ENVIRONMENT_BYTES`` each; the others are refused and dropped. ``COLORTERM`` (the one the room reads) still
comes through.
"""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import asyncssh

from hosting.protocol import SUBSYSTEM
from hosting.server import MAX_ENVIRONMENT_BYTES, MAX_ENVIRONMENT_VARIABLES, RunningRoom
from tests.hosting.security.helpers import small_room, ssh_login


def _server_environments() -> list[dict[bytes, bytes]]:
    """What every server channel of this process keeps of its client's environment (the room runs in the test)."""
    gc.collect()
    return [channel._env for channel in gc.get_objects() if isinstance(channel, asyncssh.SSHServerChannel)]


async def test_a_session_keeps_a_few_small_environment_variables(rooms: Any, new_key: Any) -> None:
    running: RunningRoom = await rooms(small_room(), deal=False, served_tui=False)
    login = await ssh_login(running, "envy", new_key())  # a new name: the room's gates not passed
    environment = {f"V{number}": "x" * 30_000 for number in range(100)} | {"COLORTERM": "truecolor"}
    channel, _ = await login.create_session(asyncssh.SSHClientSession, subsystem=SUBSYSTEM, env=environment)
    await asyncio.sleep(0.5)
    kept = max(_server_environments(), key=lambda env: sum(len(name) + len(value) for name, value in env.items()))
    assert len(kept) <= MAX_ENVIRONMENT_VARIABLES  # before: 101 variables, 3 MB
    assert all(len(name) + len(value) <= MAX_ENVIRONMENT_BYTES for name, value in kept.items())
    assert kept.get(b"COLORTERM") == b"truecolor"
    channel.close()
    login.close()

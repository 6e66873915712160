"""Issue 13 item 14: abuse reaches the host's log (``host.log``, warning level) with the name, the key's
fingerprint and the address: refused keys, names refused at the door, a session kicked by a new login of its
name, a flood disconnected. The log stayed 0 bytes through a whole abusive session."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from hosting.client import RoomClient
from hosting.config import AccessConfig
from hosting.logging_setup import setup_logging
from hosting.protocol import Limits
from hosting.server import RunningRoom
from tests.hosting.security.helpers import drain, small_room


@pytest.fixture
def host_log(tmp_path: Path) -> Iterator[Path]:
    """``croupier host``'s logging (setup_logging) for the test; the test runner's own logging after."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    asyncssh_level = logging.getLogger("asyncssh").level
    path = setup_logging(tmp_path, "host", "info")
    yield path
    for handler in list(root.handlers):
        handler.close()
        root.removeHandler(handler)
    for handler in handlers:
        root.addHandler(handler)
    root.setLevel(level)
    logging.getLogger("asyncssh").setLevel(asyncssh_level)


async def test_refused_keys_kicks_and_floods_are_warnings_in_host_log(
        rooms: Any, connect: Any, new_key: Any, host_log: Path) -> None:
    running: RunningRoom = await rooms(small_room(AccessConfig(allow=frozenset({"ana", "mallory"}),
                                                               connections_per_minute=1000)),
                                       limits=Limits(error_burst=5, errors_per_second=0.0), deal=False)
    ana_key, thief_key, mallory_key = new_key(), new_key(), new_key()
    await connect(running, "ana", ana_key)
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(running, "ana", thief_key)  # the name is registered to another key
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(running, "zed", new_key())  # not on the allow-list
    await connect(running, "ana", ana_key)  # a second login of hers: the first session is kicked
    mallory: RoomClient = await connect(running, "mallory", mallory_key)
    await mallory.send_raw(b"junk\n" * 20)
    await drain(mallory, 3.0)
    for handler in logging.getLogger().handlers:
        handler.flush()
    lines = [line for line in host_log.read_text().splitlines() if " WARNING croupier.security: " in line]

    def find(*parts: str) -> str:
        found = [line for line in lines if all(part in line for part in parts)]
        assert found, f"no warning with {parts} in {lines}"
        return found[0]

    thief = thief_key.get_fingerprint("sha256")
    find("refused a key", "'ana'", thief, "127.0.0.1", "registered to another key")
    find("refused a login", "'zed'", "127.0.0.1", "allow-list")
    find("kicked", "'ana'", ana_key.get_fingerprint("sha256"), "127.0.0.1")
    find("disconnected", "'mallory'", mallory_key.get_fingerprint("sha256"), "127.0.0.1", "too many bad messages")

"""Issue 13 items 8 (names part) and 17: names per key are capped, look-alike names are refused at registration,
and an allow-listed name can be pinned to one key by the host."""

from __future__ import annotations

from typing import Any

import asyncssh
import pytest

from hosting.client import RoomClient
from hosting.config import AccessConfig
from hosting.server import RunningRoom
from tests.hosting.security.helpers import small_room


def _public(key: asyncssh.SSHKey) -> str:
    return " ".join(key.export_public_key().decode().split()[:2])


async def test_one_key_registers_at_most_names_per_key_names(rooms: Any, connect: Any, new_key: Any) -> None:
    running: RunningRoom = await rooms(small_room(), deal=False)
    key = new_key()
    for name in ("alt1", "alt2", "alt3"):
        await connect(running, name, key)
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(running, "alt4", key)
    decision = running.room.gatekeeper.check_key("alt4", _public(key))
    assert decision.reason == "your key already holds 3 names (alt1, alt2, alt3); this room allows 3 per key"
    assert (await connect(running, "alt1", key)).hello["name"] == "alt1"  # its names still log in
    assert (await connect(running, "other", new_key())).hello["registered"] is True  # other keys unaffected
    assert list(running.room.gatekeeper.accounts.names()) == ["alt1", "alt2", "alt3", "other"]


async def test_the_names_per_key_setting_is_the_room_hosts(rooms: Any, connect: Any, new_key: Any) -> None:
    running: RunningRoom = await rooms(small_room(AccessConfig(names_per_key=1, connections_per_minute=1000)),
                                       deal=False)
    key = new_key()
    await connect(running, "solo", key)
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(running, "solo2", key)


async def test_look_alike_and_other_case_names_are_refused(rooms: Any, connect: Any, new_key: Any) -> None:
    running: RunningRoom = await rooms(small_room(), deal=False)
    await connect(running, "alice", new_key())
    for name in ("aIice", "ALICE", "Alice", "a1ice"):
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(running, name, new_key())
    reason = running.room.gatekeeper.check_key("aIice", _public(new_key())).reason
    assert reason == "the name 'aIice' looks too much like 'alice', who is registered: choose another"
    assert list(running.room.gatekeeper.accounts.names()) == ["alice"]
    assert (await connect(running, "alicia", new_key())).hello["registered"] is True


async def test_a_pinned_name_takes_only_its_key_and_needs_no_invite(rooms: Any, connect: Any, new_key: Any) -> None:
    ana_key = new_key()
    access = AccessConfig(allow=frozenset({"ana", "bruno"}), pinned_keys={"ana": _public(ana_key)},
                          invite_codes=frozenset({"FRIDAY-7"}), connections_per_minute=1000)
    running: RunningRoom = await rooms(small_room(access), deal=False)
    with pytest.raises(asyncssh.PermissionDenied):  # first to log in with the name, but not the host's key
        await connect(running, "ana", new_key())
    assert running.room.gatekeeper.check_key("ana", _public(new_key())).reason == \
        "the name 'ana' is kept for another key by this room's host"
    ana: RoomClient = await connect(running, "ana", ana_key)
    assert (ana.hello["needs"], ana.hello["registered"]) == ([], True)  # the host invited her by pinning
    bruno: RoomClient = await connect(running, "bruno", new_key())  # a plain entry: invite needed as before
    assert bruno.hello["needs"] == ["invite"]


async def test_names_the_host_pinned_to_one_key_are_not_capped_per_key(rooms: Any, connect: Any, new_key: Any) -> None:
    key = new_key()
    names = ("desk1", "desk2", "desk3", "desk4")
    access = AccessConfig(allow=frozenset(names), pinned_keys=dict.fromkeys(names, _public(key)),
                          connections_per_minute=1000)
    running: RunningRoom = await rooms(small_room(access), deal=False)
    for name in names:  # the host's own choice: four names for one key
        assert (await connect(running, name, key)).hello["registered"] is True

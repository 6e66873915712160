"""Issue 13 item 1: a login held from before a name was registered must never read or displace the name's owner.

The attacker logs in over SSH as a free name and opens no channel; the real owner then registers the name (and
passes the room's gates) and plays. A channel opened later on the attacker's login must see nothing of the name
(no balance, seat, cards or requests) and must not kick the owner: the key is checked again at channel open,
and a session holds the name only after every gate.
"""

from __future__ import annotations

import asyncio
from typing import Any

import asyncssh

from hosting.client import RoomClient
from hosting.config import AccessConfig
from hosting.hand_codec import kind_of
from hosting.server import RunningRoom
from tests.hosting.security.helpers import FAST, drain, open_channel, small_room, ssh_login

SECRET_KINDS = {"hole_cards_dealt", "commit_request", "reveal_request", "action_request", "table", "balance",
                "lobby", "event", "seeds", "commitments"}


async def _owner_playing(running: RunningRoom, connect: Any, owner_key: asyncssh.SSHKey,
                         password: str | None) -> tuple[RoomClient, RoomClient]:
    owner: RoomClient = await connect(running, "cy3", owner_key)
    if password is not None:
        assert (await owner.request("auth", password=password))["ok"] is True
    bob: RoomClient = await connect(running, "bob")
    if password is not None:
        assert (await bob.request("auth", password=password))["ok"] is True
    await owner.request("sit", table="t1", buy_in=200)
    await bob.request("sit", table="t1", buy_in=200)
    await owner.wait_for("event", timeout=30, where=lambda m: kind_of(m["event"]) == "hole_cards_dealt")
    return owner, bob


def _leaks(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in messages if m["type"] in SECRET_KINDS or m.get("balance") is not None
            or (m["type"] == "hello" and m.get("needs") == [])]


async def _assert_owner_still_plays(owner: RoomClient) -> None:
    assert (await owner.request("ping", id=7))["id"] == 7
    assert not [m for m in owner.received if m["type"] == "bye"], owner.received[-3:]


async def test_a_login_kept_from_before_registration_sees_nothing_in_a_password_room(
        rooms: Any, connect: Any, new_key: Any) -> None:
    running: RunningRoom = await rooms(small_room(AccessConfig(password="swordfish", connections_per_minute=1000)),
                                       runner_settings=FAST)
    attacker_login = await ssh_login(running, "cy3", new_key())  # the name is free: his key is accepted
    owner, _ = await _owner_playing(running, connect, new_key(), "swordfish")
    for _ in range(2):  # each new channel on the kept login: refused, the owner untouched
        attacker = await open_channel(attacker_login)
        seen = await drain(attacker, 2.0)
        assert not _leaks(seen), seen
        assert [m["type"] for m in seen] == ["bye"] and "registered to another key" in seen[0]["reason"]
        await _assert_owner_still_plays(owner)
    attacker_login.close()


async def test_a_login_kept_from_before_registration_cannot_kick_the_owner_without_a_password(
        rooms: Any, connect: Any, new_key: Any) -> None:
    running: RunningRoom = await rooms(small_room(), runner_settings=FAST)
    attacker_login = await ssh_login(running, "cy3", new_key())
    owner, _ = await _owner_playing(running, connect, new_key(), None)
    attacker = await open_channel(attacker_login)
    seen = await drain(attacker, 2.0)
    assert not _leaks(seen), seen
    assert [m["type"] for m in seen] == ["bye"]
    await _assert_owner_still_plays(owner)
    attacker_login.close()


async def test_a_newcomer_with_the_right_key_displaces_nobody_before_the_password(
        rooms: Any, connect: Any, new_key: Any) -> None:
    running: RunningRoom = await rooms(small_room(AccessConfig(password="swordfish", connections_per_minute=1000)),
                                       runner_settings=FAST)
    key = new_key()
    owner, _ = await _owner_playing(running, connect, key, "swordfish")
    second: RoomClient = await connect(running, "cy3", key)  # his own key again (a second terminal)
    assert second.hello["needs"] == ["password"] and "balance" not in second.hello
    assert (await second.request("auth", password="guess"))["ok"] is False
    await _assert_owner_still_plays(owner)
    assert not _leaks([m for m in second.received if m["type"] != "auth_result"]), second.received
    assert (await second.request("auth", password="swordfish"))["ok"] is True  # every gate passed: now it holds
    assert "another connection" in (await owner.wait_for("bye"))["reason"]
    assert (await second.wait_for("balance"))["balance"] is not None
    assert running.room.sessions["cy3"].transport is not None and (await second.request("ping", id=1))["id"] == 1


async def test_two_newcomers_for_one_free_name_the_second_is_refused_at_the_gate(
        rooms: Any, connect: Any, new_key: Any) -> None:
    running: RunningRoom = await rooms(small_room(AccessConfig(invite_codes=frozenset({"FRIDAY-7"}),
                                                               connections_per_minute=1000)), deal=False)
    first: RoomClient = await connect(running, "dee", new_key())
    second: RoomClient = await connect(running, "dee", new_key())  # both logged in while the name was free
    assert first.hello["needs"] == second.hello["needs"] == ["invite"]
    assert (await first.request("auth", invite="FRIDAY-7"))["ok"] is True
    await second.send("auth", invite="FRIDAY-7")
    bye = await second.wait_for("bye")
    assert "registered to another key" in bye["reason"]
    assert (await first.request("ping", id=3))["id"] == 3
    assert not [m for m in first.received if m["type"] == "bye"]


async def test_a_terminal_opened_on_a_login_kept_from_before_registration_is_refused(
        rooms: Any, connect: Any, new_key: Any) -> None:
    running: RunningRoom = await rooms(small_room(), runner_settings=FAST)
    attacker_login = await ssh_login(running, "cy3", new_key())
    owner, _ = await _owner_playing(running, connect, new_key(), None)
    process = await attacker_login.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
    result = await asyncio.wait_for(process.wait(), 20)
    assert result.exit_status == 1
    assert b"the name 'cy3' is registered to another key" in bytes(result.stderr or b"") + bytes(result.stdout or b"")
    await _assert_owner_still_plays(owner)
    attacker_login.close()

"""Issue 25, strangers part 2: new names per address and per invite code.

Only ``connections_per_minute`` bounded registrations: one address registered a fresh name (each with a fresh key,
since names per key are bounded) about every 3 s, each a balance and rows in the store. A room now registers at
most ``registrations_per_address`` new names an hour from one address (an IPv6 /64, as the room password's wrong
answers are counted: ``identity.address_group``) and ``registrations_per_invite`` an hour with one invite code,
whatever the address. A refused stranger reads why (the SSH banner, or his ``auth`` answer) and the host's log
says so; his names and keys already registered still log in.
"""

from __future__ import annotations

import logging
from typing import Any

import asyncssh
import pytest

from hosting.client import LoginRefused, RoomClient, open_ssh
from hosting.config import AccessConfig, parse_room
from hosting.identity import Registrations
from hosting.server import RunningRoom
from tests.hosting.security.helpers import small_room


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _security_warnings(caplog: pytest.LogCaptureFixture) -> str:
    return "\n".join(record.getMessage() for record in caplog.records
                     if record.name == "croupier.security" and record.levelno == logging.WARNING)


async def _from(running: RunningRoom, address: str, name: str, key: asyncssh.SSHKey) -> RoomClient:
    """A login from ``address`` (any of 127.0.0.0/8 reaches the room on 127.0.0.1)."""
    connection = await open_ssh("127.0.0.1", running.port, 20, username=name, client_keys=[key], known_hosts=None,
                                agent_path=None, config=[], password=None, kbdint_auth=False, gss_auth=False,
                                local_addr=(address, 0))
    writer, reader, _ = await connection.open_session(subsystem="croupier", encoding=None)
    client = RoomClient(connection, writer, reader, None)
    client.hello = await client.wait_for("hello", timeout=20)
    return client


async def test_one_address_registers_at_most_registrations_per_address_an_hour(
        rooms: Any, connect: Any, new_key: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    clock = Clock()
    running: RunningRoom = await rooms(small_room(AccessConfig(connections_per_minute=1000)), deal=False,
                                       served_tui=False, clock=clock)
    keys = [new_key() for _ in range(21)]
    for number in range(20):  # the default: 20 new names an hour from one address
        player: RoomClient = await connect(running, f"fresh{number}", keys[number])
        assert player.hello["registered"] is True and player.hello["balance"] == 1000
        await player.close()
    with pytest.raises(LoginRefused) as refused:  # before: registered, a 21st balance, without end
        await connect(running, "fresh20", keys[20])
    assert "too many new names from your address (20 an hour)" in refused.value.args[0]
    assert "try again in 3 min" in refused.value.args[0]
    assert "fresh20" not in set(running.room.gatekeeper.accounts.names())
    assert len(list(running.room.gatekeeper.accounts.names())) == 20
    assert "refused a new name" in _security_warnings(caplog) and "too many new names" in _security_warnings(caplog)

    again: RoomClient = await connect(running, "fresh3", keys[3])  # a name it has still logs in
    assert again.hello["name"] == "fresh3" and again.hello["registered"] is False
    await again.close()
    other: RoomClient = await _from(running, "127.0.0.2", "elsewhere", new_key())  # another address is not held
    assert other.hello["registered"] is True
    await other.close()

    clock.now += 180  # one new name every 3600 / 20 s
    late: RoomClient = await connect(running, "fresh20", keys[20])
    assert late.hello["registered"] is True
    with pytest.raises(LoginRefused):
        await connect(running, "fresh21", new_key())


async def test_one_invite_code_registers_at_most_registrations_per_invite_an_hour(
        rooms: Any, new_key: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    room = small_room(AccessConfig(invite_codes=frozenset({"FRIENDS", "CLUB"}), connections_per_minute=1000,
                                   registrations_per_invite=3))
    running: RunningRoom = await rooms(room, deal=False, served_tui=False)
    for number in range(3):  # three addresses, one code
        friend = await _from(running, f"127.0.0.{number + 2}", f"friend{number}", new_key())
        assert (await friend.request("auth", invite="FRIENDS"))["ok"] is True
        await friend.close()
    stranger = await _from(running, "127.0.0.9", "stranger", new_key())
    assert stranger.hello["needs"] == ["invite"]  # the address may register: the code is spent
    answer = await stranger.request("auth", invite="FRIENDS")
    assert answer["ok"] is False
    assert answer["reason"].startswith("this invite code has registered 3 new names this hour: ask the host")
    assert (await stranger.wait_for("bye"))["reason"] == answer["reason"]
    assert "stranger" not in set(running.room.gatekeeper.accounts.names())
    assert "this invite code has registered 3 new names" in _security_warnings(caplog)

    clubber = await _from(running, "127.0.0.9", "clubber", new_key())  # another code is not spent
    assert (await clubber.request("auth", invite="CLUB"))["ok"] is True


def test_registrations_count_an_ipv6_slash_64_as_one_address() -> None:
    registrations = Registrations(per_address=2, per_invite=100)
    registrations.spend("2001:db8:1:2::5", None, 0.0)
    registrations.spend("2001:db8:1:2:ffff::9", None, 1.0)
    assert registrations.refusal("2001:db8:1:2:abcd::1", None, 2.0) is not None  # the same /64
    assert registrations.refusal("2001:db8:1:3::1", None, 2.0) is None  # the next /64
    assert registrations.refusal("203.0.113.5", None, 2.0) is None
    assert registrations.refusal("2001:db8:1:2::5", None, 2.0 + 1800) is None  # one back after 3600 / 2 s


def test_the_bounds_are_read_from_the_room_file() -> None:
    access = parse_room("[room]\nregistrations_per_address = 5\nregistrations_per_invite = 7\n").access
    assert (access.registrations_per_address, access.registrations_per_invite) == (5, 7)
    assert (parse_room("").access.registrations_per_address, parse_room("").access.registrations_per_invite) == (20, 50)


async def test_trusted_addresses_are_left_out_of_the_per_address_limits(rooms: Any, connect: Any,
                                                                       new_key: Any) -> None:
    """The host's own bots (or a club's NAT) come from an address he names: the per-address limits leave it out,
    everyone else keeps them."""
    access = AccessConfig(connections_per_minute=2, logins_per_address=2, registrations_per_address=1,
                          trusted_addresses=("127.0.0.1/32",))
    running: RunningRoom = await rooms(small_room(access), deal=False, served_tui=False)
    bots = [await connect(running, f"bot{number}", new_key()) for number in range(4)]  # 4 > 2 logins, 1 name
    assert all(bot.hello["registered"] for bot in bots)
    stranger = await _from(running, "127.0.0.2", "stranger", new_key())
    assert stranger.hello["registered"] is True
    with pytest.raises(LoginRefused) as refused:
        await _from(running, "127.0.0.2", "stranger2", new_key())
    assert "too many new names from your address (1 an hour)" in refused.value.args[0]


def test_trusted_addresses_are_read_from_the_room_file() -> None:
    access = parse_room('[room]\ntrusted_addresses = ["127.0.0.1", "192.168.1.7/24", "2001:db8::/48"]\n').access
    assert access.trusted_addresses == ("127.0.0.1/32", "192.168.1.0/24", "2001:db8::/48")
    with pytest.raises(ValueError, match=r"trusted_addresses\[0\]: expected an address or a network"):
        parse_room('[room]\ntrusted_addresses = ["my laptop"]\n')


async def test_a_host_seating_his_own_bots_from_this_machine_is_told_to_trust_it(rooms: Any) -> None:
    """``croupier bots`` from the room's own machine (loopback) past the bound: the refusal it prints names the
    fix (``trusted_addresses``), not only the wait (a host read "try again in 3 min" for his 21st bot)."""
    from hosting.bots import run_bots

    access = AccessConfig(connections_per_minute=1000, registrations_per_address=2)
    running: RunningRoom = await rooms(small_room(access), deal=False, served_tui=False)
    with pytest.raises(LoginRefused) as refused:
        await run_bots("127.0.0.1", running.port, 3, 1)
    assert "too many new names from your address (2 an hour)" in refused.value.args[0]
    assert 'trusted_addresses = ["127.0.0.1"] under [room]' in refused.value.args[0]


def test_only_a_login_from_this_machine_is_told_of_trusted_addresses() -> None:
    registrations = Registrations(per_address=1, per_invite=100)
    for address in ("127.0.0.1", "::1", "203.0.113.5", "2001:db8::1"):
        registrations.spend(address, None, 0.0)
    assert 'trusted_addresses = ["::1"]' in str(registrations.refusal("::1", None, 1.0))
    assert "trusted_addresses" not in str(registrations.refusal("203.0.113.5", None, 1.0))  # a stranger
    assert "trusted_addresses" not in str(registrations.refusal("2001:db8::1", None, 1.0))


async def test_the_rooms_own_in_process_players_are_no_address_to_bound(tmp_path: Any) -> None:
    """``croupier play``'s bots and player reach the room in its own process (``LocalConnection``): the
    per-address bound on new names is for strangers, so a room at the defaults registers more than 20 of them
    (before, the 21st was refused: the practice room had to lift the bound by hand)."""
    from hosting import datadir
    from hosting.identity import AccountStore, Gatekeeper
    from hosting.room import Room
    from tui.connection import LocalConnection

    datadir.prepare(tmp_path)
    room = Room(small_room(AccessConfig()), datadir.room_id(tmp_path),
                Gatekeeper(AccessConfig(), AccountStore(tmp_path / "accounts.json")))
    players = [await LocalConnection.attach(room, f"bot{number}") for number in range(25)]
    assert sorted(room.gatekeeper.accounts.names()) == sorted(f"bot{number}" for number in range(25))
    assert all(player.session is not None and not player.session.ended for player in players)

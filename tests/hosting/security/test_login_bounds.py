"""What an SSH login may hold without knowing the room's password (found retrying issue 13 as an attacker).

- A login that never passes the gates was kept for ever: with no channel (the kept login of item 1), or with
  channels waiting at the password, each holding a descriptor, a room session or a player screen. It is
  closed ``gate_seconds`` after logging in unless its key holds its name by then.
- One login could open channels without bound (3,000 subsystem channels: +32 MB on the host, never freed;
  7 pty channels of a stranger took all 6 player screens and a registered player was turned away). At most
  ``MAX_CHANNELS_PER_LOGIN`` are open at once.
- Player screens (a TUI process each) were open to strangers without bound but the room's: a stranger at the
  password prompt takes at most ``SCREENS_AT_THE_GATE_PER_ADDRESS`` from his address.
- A stranger's wrong passwords made everyone at his address wait (a NAT, or every player when the room listens
  on 127.0.0.1 behind a tunnel): a registered name's owner answering right was refused. A registered key's
  answers are throttled for that key; a new name's for its address, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import replace
from typing import Any

import asyncssh

from hosting.client import RoomClient
from hosting.config import AccessConfig
from hosting.server import (
    MAX_CHANNELS_PER_LOGIN,
    SCREENS_AT_THE_GATE_MESSAGE,
    SCREENS_AT_THE_GATE_PER_ADDRESS,
    RunningRoom,
)
from tests.hosting.security.helpers import drain, open_channel, small_room, ssh_login


async def _closed_within(connection: asyncssh.SSHClientConnection, seconds: float) -> bool:
    try:
        await asyncio.wait_for(connection.wait_closed(), seconds)
    except TimeoutError:
        return False
    return True


async def test_a_login_that_holds_no_name_is_closed_after_gate_seconds(
        rooms: Any, connect: Any, new_key: Any) -> None:
    access = AccessConfig(password="swordfish", connections_per_minute=1000, gate_seconds=1.0)
    running: RunningRoom = await rooms(small_room(access), deal=False)
    kept = await ssh_login(running, "cy3", new_key())  # no channel at all
    waiting = await ssh_login(running, "dee", new_key())
    at_the_gate = await open_channel(waiting)  # a channel that never answers the password
    assert (await at_the_gate.wait_for("hello", timeout=10))["needs"] == ["password"]
    owner: RoomClient = await connect(running, "ana", new_key())
    assert (await owner.request("auth", password="swordfish"))["ok"] is True

    assert await _closed_within(kept, 20.0)
    assert await _closed_within(waiting, 5.0)
    await asyncio.sleep(1.5)  # well past the owner's own deadline: he holds his name, his login stays
    assert (await owner.request("ping", id=3))["id"] == 3


async def test_one_login_has_at_most_a_few_channels_open_at_once(rooms: Any, new_key: Any) -> None:
    running: RunningRoom = await rooms(small_room(AccessConfig(password="swordfish", connections_per_minute=1000)),
                                       deal=False)
    login = await ssh_login(running, "mallory", new_key())
    opened = [await open_channel(login) for _ in range(MAX_CHANNELS_PER_LOGIN)]
    for client in opened:
        assert (await client.wait_for("hello", timeout=10))["type"] == "hello"
    _writer, reader, errors = await login.open_session(subsystem="croupier", encoding=None)
    refusal = await asyncio.wait_for(errors.read(), 10)
    assert b"at most 3 sessions at once on one connection" in refusal
    assert await asyncio.wait_for(reader.read(), 10) == b""  # no hello: the channel ended
    # one closed, one more may open
    opened[0]._writer.close()
    await asyncio.sleep(0.5)
    again = await open_channel(login)
    assert (await again.wait_for("hello", timeout=10))["type"] == "hello"


async def test_a_strangers_guesses_do_not_lock_out_a_registered_player_at_his_address(
        rooms: Any, connect: Any, new_key: Any) -> None:
    running: RunningRoom = await rooms(small_room(AccessConfig(password="swordfish", connections_per_minute=1000)),
                                       deal=False)
    ana_key = new_key()
    ana: RoomClient = await connect(running, "ana", ana_key)
    assert (await ana.request("auth", password="swordfish"))["ok"] is True
    await ana.close()
    guesser: RoomClient = await connect(running, "mallory", new_key())  # same address: 127.0.0.1
    for guess in range(4):
        await guesser.request("auth", password=f"guess{guess}")
    assert "try again" in (await guesser.request("auth", password="guess9"))["reason"]

    again: RoomClient = await connect(running, "ana", ana_key)
    assert (await again.request("auth", password="swordfish"))["ok"] is True
    assert "ana" in running.room.sessions
    # a new name from the guessing address still waits
    newcomer: RoomClient = await connect(running, "bo", new_key())
    assert "try again" in (await newcomer.request("auth", password="swordfish"))["reason"]
    assert not [m for m in await drain(again, 0.2) if m["type"] == "bye"]


async def _pty(login: asyncssh.SSHClientConnection) -> tuple[Any, Any, Any]:
    return await login.open_session(term_type="xterm", term_size=(80, 24), encoding=None)


async def test_a_stranger_at_the_password_prompt_holds_only_a_few_player_screens(
        rooms: Any, connect: Any, new_key: Any) -> None:
    config = replace(small_room(AccessConfig(password="swordfish", connections_per_minute=1000)),
                     max_player_screens=8, ready_screens=0)
    running: RunningRoom = await rooms(config, deal=False, fork_server=False)
    stranger = new_key()
    first, second = await ssh_login(running, "mallory", stranger), await ssh_login(running, "mallory2", stranger)
    held = [await _pty(first) for _ in range(SCREENS_AT_THE_GATE_PER_ADDRESS)]
    _, _, refused = await _pty(second)
    assert await asyncio.wait_for(refused.read(), 20) == SCREENS_AT_THE_GATE_MESSAGE

    ana_key = new_key()  # a player who holds her name (croupier join) opens a screen from the same address
    ana: RoomClient = await connect(running, "ana", ana_key)
    assert (await ana.request("auth", password="swordfish"))["ok"] is True
    _, output, errors = await _pty(await ssh_login(running, "ana", ana_key))
    assert await asyncio.wait_for(output.read(1), 60) != b""  # her screen draws
    with contextlib.suppress(TimeoutError):
        assert await asyncio.wait_for(errors.read(1), 1.0) == b""
    for writer, _, _ in held:
        writer.close()

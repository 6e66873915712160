"""Issue 25 item 3: every per-connection budget was reset by reopening channels on one SSH login.

One login opening, spending and closing ``croupier`` channels sent 4,660 lobby chat lines in 30 s, 19,110 seat
requests and 870 settle-ups (each 0.12–0.27 s of a worker thread: another player's ping went from 1 ms to a
41 ms median). Budgets are the name's now (hosting.budgets), channel opens per login are limited
(hosting.server), and settle-ups are computed one at a time and shared while fresh (hosting.settle_up_answers).
The room's clock stands still here, so no bucket refills during a test: what one channel may spend is exactly
what a whole login may.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import asyncssh

import hosting.room
from hosting.client import ConnectionClosed, RoomClient
from hosting.config import AccessConfig
from hosting.protocol import Limits
from hosting.room import MESSAGE_LIMITS
from hosting.server import CHANNEL_OPENS_BURST, RunningRoom
from tests.hosting.security.helpers import open_channel, small_room, ssh_login


class StillClock:
    """The room's clock, standing still: no bucket refills while a test runs."""

    def __call__(self) -> float:
        return 1000.0


async def _room(rooms: Any) -> RunningRoom:
    running: RunningRoom = await rooms(small_room(AccessConfig(connections_per_minute=1000)), clock=StillClock(),
                                       deal=False, served_tui=False)
    return running


async def _cycle(login: asyncssh.SSHClientConnection, channels: int,
                 spend: Any) -> tuple[int, list[dict[str, Any]]]:
    """Open ``channels`` channels one after another on ``login``, each spending with ``spend(client)`` and then
    closed; how many the room opened, and every message the opened ones got."""
    opened, seen = 0, []
    for _ in range(channels):
        client: RoomClient | None = None
        try:
            client = await open_channel(login)
            await client.wait_for("hello", timeout=30)
        except (ConnectionClosed, TimeoutError, asyncssh.Error):
            if client is not None:
                seen += client.received
            continue
        opened += 1
        with contextlib.suppress(ConnectionClosed, TimeoutError, OSError, asyncssh.Error):  # closed by the room
            await spend(client)
            await client.send("ping", id=99)
            await client.wait_for("pong", timeout=30)
        seen += client.received
        client._writer.close()  # the channel only: the login stays
        with contextlib.suppress(OSError, asyncssh.Error):
            await client._writer.channel.wait_closed()
    return opened, seen


async def test_one_login_cycling_channels_gets_one_channels_chat_budget_and_few_channels(
        rooms: Any, connect: Any, new_key: Any) -> None:
    running = await _room(rooms)
    ana: RoomClient = await connect(running, "ana")
    login = await ssh_login(running, "mallory", new_key())

    async def chat(client: RoomClient) -> None:
        for number in range(10):
            await client.send("chat", text=f"spam {number}")

    opened, seen = await _cycle(login, 12, chat)
    assert opened == CHANNEL_OPENS_BURST  # then "sessions opened too often on this connection"
    await ana.send("ping", id=1)
    await ana.wait_for("pong")
    heard = [message for message in ana.received if message.get("type") == "chat"
             and message.get("sender") == "mallory"]
    burst, _ = MESSAGE_LIMITS["lobby_chat"]
    assert len(heard) == burst  # before: 5 per channel (40 over 8 channels)
    refused = [message for message in seen if message.get("in_reply_to") == "chat"]
    assert {message["code"] for message in refused} == {"rate_limited"}
    # each refusal spends the name's error budget too: once spent, every new channel closes at its first one
    assert len(refused) == Limits().error_burst + 1 + (opened - 3)
    with contextlib.suppress(asyncssh.Error):
        login.close()


async def test_a_new_channel_brings_no_new_error_budget(rooms: Any, new_key: Any) -> None:
    running = await _room(rooms)
    login = await ssh_login(running, "mallory", new_key())
    budget = int(Limits().error_burst)

    async def refused(client: RoomClient) -> None:
        for _ in range(budget + 5):
            await client.send("action", table="t1", hand="no-such-hand", kind="fold")
        await client.wait_for("bye", timeout=30)

    _, seen = await _cycle(login, 3, refused)
    errors = [message for message in seen if message.get("in_reply_to") == "action"]
    closes = [message["reason"] for message in seen if message.get("type") == "bye"]
    # the first channel spends the budget and is closed by its 21st refusal; each next one by its first
    assert len(errors) == budget + 1 + 2
    assert len(closes) == 3 and all(reason.startswith("too many refused requests") for reason in closes)
    with contextlib.suppress(asyncssh.Error):
        login.close()


async def test_settle_ups_from_a_cycling_login_are_few_and_computed_once(
        rooms: Any, connect: Any, new_key: Any, monkeypatch: Any) -> None:
    computed: list[str | None] = []
    read = hosting.room._read_settle_up

    def counted(*arguments: Any) -> dict[str, Any]:
        computed.append(arguments[1])
        return read(*arguments)

    monkeypatch.setattr(hosting.room, "_read_settle_up", counted)
    running = await _room(rooms)
    ana: RoomClient = await connect(running, "ana")
    login = await ssh_login(running, "mallory", new_key())

    async def settle(client: RoomClient) -> None:
        for _ in range(10):
            await client.send("settle_up")
        await asyncio.sleep(0)

    _, seen = await _cycle(login, CHANNEL_OPENS_BURST, settle)
    await ana.send("settle_up")
    answer = await ana.wait_for("settle_up", "error", timeout=30)
    assert answer["type"] == "settle_up"  # another player is answered (the benchmark times his ping)
    burst, _ = MESSAGE_LIMITS["settle_up"]
    refused = [message for message in seen if message.get("code") == "rate_limited"]
    assert len(refused) == Limits().error_burst + 1 + (CHANNEL_OPENS_BURST - 3)  # as the chat's
    answered = [message for message in seen if message.get("type") == "settle_up"]
    assert len(answered) <= burst  # before: every one of 80 (each channel's 5, then its error budget)
    assert computed == [None]  # one read of the ledger, shared while fresh
    with contextlib.suppress(asyncssh.Error):
        login.close()

"""Bots over SSH wait through a quiet room (ping/pong) and always leave their seats: no ghost players.

The walkthrough: while a human was thinking (a 20 s clock plus a 60 s time bank), ``croupier bots`` heard nothing
for 60 s, said "the room stopped answering" and exited, and its bots stayed seated until the host restarted.
"""

from __future__ import annotations

import asyncio
import random
import signal
import sys
from collections.abc import Callable
from typing import Any

import pytest

from hosting import bots
from hosting.client import RoomClient
from hosting.config import parse_room
from hosting.hand_codec import kind_of
from hosting.server import RunningRoom
from hosting.table_runner import RunnerSettings

ROOM = """
[[tables]]
id = "t"
name = "Hold'em 1/2"
game = "texas_holdem"
structure = "no_limit"
stakes = [1, 2]
seats = 3
buy_in = [40, 200]
clock = { action_seconds = 2, time_bank_seconds = 0 }
"""


async def _room(rooms: Callable[..., Any]) -> RunningRoom:
    running: RunningRoom = await rooms(parse_room(ROOM, "test room"),
                                       runner_settings=RunnerSettings(pause_between_hands=1.0))
    return running


async def _seats_become(client: RoomClient, names: set[str], timeout: float = 60.0) -> None:
    """Read ``client``'s messages until a ``table`` message seats exactly ``names``."""
    async def scan() -> None:
        while {seat["name"] for seat in client.last_table_state("t").get("seats", [])} != names:
            await client.receive(timeout)
    await asyncio.wait_for(scan(), timeout)


async def test_bots_ping_through_a_quiet_room_then_leave(rooms: Callable[..., Any],
                                                         connect: Callable[..., Any]) -> None:
    running = await _room(rooms)
    alice: RoomClient = await connect(running, "alice")  # seated, never acts: her clock runs out each turn
    await alice.request("sit", table="t", buy_in=200)
    bot_clients: list[RoomClient] = [await connect(running, f"bot{index}") for index in range(2)]
    done = asyncio.Event()
    reports = await asyncio.wait_for(asyncio.gather(*(
        bots.play(client, "t", 2, random.Random(index), illegal_rate=0.0, done=done, timeout=0.3)
        for index, client in enumerate(bot_clients))), 120)
    # silences of 0.3 s (the pause between hands, alice's clock) were bridged by pings, not fatal
    for client in bot_clients:
        assert any(message["type"] == "pong" for message in client.received), client.hello["name"]
    assert all(len(report.hands) == 2 and report.failures == 0 for report in reports)
    assert sum(report.verified for report in reports) >= 4
    await _seats_become(alice, {"alice"})  # both bots left their seats


async def test_a_room_that_answers_nothing_not_even_a_ping_is_named() -> None:
    class Mute:
        def __init__(self) -> None:
            self.sent: list[str] = []

        async def receive(self, timeout: float) -> dict[str, Any]:
            await asyncio.sleep(timeout)
            raise TimeoutError

        async def send(self, message_type: str, **fields: Any) -> None:
            self.sent.append(message_type)

    mute = Mute()
    with pytest.raises(bots.RoomSilent) as silent:
        await bots.next_message(mute, 0.05)  # type: ignore[arg-type]
    assert str(silent.value) == "the room stopped answering (no reply to a ping for 0.05 s)"
    assert mute.sent == ["ping"]


async def test_ctrl_c_on_croupier_bots_leaves_no_ghost(rooms: Callable[..., Any], connect: Callable[..., Any]) -> None:
    running = await _room(rooms)
    alice: RoomClient = await connect(running, "alice")
    await alice.request("sit", table="t", buy_in=200)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "hosting.cli", "bots", "--connect", f"127.0.0.1:{running.port}", "--count", "2",
        "--hands", "1000", "--table", "t", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        async def both_seated() -> None:
            while len(alice.last_table_state("t").get("seats", [])) < 3:
                await alice.receive(60)
        await asyncio.wait_for(both_seated(), 60)
        await alice.wait_for("event", timeout=30, where=lambda message: kind_of(message["event"]) == "hand_started")
        process.send_signal(signal.SIGINT)  # Ctrl+C in the middle of a hand
        out, err = await asyncio.wait_for(process.communicate(), 60)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == 130
    assert err.decode() == "croupier bots: interrupted; the bots left their seats\n"
    assert out == b""
    await _seats_become(alice, {"alice"})  # freed at the end of the running hand, not kept for a reconnect

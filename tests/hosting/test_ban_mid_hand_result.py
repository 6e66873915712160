"""Issue 27 leftover: a player the host bans during a cash hand was told "N on the table" by his result, though
his chips reach his bank when the hand ends: the ban's bye came at once and the seat (with its ``table_left``)
was freed only after the hand, when he no longer heard anything. The room now tells him, before the bye, the
chips that go back (his stack behind once folded), and his bank gets exactly those."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from hosting.bots import play
from hosting.client import RoomClient
from hosting.table_runner import RunnerSettings
from tests.hosting.room_files import room_block, table_block
from tests.hosting.test_host_console import _host
from tests.waiting import until


def home_room(seats: int) -> str:
    return room_block("home", connections_per_minute=1000, hosts=["ana"]) + table_block("home", seats=seats)
QUICK = RunnerSettings(commit_seconds=10.0, reveal_seconds=10.0, pause_between_hands=0.0)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("others", [("carl",), ("carl", "dave")])  # his fold ends the hand, or it goes on
async def test_a_player_banned_mid_hand_is_told_the_chips_his_bank_gets(room_with_players: Any,
                                                                        others: tuple[str, ...]) -> None:
    players = await room_with_players(home_room(1 + len(others)), host="ana", runner_settings=QUICK)
    room = players.running.room
    ana: RoomClient = await players.login("ana")
    bob: RoomClient = await players.login("bob")  # sits and never acts: his hand is live when the ban comes
    await bob.request("sit", table="home", buy_in=100)
    done = asyncio.Event()
    bots = [await players.login(name) for name in others]
    playing = [asyncio.ensure_future(play(bot, "home", 10**6, random.Random(index), done=done, buy_in=100))
               for index, bot in enumerate(bots)]
    engine = room.tables["home"].engine
    try:
        await until(lambda: engine.hand_running and engine.in_hand("bob") and len(engine.players) == 1 + len(others),
                    "bob dealt into a hand with everyone")
        await _host(ana, "ban", player="bob", reason="collusion")
        bye = await bob.wait_for("bye", timeout=10)
        told = [message for message in bob.received if message["type"] == "table_left"]
        assert bye["reason"] == "collusion"
        assert [message["table"] for message in told] == ["home"], bob.received[-5:]
        assert bob.received.index(told[0]) < bob.received.index(bye)  # before the bye: his result counts it
        await until(lambda: engine.seat_of("bob") is None, "bob's seat freed after the hand")
        assert room.store is not None
        await room.store.flush()
        assert room.store.balance("bob") == 1000 - 100 + told[0]["chips"]  # what he was told reached his bank
        assert 0 < told[0]["chips"] <= 100  # folded: at most his blind stayed in the pot
    finally:
        done.set()
        await asyncio.wait_for(asyncio.gather(*playing, return_exceptions=True), 120)

"""Issue 25 item 4: a player who commits ahead but never reveals stalled a fast-fold pool (5 honest players went
from 709 to 12 hands a minute): the pool moved him back to its line before the runner could sit him out, so he
was dealt again at once and every hand of his waited for the reveal deadline. Now a missed reveal takes him out
of the pool's line until he sits in himself, and one who sits back in after each miss waits longer each time
(hosting.missed_shuffles)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from engine.table.pool import PoolState
from hosting.bots import play
from hosting.client import RequestRefused, RoomClient
from hosting.server import RunningRoom
from hosting.table_runner import RunnerSettings
from tests.hosting.room_files import pool_block, room_block
from tests.hosting.test_play import SilentAt, _until

ROOM = room_block("pool", connections_per_minute=1000) + pool_block(
    "zoom", stakes=(5, 10), seats=3, buy_in=(200, 500), fill_seconds=0.2, action_seconds=10)
QUICK = RunnerSettings(commit_seconds=1.0, reveal_seconds=1.0, pause_between_hands=0.0)


def _asked_to_reveal(client: RoomClient) -> int:
    return sum(message["type"] == "reveal_request" for message in client.received)


def _proofs(client: RoomClient) -> int:
    return sum(message["type"] == "seeds" for message in client.received)


@pytest.mark.timeout(300)
async def test_a_pool_player_who_never_reveals_sits_out_and_waits_longer_each_time(room_with_players: Any) -> None:
    players = await room_with_players(ROOM, runner_settings=QUICK)
    running: RunningRoom = players.running
    pool = running.room.pools["zoom"]
    honest = [await players.login(name) for name in ("ana", "bruno")]
    carla: RoomClient = await players.login("carla")
    SilentAt(carla, "reveal")
    done = asyncio.Event()
    playing = [asyncio.ensure_future(play(client, "zoom", 10**6, random.Random(index), done=done))
               for index, client in enumerate(honest)]
    try:
        await carla.request("sit", table="zoom", buy_in=200)

        def out() -> bool:
            player = pool.pool.players.get("carla")
            return player is not None and player.state is PoolState.SITTING_OUT

        await _until(lambda: _asked_to_reveal(carla) == 1 and out(), timeout=60)
        hands = _proofs(honest[0])
        await _until(lambda: _proofs(honest[0]) >= hands + 5, timeout=60)  # five hands go on without her
        assert _asked_to_reveal(carla) == 1 and out()
        assert pool.pool.player("carla").stack > 0  # out of the line, not out of the pool: her chips wait
        await carla.request("sit_out", table="zoom", on=False)  # one miss is a slow connection's: back at once
        await _until(lambda: _asked_to_reveal(carla) == 2 and out(), timeout=60)
        with pytest.raises(RequestRefused) as refused:
            await carla.request("sit_out", table="zoom", on=False)
        assert refused.value.reply["code"] == "too_soon"
        assert "missed the shuffle 2 times" in refused.value.reply["message"]
        assert "in 30 s" in refused.value.reply["message"]
    finally:
        done.set()
        await asyncio.wait_for(asyncio.gather(*playing, return_exceptions=True), 120)

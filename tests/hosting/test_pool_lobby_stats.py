"""Found trying the room as a new user: the lobby's fast-fold pool row said `Avg pot 0` beside `Hands/h 6`
after hands had been played with pots of 10 and more. A pool's lobby row counted its tables' hands but sent no
``average_pot`` (the lobby shows a missing one as 0), and a pool table released when its group went lost its
hands from both numbers. The row now counts every hand of the pool's last hour, its tables' present and past."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from hosting.bots import play, stop_all
from hosting.client import RoomClient
from hosting.server import RunningRoom
from hosting.table_runner import RunnerSettings
from tests.hosting.room_files import pool_block, room_block
from tests.waiting import until as _until

ROOM = room_block("home", connections_per_minute=1000) + pool_block("zoom", seats=3, buy_in=(80, 200),
                                                                    fill_seconds=0.5)
QUICK = RunnerSettings(commit_seconds=10.0, reveal_seconds=10.0, pause_between_hands=0.0)


@pytest.mark.timeout(300)
async def test_a_pool_s_lobby_row_says_its_average_pot_over_its_tables_present_and_past(
        room_with_players: Any) -> None:
    players = await room_with_players(ROOM, runner_settings=QUICK)
    running: RunningRoom = players.running
    owner = running.room.pools["zoom"]
    clients: list[RoomClient] = [await players.login(name) for name in ("carl", "dave", "erin")]
    done = asyncio.Event()
    playing = [asyncio.ensure_future(play(client, "zoom", 10**6, random.Random(index), done=done))
               for index, client in enumerate(clients)]
    try:
        await _until(lambda: sum(len(table.recent_hands) for table in owner.tables.values()) >= 3,
                     "three pool hands recorded", quiet=120)
    finally:
        done.set()
        await stop_all(playing)
    recorded = [pot for table in owner.tables.values() for _, pot in table.recent_hands]
    row = (await clients[0].request("lobby"))["pools"][0]
    assert row["hands_per_hour"] >= len(recorded) >= 3
    assert row["average_pot"] >= 3  # every hand's pot holds the blinds at least
    for table in list(owner.tables.values()):  # the pool lets its tables go: their hands still count
        owner.release(table)
    again = (await clients[0].request("lobby"))["pools"][0]
    assert (again["hands_per_hour"], again["average_pot"]) == (row["hands_per_hour"], row["average_pot"])

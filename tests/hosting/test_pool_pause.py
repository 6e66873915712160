"""The host pauses a fast-fold pool (found trying the room as a new host): `croupier admin pause zoom` said
"there is no table 'zoom'", and `pause-all` answered "all 1 tables paused" while the pool went on dealing. Now a
pool pauses as a table does — its hands in play finish, no new one is dealt, its players keep their chips in the
pool and are told — and pause-all / resume-all reach the pools too."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from hosting.admin_requests import AdminRequest
from tests.hosting.pool_rooms import pool_in_play
from tests.hosting.room_files import pool_block, room_block, table_block
from tests.waiting import until

ROOM = room_block("pool room", connections_per_minute=1000) + table_block("home", buy_in=(80, 200)) \
    + pool_block("zoom", name="Zoom 1/2", buy_in=(80, 200))
"""A cash table and a pool: pause-all and resume-all reach both."""


@pytest.mark.timeout(300)
async def test_the_host_pauses_and_resumes_a_pool(tmp_path: Path) -> None:
    async with pool_in_play(ROOM, tmp_path / "data", ("bob", "cleo")) as (running, clients):
        pool = running.room.pools["zoom"]
        console = running.room.console
        await until(lambda: pool.hands_dealt >= 2, "the pool to deal")
        reply = console.perform("ana", AdminRequest("pause", {"table": "zoom"}), 0.0)
        assert reply["text"] == "zoom paused (its hands in play finish)"
        await until(lambda: not any(table.engine.hand_running for table in pool.tables.values()),
                    "the hand in play to finish")
        dealt = pool.hands_dealt
        await asyncio.sleep(2.0)  # fill_seconds 0: a running pool deals again within milliseconds
        assert pool.hands_dealt == dealt and sorted(pool.pool.players) == ["bob", "cleo"]
        notices = [message["text"] for message in clients[0].received if message["type"] == "notice"]
        assert "The host paused Zoom 1/2: no new hand until he resumes it; you keep your chips in the pool." \
            in notices
        status = console.perform("ana", AdminRequest("status", {}), 0.0)
        assert status["pools"][0]["paused"] is True
        assert console.perform("ana", AdminRequest("resume", {"table": "zoom"}), 0.0)["text"] == "zoom resumed"
        await until(lambda: pool.hands_dealt > dealt, "the pool to deal again")
        reply = console.perform("ana", AdminRequest("pause_all", {}), 0.0)
        assert reply["text"] == "paused: 1 table and 1 fast-fold pool" and pool.paused
        reply = console.perform("ana", AdminRequest("resume_all", {}), 0.0)
        assert reply["text"] == "resumed: 1 table and 1 fast-fold pool" and not pool.paused

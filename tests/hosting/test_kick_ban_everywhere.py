"""Issue 27 item 1: a host's kick and ban reach every place a name can be — a cash seat, a fast-fold pool (in a
hand too), a waiting list, the watchers, a tournament not started yet — and a ban ends the connection at once
with every chip back in the bank (hosting.removal). Before: a banned pool player stayed online with his chips in
the pool, and sat down at a cash table afterwards."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import asyncssh
import pytest

from hosting.bots import play
from hosting.client import RoomClient
from hosting.server import RunningRoom
from hosting.store import connect as open_store
from hosting.table_runner import RunnerSettings
from tests.hosting.room_files import block, pool_block, room_block, table_block
from tests.hosting.test_host_console import _audit_clean, _host
from tests.waiting import until

ROOM = (room_block("home", connections_per_minute=1000, hosts=["ana"])
        + table_block("home", seats=2)
        + pool_block("zoom", stakes=(5, 10), seats=3, buy_in=(200, 500), fill_seconds=0.5, action_seconds=90)
        + block("[[tournaments]]", {"id": "sng", "sit_and_go_size": 6, "seats": 6, "buy_in": 50, "fee": 5,
                                    "levels": "turbo"}))
QUICK = RunnerSettings(commit_seconds=10.0, reveal_seconds=10.0, pause_between_hands=0.0)


def _held_by(running: RunningRoom, name: str) -> int:
    connection = open_store(running.data_dir, read_only=True)
    try:
        row = connection.execute("SELECT COALESCE(SUM(amount), 0) FROM table_stacks WHERE name = ?",
                                 (name,)).fetchone()
        return int(row[0])
    finally:
        connection.close()


@pytest.mark.timeout(300)
async def test_a_ban_takes_a_pool_player_out_of_his_hand_and_the_room_at_once(room_with_players: Any) -> None:
    players = await room_with_players(ROOM, host="ana", runner_settings=QUICK)
    running: RunningRoom = players.running
    room = running.room
    pool = room.pools["zoom"]
    ana: RoomClient = await players.login("ana")
    bob: RoomClient = await players.login("bob")
    await bob.request("sit", table="home", buy_in=100)  # alone at the cash table: no hand there
    await bob.request("sit", table="zoom", buy_in=200)  # and in the pool, where he never acts
    bots = [await players.login(name) for name in ("carl", "dave")]
    done = asyncio.Event()
    playing = [asyncio.ensure_future(play(bot, "zoom", 10**6, random.Random(index), done=done))
               for index, bot in enumerate(bots)]
    try:
        table = await until(lambda: next((state for state in pool.tables.values()
                                          if state.engine.hand_running and state.engine.in_hand("bob")), None),
                            "bob dealt into a pool hand")
        reply = await _host(ana, "ban", player="bob", reason="collusion")
        assert "bob removed" in reply["text"]
        bye = await bob.wait_for("bye", timeout=10)  # at once: not after his 90-second turn
        assert bye["reason"] == "collusion"
        assert "bob" not in room.sessions and "bob" not in pool.pool.players
        assert room.tables["home"].engine.seat_of("bob") is None
        assert not table.engine.in_hand("bob") or table.engine.seat_of("bob") is None
        await until(lambda: all(state.engine.seat_of("bob") is None for state in pool.tables.values()),
                    "bob off the pool's tables")
        assert room.store is not None
        await room.store.flush()
        assert _held_by(running, "bob") == 0  # every chip of his back in the bank, none at a table or the pool
        assert 990 <= room.store.balance("bob") <= 1000 + 3 * 200  # at most his blind lost
        with pytest.raises(asyncssh.PermissionDenied):
            await players.login("bob")
    finally:
        done.set()
        await asyncio.wait_for(asyncio.gather(*playing, return_exceptions=True), 120)
    assert room.store is not None
    await room.store.flush()
    assert _audit_clean(running) == []


async def test_a_kick_reaches_the_waiting_list_the_watchers_the_pool_and_a_tournament_not_started(
        room_with_players: Any, new_key: Any) -> None:
    players = await room_with_players(ROOM, host="ana", runner_settings=QUICK)
    running: RunningRoom = players.running
    room = running.room
    key = new_key()
    ana: RoomClient = await players.login("ana")
    carl: RoomClient = await players.login("carl")
    await ana.request("sit", table="home", buy_in=100)
    await carl.request("sit", table="home", buy_in=100)  # the table is full
    bob: RoomClient = await players.login("bob", key)
    await bob.request("watch", table="home")
    await bob.request("waiting_list", table="home", on=True)
    await bob.request("tournament", action="register", tournament="sng")
    await bob.request("sit", table="zoom", buy_in=200)
    assert room.store is not None and room.store.balance("bob") == 1000 - 55 - 200
    await _host(ana, "kick", player="bob", reason="time to go home")
    assert (await bob.wait_for("bye", timeout=10))["reason"] == "time to go home"
    home = room.tables["home"]
    assert "bob" not in home.watchers and "bob" not in home.engine.waiting_list.players
    assert "bob" not in room.pools["zoom"].pool.players
    assert not [entry for entry in room.tournaments.owners["sng"].director.entries_of("bob") if entry.live]
    assert room.store.balance("bob") == 1000  # the entry refunded, the pool's chips back
    again: RoomClient = await players.login("bob", key)  # a kick is no ban: he may come back
    await again.request("sit", table="zoom", buy_in=200)
    await room.store.flush()
    assert _audit_clean(running) == []

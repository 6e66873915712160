"""Issue 25 item 6: one SSH key's names (twinA, twinB) sat at one cash table and were dealt into one pool hand
19 times of 19. One key, one seat per table and per hand — the tournaments' check (hosting.identity.twin_of)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from hosting.client import RequestRefused, RoomClient
from hosting.server import RunningRoom
from tests.hosting.room_files import pool_block, room_block, table_block

ROOM = room_block("twins", connections_per_minute=1000) + table_block("t1") + table_block("t2") + pool_block("zoom")


async def test_one_keys_names_never_share_a_table_or_a_pool_hand(room_with_players: Any, new_key: Any) -> None:
    players = await room_with_players(ROOM)
    running: RunningRoom = players.running
    key = new_key()
    twin_a: RoomClient = await players.login("twinA", key)
    twin_b: RoomClient = await players.login("twinB", key)
    await twin_a.request("sit", table="t1", buy_in=100)
    with pytest.raises(RequestRefused) as refused:
        await twin_b.request("sit", table="t1", buy_in=100)
    assert refused.value.reply["code"] == "table_rule"
    assert refused.value.reply["message"] == "twinA, a name of the same key, sits at t1: one player, one seat"
    await twin_b.request("sit", table="t2", buy_in=100)  # another table: his own business
    await twin_a.request("sit", table="zoom", buy_in=100)
    await twin_b.request("sit", table="zoom", buy_in=100)  # in the pool both, but never in one hand
    pool = running.room.pools["zoom"]
    assert pool.pool.players["twinA"].person == pool.pool.players["twinB"].person
    assert pool.hands_dealt == 0 and all(not table.engine.players for table in pool.tables.values())
    cy: RoomClient = await players.login("cy")
    await cy.request("sit", table="zoom", buy_in=100)
    for _ in range(3000):  # the first hand: cy and one twin (its commitments arrive first)
        seated = [{seated.player for seated in table.engine.players.values()} for table in pool.tables.values()]
        if any(seated):
            break
        await asyncio.sleep(0.02)
    assert [len(names) for names in seated if names] == [2]
    group = next(names for names in seated if names)
    assert "cy" in group and len(group & {"twinA", "twinB"}) == 1

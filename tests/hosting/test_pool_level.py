"""The host changes a fast-fold pool's blinds (issue 27 leftover, found by a new-host trial):
`croupier admin level zoom --blinds 2/4` was refused ("there is no table 'zoom'"). A home game's host changes
the blinds whenever he likes (PokerNow lets him); a pool takes a level as a table does: in its lobby row and the
host's status at once, dealt from each of its tables' next hand (a hand in play keeps its blinds), its players
told, and kept across a restart of the room."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from engine.events import BlindPosted, HandStarted
from hosting.admin_requests import AdminRequest
from tests.hosting.pool_rooms import pool_in_play, start_pool_room
from tests.hosting.test_pool_pause import ROOM
from tests.waiting import until


def blinds_after(received: list[dict[str, Any]], start: int) -> list[set[tuple[str, int]]]:
    """The blinds posted in each hand that started after message ``start``: {(kind, amount)} a hand."""
    hands: list[set[tuple[str, int]]] = []
    for message in received[start:]:
        event = message.get("event") if message.get("type") == "event" else None  # typed by the client
        if isinstance(event, HandStarted):
            hands.append(set())
        if hands and isinstance(event, BlindPosted):
            hands[-1].add((event.kind, event.amount))
    return hands


@pytest.mark.timeout(300)
async def test_the_host_changes_a_pools_blinds_and_they_last(tmp_path: Path) -> None:
    async with pool_in_play(ROOM, tmp_path / "data", ("bob", "cleo")) as (running, clients):
        pool = running.room.pools["zoom"]
        console = running.room.console
        await until(lambda: pool.hands_dealt >= 2, "the pool to deal")
        start = len(clients[0].received)
        reply = console.perform("ana", AdminRequest("level", {"table": "zoom", "small_blind": 2, "big_blind": 4}),
                                time.time())
        assert reply["text"] == "The host changed Zoom 1/2 from each table's next hand: blinds 2/4, rake none."
        assert pool.summary(time.time())["stakes"] == [2, 4]  # the lobby row, at once
        status = console.perform("ana", AdminRequest("status", {}), time.time())
        assert [row["stakes"] for row in status["pools"]] == [[2, 4]]
        dealt = pool.hands_dealt
        await until(lambda: pool.hands_dealt >= dealt + 3, "three more pool hands")
        posted = blinds_after(clients[0].received, start)
        # the first may be a hand the room had started before the change, its start still on the wire: 1/2
        assert posted[0] in ({("small_blind", 1), ("big_blind", 2)}, {("small_blind", 2), ("big_blind", 4)}), posted
        assert len(posted) >= 2 and all(hand == {("small_blind", 2), ("big_blind", 4)} for hand in posted[1:]), posted
        notices = [message["text"] for message in clients[1].received if message["type"] == "notice"]
        assert reply["text"] in notices
    again = await start_pool_room(ROOM, tmp_path / "data")
    try:
        row = again.room.pools["zoom"].summary(time.time())
        assert row["stakes"] == [2, 4]  # the host's level lasts until he changes it (or room.toml does)
    finally:
        await again.close()

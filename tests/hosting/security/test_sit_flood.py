"""Each sit and each leave is a ledger row on disk (chips from the bank to the table and back; at a fast-fold
pool too). Sitting down and standing up in a loop must not let one connection write rows without bound."""

from __future__ import annotations

from typing import Any

import pytest

from hosting.client import RoomClient
from hosting.config import PoolConfig, RoomConfig, TableConfig
from hosting.room import MESSAGE_LIMITS
from hosting.server import RunningRoom
from hosting.store import connect as store_connect

TABLE = TableConfig("t1", "Home 1/2", "texas_holdem", "no_limit", 1, 2, 6, 40, 200)
POOL = PoolConfig(TableConfig("zoom", "Zoom 1/2", "texas_holdem", "no_limit", 1, 2, 6, 40, 200))
CYCLES = 15  # past the burst; more refusals would spend the error budget and close the connection


@pytest.mark.parametrize("table", ["t1", "zoom"])
async def test_sitting_and_leaving_in_a_loop_is_refused_past_its_limit(rooms: Any, connect: Any,
                                                                      table: str) -> None:
    running: RunningRoom = await rooms(RoomConfig("home game", (TABLE,), pools=(POOL,)), served_tui=False)
    mallory: RoomClient = await connect(running, "mallory")
    for _ in range(CYCLES):
        await mallory.send("sit", table=table, buy_in=40)
        await mallory.send("leave", table=table)
    await mallory.send("ping", id=1)
    await mallory.wait_for("pong", timeout=30)
    refused = [message for message in mallory.received
               if message.get("type") == "error" and message.get("in_reply_to") == "sit"]
    assert refused  # before the limit every one of the sits was a buy-in row, and every leave one more
    burst, _ = MESSAGE_LIMITS["sit"]
    assert len(refused) == CYCLES - burst and {message["code"] for message in refused} == {"rate_limited"}
    assert refused[0]["message"].startswith("too many sits: wait")
    ledger = store_connect(running.data_dir, read_only=True)
    try:
        rows = ledger.execute("SELECT COUNT(*) FROM ledger WHERE player = 'mallory'").fetchone()[0]
    finally:
        ledger.close()
    assert rows <= 2 * burst + 1  # his registration's chips, then a buy-in and a cash-out per allowed sit

"""``approve_seats``: every sit is the host's to approve. A fast-fold pool is a way to sit too: it must not let
a player who is no host take chips to a table the host never approved."""

from __future__ import annotations

from typing import Any

from hosting.client import RequestRefused, RoomClient
from hosting.config import PoolConfig, RoomConfig, TableConfig
from hosting.server import RunningRoom

TABLE = TableConfig("t1", "Home 1/2", "texas_holdem", "no_limit", 1, 2, 6, 40, 200)
POOL = PoolConfig(TableConfig("zoom", "Zoom 1/2", "texas_holdem", "no_limit", 1, 2, 6, 40, 200))


async def test_a_pool_is_no_way_around_the_hosts_approval(rooms: Any, connect: Any) -> None:
    config = RoomConfig("home game", (TABLE,), pools=(POOL,), hosts=frozenset({"ana"}), approve_seats=True)
    running: RunningRoom = await rooms(config, served_tui=False)
    mallory: RoomClient = await connect(running, "mallory")
    try:
        reply: dict[str, Any] = await mallory.request("sit", table="zoom", buy_in=100)
    except RequestRefused as refused:
        reply = refused.args[0] if refused.args and isinstance(refused.args[0], dict) else {"refused": True}
    pool = running.room.pools["zoom"]
    assert "mallory" not in pool.pool.players  # no chips at a table the host did not approve
    assert reply.get("stack") is None
    assert running.room.store is not None and running.room.store.balance("mallory") > 0

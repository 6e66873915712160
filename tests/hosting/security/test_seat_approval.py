"""``approve_seats``: every sit is the host's to approve. A fast-fold pool is a way to sit too: it must not let
a player who is no host take chips to a table the host never approved."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncssh

from hosting.client import RequestRefused, RoomClient
from hosting.config import AccessConfig, PoolConfig, RoomConfig, TableConfig
from hosting.identity import normalize_key
from hosting.room import MESSAGE_LIMITS
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


async def test_a_seat_request_flood_reaches_the_host_only_up_to_its_limit(rooms: Any, connect: Any) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    access = AccessConfig(pinned_keys={"ana": normalize_key(key.export_public_key().decode())})
    config = RoomConfig("home game", (TABLE,), access, hosts=frozenset({"ana"}), approve_seats=True)
    running: RunningRoom = await rooms(config, deal=False, served_tui=False)
    ana: RoomClient = await connect(running, "ana", key)
    mallory: RoomClient = await connect(running, "mallory")
    for number in range(20):  # more would spend his error budget on the refusals and close his connection
        await mallory.send("sit", table="t1", buy_in=40 + number)  # each a changed request
    await mallory.send("ping", id=1)
    await mallory.wait_for("pong")
    await ana.send("ping", id=2)
    await ana.wait_for("pong")
    await asyncio.sleep(0.2)
    asked = [message for message in ana.received if message.get("type") == "seat_request"]
    assert len(asked) < 20  # before the limit each reached the host's screen (200 a second per connection)
    burst, _ = MESSAGE_LIMITS["seat_request"]
    assert len(asked) == burst
    refused = [message for message in mallory.received
               if message.get("type") == "error" and message.get("in_reply_to") == "sit"]
    assert {message["code"] for message in refused} == {"rate_limited"}
    assert running.room.console.seat_requests[("t1", "mallory")].buy_in == 40 + burst - 1

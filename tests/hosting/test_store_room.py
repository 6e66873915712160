"""The store inside the room (issue 7): bots play over SSH and every chip and hand lands in the store; hands
are reported (R-AUDIT-1); a room stopped mid-hand voids it at the next start and tells its players (R-CRASH-1).
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from hosting import bots
from hosting.client import RequestRefused, RoomClient
from hosting.config import RoomConfig, TableConfig
from hosting.hand_records import iter_hands
from hosting.ledger import audit
from hosting.server import RunningRoom
from hosting.store import connect as connect_store
from hosting.table_runner import RunnerSettings
from tests.waiting import until

FAST = RunnerSettings(commit_seconds=2.0, reveal_seconds=2.0, pause_between_hands=0.02)


def _room() -> RoomConfig:
    return RoomConfig("store room", (TableConfig("t1", "Hold'em 1/2", "texas_holdem", "no_limit", 1, 2, 6, 40, 200),))


async def test_bots_hands_and_chips_are_kept_and_audit_clean(rooms: Any, connect: Any) -> None:
    running: RunningRoom = await rooms(_room(), runner_settings=FAST)
    store = running.room.store
    assert store is not None
    players: list[RoomClient] = [await connect(running, f"bot{index}") for index in range(3)]
    assert [store.balance(f"bot{index}") for index in range(3)] == [1000, 1000, 1000]  # R-PLAY-1
    done = asyncio.Event()
    await asyncio.wait_for(asyncio.gather(*(
        bots.play(client, "t1", 15, random.Random(index), buy_in=200, done=done, timeout=30)
        for index, client in enumerate(players))), timeout=120)
    await store.flush()
    assert sum(store.balance(f"bot{index}") for index in range(3)) == 3000  # no rake here; every chip went home
    assert all(store.stack("t1", f"bot{index}") == 0 for index in range(3))
    reader = connect_store(running.data_dir, read_only=True)
    hands = list(iter_hands(reader))
    assert len(hands) >= 15 and all(hand.transcript is not None for hand in hands)
    assert audit(reader) == []
    reader.close()

    reply = await players[0].request("report_hand", hand=hands[-1].hand_id, reason="the river looked odd")
    assert reply["hand"] == hands[-1].hand_id and reply["report"] == 1
    try:
        await players[0].request("report_hand", hand="t1-nope-1")
        raise AssertionError("an unknown hand was reported")
    except RequestRefused as refusal:
        assert "cannot be reported" in str(refusal)
    await store.flush()
    reader = connect_store(running.data_dir, read_only=True)
    (history,) = reader.execute("SELECT history FROM reports WHERE reporter = 'bot0'").fetchone()
    assert history.startswith("PokerStars Hand #") and "Dealt to bot" in history
    reader.close()


async def test_a_buy_in_above_the_balance_is_refused(rooms: Any, connect: Any) -> None:
    config = RoomConfig("rich room", (TableConfig("t1", "Deep", "texas_holdem", "no_limit", 10, 20, 6, 400, 4000),))
    running: RunningRoom = await rooms(config, runner_settings=FAST)
    ana: RoomClient = await connect(running, "ana")
    try:
        await ana.request("sit", table="t1", buy_in=1500)
        raise AssertionError("sat with chips she does not have")
    except RequestRefused as refusal:
        assert "you have 1000 chips in the bank, not 1500" in str(refusal)
    assert running.room.tables["t1"].engine.seat_of("ana") is None
    assert (await ana.request("sit", table="t1", buy_in=1000))["seat"] is not None
    assert running.room.store is not None and running.room.store.balance("ana") == 0


async def test_a_room_stopped_mid_hand_voids_it_and_tells_the_players(rooms: Any, connect: Any, new_key: Any,
                                                                      tmp_path: Any) -> None:
    keys = {name: new_key() for name in ("ana", "bruno")}
    first: RunningRoom = await rooms(_room(), data_dir=tmp_path / "kept", runner_settings=FAST)
    players = [await connect(first, name, keys[name]) for name in keys]
    for client in players:
        await client.request("sit", table="t1", buy_in=100)
    store = first.room.store
    assert store is not None
    await until(lambda: store.running_hands(), "a hand dealt")  # the bots do not act: it stays unfinished
    (hand_id,) = store.running_hands()
    await first.close()

    second: RunningRoom = await rooms(_room(), data_dir=tmp_path / "kept", runner_settings=FAST)
    assert second.room.store is not None
    recovery = second.room.store.recovery
    assert recovery.voided == [hand_id]
    assert sorted(recovery.returned) == [("ana", "t1", 100), ("bruno", "t1", 100)]
    assert second.room.store.balance("ana") == 1000
    again: RoomClient = await connect(second, "ana", keys["ana"])
    await again.request("ping", id=1)
    notices = [message["text"] for message in again.received if message["type"] == "notice"]
    assert any(hand_id in text for text in notices) and any("went back to your balance" in text for text in notices)

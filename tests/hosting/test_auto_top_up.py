"""Auto top-up and auto rebuy at a cash table (issue 27, home games; R-BUYIN-1: top-ups between hands, up to the
maximum buy-in). The player asks, the room checks the order against the table's buy-in limits and carries it out
between his hands only, from his balance, with a ledger row that counts as money in (a top-up)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from engine.table_events import ChipsAdded
from hosting.client import RoomClient
from hosting.server import RunningRoom
from hosting.store import connect as open_store
from hosting.table_runner import RunnerSettings
from tests import waiting
from tests.hosting.room_files import room_block, table_block

ROOM = room_block("home", connections_per_minute=1000) + table_block("t1", seats=2, buy_in=(40, 200))
QUICK = RunnerSettings(commit_seconds=10.0, reveal_seconds=10.0, pause_between_hands=0.0)


def _ledger(running: RunningRoom, name: str) -> list[tuple[str, int, str]]:
    """``name``'s balance → table rows: (reason, amount, table)."""
    connection = open_store(running.data_dir, read_only=True)
    try:
        return [(str(reason), int(amount), str(table)) for reason, amount, table in connection.execute(
            "SELECT reason, amount, table_id FROM ledger WHERE player = ? AND source = 'balance' "
            "AND destination = 'table' ORDER BY id", (name,))]
    finally:
        connection.close()


async def _error(client: RoomClient, **fields: Any) -> dict[str, Any]:
    await client.send("auto_top_up", **fields)
    return await client.wait_for("error")


async def test_an_order_is_checked_against_the_buy_in_limits_and_tops_up_at_once_between_hands(
        room_with_players: Any) -> None:
    players = await room_with_players(ROOM, runner_settings=QUICK)
    running = players.running
    ana = await players.login("ana")
    start = running.room.store.balance("ana")
    await ana.request("sit", table="t1", buy_in=100)
    # refused, nothing kept: over the maximum, a threshold above the target, a pool or table that is not his
    assert (await _error(ana, table="t1", below=100, to=250))["code"] == "bad_amount"
    assert (await _error(ana, table="t1", below=190, to=150))["code"] == "bad_amount"
    assert (await _error(ana, table="t9", below=100))["code"] == "no_such_table"
    assert running.room.cash.auto_orders.get("t1", {}) == {}
    # below 150, up to the maximum: nobody else seated, no hand: carried out at once, 100 more chips
    ack = await ana.request("auto_top_up", table="t1", below=150)
    assert (ack["below"], ack["rebuy"], ack.get("to")) == (150, False, None)
    engine = running.room.tables["t1"].engine
    await waiting.until(lambda: engine.players[engine.seat_of("ana")].stack == 200, "the auto top-up")
    assert running.room.store.balance("ana") == start - 200
    assert running.room.store.stack("t1", "ana") == 200
    await waiting.until(lambda: len(_ledger(running, "ana")) == 2, "the ledger rows")
    assert _ledger(running, "ana") == [("buy-in", 100, "t1"), ("auto top-up", 100, "t1")]
    # a stack at its target asks nothing more; all off cancels the order
    ack = await ana.request("auto_top_up", table="t1")
    assert (ack["below"], ack["rebuy"]) == (0, False) and running.room.cash.auto_orders["t1"] == {}


async def _shove(client: RoomClient, name: str, added: list[ChipsAdded], done: asyncio.Event) -> None:
    """All in every hand; ana notes each ChipsAdded of the table (the auto top-ups and rebuys)."""
    while not done.is_set():
        try:
            message = await client.receive(1.0)
        except TimeoutError:
            continue
        if message["type"] == "action_request":
            legal = message["legal"]
            move = {"kind": "all_in"} if legal.get("max_raise_to") is not None else \
                {"kind": "call"} if legal.get("call_amount") else {"kind": "check"}
            await client.send("action", table="t1", hand=message["hand"], **move)
        elif message["type"] == "event" and isinstance(message["event"], ChipsAdded) and name == "ana":
            added.append(message["event"])


@pytest.mark.timeout(300)
async def test_a_busted_player_buys_in_again_to_his_amount_and_is_dealt_in_chips_conserved(
        room_with_players: Any) -> None:
    players = await room_with_players(ROOM, runner_settings=QUICK)
    running = players.running
    store = running.room.store
    ana, bob = await players.login("ana"), await players.login("bob")
    total = store.balance("ana") + store.balance("bob")
    added: list[ChipsAdded] = []
    done = asyncio.Event()
    engine = running.room.tables["t1"].engine
    # whoever busts buys in again for 60; a stack under 50 tops up to 60
    await ana.request("sit", table="t1", buy_in=60)
    await ana.request("auto_top_up", table="t1", below=50, rebuy=True, to=60)
    tasks = [asyncio.create_task(_shove(ana, "ana", added, done))]
    await bob.request("sit", table="t1", buy_in=60)  # the first hand may start now: nothing of it is skipped
    await bob.send("auto_top_up", table="t1", below=50, rebuy=True, to=60)
    tasks.append(asyncio.create_task(_shove(bob, "bob", added, done)))
    try:
        rebuys = lambda: [event for event in added if event.amount == 60]  # noqa: E731 - busted: 0 → 60
        await waiting.until(lambda: len(rebuys()) >= 1 and engine.hand_running, "a rebuy and the next hand",
                            progress=lambda: (engine.hand_number, len(added)))
        rebuy = rebuys()[0]
        assert rebuy.stack == 60  # 0 + 60: to his amount, never past the maximum
        for client in (ana, bob):  # still playing: the seats are freed when the hand ends
            await client.send("leave", table="t1")
        await waiting.until(lambda: not engine.players, "both seats freed", progress=lambda: engine.hand_number)
    finally:
        done.set()
        await asyncio.gather(*tasks)
    # every chip is back in a bank: what the two brought, no more, no less (no rake at this table)
    assert store.balance("ana") + store.balance("bob") == total
    assert store.stack("t1", "ana") == store.stack("t1", "bob") == 0
    for name in ("ana", "bob"):
        reasons = [reason for reason, _, _ in _ledger(running, name)]
        assert reasons[0] == "buy-in" and set(reasons[1:]) <= {"auto top-up", "auto rebuy"}, reasons
    assert ("auto rebuy", 60, "t1") in _ledger(running, rebuy.player)

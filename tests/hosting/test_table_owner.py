"""The table runner's owner interface (hosting.owner): a fake owner drives a real runner in a running room —
no hand while it says no, each hand's start and result to it, chips leaving the table to it — and the room adds
and removes tables while running (a cash table's chips go back to the balances, chips conserved)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from engine.events import Event, HandEnded
from engine.fairness import Transcript
from engine.table import Stakes
from engine.table_events import LevelChanged
from hosting.room import Room
from hosting.store import Store
from hosting.table_runner import TableRunner
from hosting.tables import TableState
from tests.tui.roombots import Bot, make_room, table
from tests.waiting import QUIET, until
from tui.connection import LocalConnection


class FakeOwner:
    """An owner that says when hands may start and writes down what it is told."""

    kind = "test"

    def __init__(self) -> None:
        self.allow = False
        self.asked = 0
        self.adopted: list[str] = []
        self.released_tables: list[str] = []
        self.started: list[str] = []
        self.finished: list[tuple[str, Event, bool]] = []
        self.chips: list[tuple[str, int]] = []

    def adopt(self, table: TableState) -> None:
        self.adopted.append(table.id)

    def release(self, table: TableState) -> None:
        self.released_tables.append(table.id)

    def between_hands(self, table: TableState) -> None:
        pass

    def may_start_hand(self, table: TableState) -> bool:
        self.asked += 1
        return self.allow

    def commitment_ahead(self, table: TableState, player: str) -> tuple[tuple[str, str], bytes] | None:
        return None

    def events_published(self, table: TableState, events: Sequence[Event]) -> None:
        pass

    def shuffle_missed(self, table: TableState, player: str) -> None:
        pass

    def hand_started(self, table: TableState, hand_id: str, events: Sequence[Event]) -> None:
        self.started.append(hand_id)

    def hand_finished(self, table: TableState, hand_id: str, events: Sequence[Event],
                      transcript: Transcript) -> Awaitable[Any] | None:
        self.finished.append((hand_id, events[-1], transcript.hand_id == hand_id))
        return None

    def chips_released(self, table: TableState, player: str, amount: int) -> None:
        self.chips.append((player, amount))


async def _until(condition: Callable[[], bool], timeout: float = QUIET) -> None:
    await until(condition, "the table", quiet=max(timeout, QUIET))


def _runner(room: Room, table_id: str) -> TableRunner:
    runner = room.drivers[table_id]
    assert isinstance(runner, TableRunner)
    return runner


async def test_a_fake_owner_drives_a_runner_added_to_a_running_room(tmp_path: Path) -> None:
    room = make_room(tmp_path / "data", [table("t1")])
    room.start()
    owner = FakeOwner()
    state = room.add_table(table("x1"), owner=owner)
    assert owner.adopted == ["x1"] and state.kind == "test"
    assert [row["kind"] for row in (state.summary(0.0), room.tables["t1"].summary(0.0))] == ["test", "cash"]
    bots = [await Bot.seat(room, name, ["x1"], folds=True) for name in ("ana", "bob")]
    watcher = await LocalConnection.attach(room, "wat")
    await watcher.send("watch", table="x1")
    try:
        await _until(lambda: owner.asked >= 1)  # asked once two players can play: not dealt
        await asyncio.sleep(0.3)
        assert owner.started == [] and state.engine.hand_number == 0

        owner.allow = True
        _runner(room, "x1").wake()
        await _until(lambda: len(owner.finished) >= 2)
        owner.allow = False
        assert owner.started[:2] == [hand_id for hand_id, _, _ in owner.finished[:2]]
        assert all(isinstance(last, HandEnded) and transcript_matches for _, last, transcript_matches in owner.finished)
        await _until(lambda: _runner(room, "x1").between_hands)
        played = state.engine.hand_number
        await asyncio.sleep(0.3)
        assert state.engine.hand_number == played  # the owner said no again: no next hand

        stacks = {seated.player: seated.stack for seated in state.engine.players.values()}
        assert sum(stacks.values()) == 2 * 200
        await bots[0].connection.send("leave", table="x1")
        await _until(lambda: len(owner.chips) == 1)
        assert owner.chips == [("ana", stacks["ana"])]

        events = await room.remove_table("x1")
        assert owner.chips == [("ana", stacks["ana"]), ("bob", stacks["bob"])]
        assert [event.player for event in events if hasattr(event, "player")] == ["bob", "bob"]
        assert owner.released_tables == ["x1"] and "x1" not in room.tables and "x1" not in room.drivers
        while (message := await asyncio.wait_for(watcher.receive(), 10))["type"] != "table_closed":
            pass
        assert message["table"] == "x1"
    finally:
        for bot in bots:
            await bot.stop()
        await watcher.close()
        await room.stop()


async def test_a_cash_table_added_and_removed_while_running_returns_every_chip_to_the_balances(
        tmp_path: Path) -> None:
    store = Store.open(tmp_path / "store")
    base = make_room(tmp_path / "data", [table("t1")])
    room = Room(base.config, base.room_id, base.gatekeeper, driver_factory=lambda room, state: TableRunner(
        room, state, _runner(base, "t1").settings), store=store)
    for name in ("ana", "bob", "cy"):
        store.register(name, f"ssh-ed25519 AAAA{name}")  # 1000 chips each
    room.start()
    room.add_table(table("x2", blinds=(5, 10)))
    bots = [await Bot.seat(room, name, ["x2"], buy_in=600) for name in ("ana", "bob", "cy")]
    try:
        state = room.tables["x2"]
        await _until(lambda: state.engine.hand_number >= 2)
        room.cash.pause("x2")
        await _until(lambda: _runner(room, "x2").between_hands)
        played = state.engine.hand_number
        assert room.cash.set_level("x2", Stakes(10, 20, big_blind_ante=20)) == [
            LevelChanged(played + 1, 10, 20, 0, 20, 0)]
        assert state.summary(0.0)["stakes"] == [10, 20]
        await asyncio.sleep(0.3)
        assert state.engine.hand_number == played  # paused: the hand in play ended, no new one
        assert room.cash.resume("x2")
        await _until(lambda: state.engine.hand_number > played)
        forced = state.engine.last_forced_bets
        assert forced is not None and (forced.small_blind, forced.big_blind, forced.big_blind_ante) == (10, 20, 20)

        await room.remove_table("x2")
        assert "x2" not in room.tables
        assert sum(store.balance(name) for name in ("ana", "bob", "cy")) == 3_000  # no rake at these tables
        assert all(store.stack("x2", name) == 0 for name in ("ana", "bob", "cy"))
    finally:
        for bot in bots:
            await bot.stop()
        await room.stop()
        store.close_now()


async def test_a_table_id_already_in_the_room_is_refused(tmp_path: Path) -> None:
    room = make_room(tmp_path / "data", [table("t1")])
    connection = await LocalConnection.attach(room, "ana")
    try:
        try:
            room.add_table(table("t1"))
        except Exception as refusal:
            assert getattr(refusal, "code", None) == "table_exists"
        else:
            raise AssertionError("a second t1 was added")
    finally:
        await connection.close()

"""The room's answer to a leave during a hand says what is so (R-LEAVE: folded now, seat freed when the hand ends).

A leave in a heads-up hand folds the leaver and so ends the hand: the seat is freed at once and his chips are
back before the answer goes out. The answer used to say ``after_hand`` all the same, and a client waiting for
the seat to be freed "after the hand" kept the table open for good (tests/tui/test_play.py
``test_three_tables_flag_the_hidden_turn_jump_to_it_and_leave`` found the tab still open after "You leave the
table"). Where the hand goes on without him, the answer still says ``after_hand`` and no chips.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from hosting.room import Room
from tests.tui.roombots import Bot, make_room, table
from tests.waiting import QUIET
from tui.connection import LocalConnection

BUY_IN = 200


async def _next(connection: LocalConnection) -> dict[str, Any]:
    """The next message; the guard starts again with every message (a busy machine is slow, not stuck)."""
    return await asyncio.wait_for(connection.receive(), QUIET)


async def _leave_on_my_turn(ana: LocalConnection) -> dict[str, Any]:
    """Ana sits, waits for her first turn (she is dealt in: a blind of hers may be in) and leaves; the room's
    answer."""
    await ana.send("sit", table="t1", buy_in=BUY_IN)
    while (await _next(ana)).get("type") != "action_request":
        pass
    await ana.send("leave", table="t1")
    while True:
        message = await _next(ana)
        if message.get("type") == "ack" and message.get("in_reply_to") == "leave":
            return message


async def _play(tmp_path: Path, others: tuple[str, ...]) -> tuple[Room, dict[str, Any], list[Bot]]:
    room = make_room(tmp_path / "room", [table("t1", seats=6)])
    room.start()
    bots = [await Bot.seat(room, name, ["t1"], buy_in=BUY_IN) for name in others]
    ana = await LocalConnection.attach(room, "ana")
    answer = await _leave_on_my_turn(ana)
    answer["seated_when_answered"] = room.tables["t1"].engine.seat_of("ana") is not None  # (bots play on meanwhile)
    await ana.close()
    return room, answer, bots


async def _close(room: Room, bots: list[Bot]) -> None:
    for bot in bots:
        await bot.stop()
    await room.stop()


async def test_a_leave_whose_fold_ends_the_hand_is_answered_as_done_with_the_chips(tmp_path: Path) -> None:
    room, answer, bots = await _play(tmp_path, ("bob",))
    try:
        # heads-up, her fold ended the hand: the seat is free now, and the answer says so with her chips
        assert answer["after_hand"] is False and answer["seated_when_answered"] is False
        engine = room.tables["t1"].engine
        bob = engine.player("bob")
        assert answer["chips"] + bob.stack == 2 * BUY_IN  # no rake here: every chip is hers or his
        assert 0 < answer["chips"] < BUY_IN  # she had a blind in: it stayed in the pot bob won
    finally:
        await _close(room, bots)


async def test_a_leave_in_a_hand_that_goes_on_is_answered_after_the_hand(tmp_path: Path) -> None:
    room, answer, bots = await _play(tmp_path, ("bob", "cat"))
    try:
        # the other two play on: her seat (and what is left of her stack) waits for the hand's end
        assert answer["after_hand"] is True and answer.get("chips") is None
    finally:
        await _close(room, bots)

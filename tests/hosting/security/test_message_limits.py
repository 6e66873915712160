"""Issue 13 item 10: lobby chat and ``report_hand`` have limits of their own; reports only from the hand's
players, one per player per hand; the served TUIs' log rotates."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from hosting.room import MESSAGE_LIMITS
from tests.hosting.security.wire_room import WireRoom, wire_room


@pytest.fixture
async def started(tmp_path: Path) -> AsyncIterator[WireRoom]:
    async for room in wire_room(tmp_path / "room", store=True):
        yield room


async def test_a_lobby_chat_flood_reaches_nobody_past_its_limit(started: WireRoom) -> None:
    ana = await started.listener("ana")
    mallory = await started.listener("mallory")
    for number in range(200):
        await mallory.connection.send("chat", text=f"spam {number}")
    await mallory.connection.send("ping", id=1)
    await mallory.wait_for(lambda: mallory.of_type("pong"), "the pong after the flood")
    await asyncio.sleep(0.05)
    burst, _ = MESSAGE_LIMITS["lobby_chat"]
    heard = [message["text"] for message in ana.of_type("chat")]
    assert heard == [f"spam {number}" for number in range(int(burst))]  # the burst, then nothing
    refusals = [m for m in mallory.of_type("error") if m.get("in_reply_to") == "chat"]
    assert len(refusals) == 200 - burst and {m["code"] for m in refusals} == {"rate_limited"}
    assert refusals[0]["message"].startswith("too many chat messages: wait")
    stored = started.room.store.connection.execute("SELECT COUNT(*) FROM chat").fetchone()[0]  # type: ignore[union-attr]
    assert stored == burst


async def test_a_hand_is_reported_only_by_its_players_once_each(started: WireRoom) -> None:
    bob = await started.bot("bob")
    await started.bot("cat")
    mallory = await started.listener("mallory")
    await mallory.connection.send("watch", table="t1")
    seeds = await mallory.wait_for(lambda: next(iter(mallory.of_type("seeds")), None), "a finished hand")
    hand = seeds["hand"]
    for _ in range(3):
        await mallory.connection.send("report_hand", hand=hand, reason="\x1b]0;owned\x07 odd river")
    refused = await mallory.wait_for(lambda: [m for m in mallory.of_type("error")
                                              if m.get("in_reply_to") == "report_hand"][2:], "three refusals")
    assert {m["code"] for m in mallory.of_type("error") if m.get("in_reply_to") == "report_hand"} == {"not_dealt_in"}
    assert refused
    # bob again, with his key, on a connection whose replies we read (his bot's connection is closed by it)
    reporter = await started.listener("bob", started.room.sessions["bob"].public_key)
    for _ in range(3):
        await reporter.connection.send("report_hand", hand=hand, reason="\x1b]0;owned\x07 odd river")
    replies = await reporter.wait_for(
        lambda: [m for m in reporter.received if m.get("in_reply_to") == "report_hand"][2:] and
        [m for m in reporter.received if m.get("in_reply_to") == "report_hand"], "three answers")
    assert [m["type"] for m in replies] == ["ack", "error", "error"]
    assert [m.get("code") for m in replies[1:]] == ["already_reported"] * 2
    rows = started.room.store.connection.execute(  # type: ignore[union-attr]
        "SELECT reporter, hand_id, reason FROM reports").fetchall()
    assert rows == [("bob", hand, "odd river")]  # one row, the reason cleaned of its escape sequence
    assert bob.actions > 0


async def test_reports_have_a_rate_of_their_own(started: WireRoom) -> None:
    mallory = await started.listener("mallory")
    for number in range(50):
        await mallory.connection.send("report_hand", hand=f"t1-none-{number}")
    await mallory.wait_for(lambda: len([m for m in mallory.of_type("error")
                                        if m.get("in_reply_to") == "report_hand"]) == 50, "fifty refusals")
    codes = [m["code"] for m in mallory.of_type("error") if m.get("in_reply_to") == "report_hand"]
    burst, _ = MESSAGE_LIMITS["report_hand"]
    assert codes.count("rate_limited") == 50 - burst and codes.count("no_hand") == burst

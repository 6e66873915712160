"""A client that starts watching a table (or takes a seat) after a hand was dealt cannot place the cards it
then sees in the deal; it must still check the hand's seeds and never report a false violation (the bots and
``croupier join`` use this same participant). The hands it sees from their start are checked in full."""

from __future__ import annotations

import asyncio
from typing import Any

from hosting.client import RoomClient
from hosting.hand_codec import kind_of
from hosting.server import RunningRoom
from hosting.table_runner import cancel_and_wait
from tests.hosting.test_play import FAST, _check_or_call_forever, _room


async def test_a_watcher_from_mid_hand_reports_no_false_violation(rooms: Any, connect: Any) -> None:
    running: RunningRoom = await rooms(_room(seats=3), runner_settings=FAST)
    players: list[RoomClient] = [await connect(running, name) for name in ("ana", "bob", "cy")]
    for player in players:
        await player.request("sit", table="t1", buy_in=200)
    helpers = [asyncio.get_running_loop().create_task(_check_or_call_forever(player)) for player in players]
    try:
        await players[0].wait_for("event", timeout=30, where=lambda m: kind_of(m["event"]) == "board_dealt")
        watcher: RoomClient = await connect(running, "dee")
        await watcher.request("watch", table="t1")
        verified: dict[str, bool] = {}
        first_hand: str | None = None
        while len(verified) < 3:
            message = await watcher.receive(30)
            if message["type"] in ("event", "seeds") and first_hand is None:
                first_hand = message["hand"]
            if message["type"] == "seeds":
                await watcher.request("ping", id=len(verified) + 1)  # the check runs as the seeds arrive
                assert watcher.fairness is not None
                result = watcher.fairness.results[("t1", message["hand"])]
                assert result.ok, result.violations
                verified[message["hand"]] = True
        assert first_hand in verified  # the hand joined mid-way was checked (seeds) and found clean
    finally:
        for helper in helpers:
            await cancel_and_wait(helper)

"""Issue 13 item 5: seats held at a table where no hand can start are freed when their hold ends (R-DISC-1:
"the seat hold runs even when no hand can start"). Two players sit and never answer the shuffle: both are sat
out, no hand can start, and a newcomer got ``table_full`` for ever."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from hosting.client import RequestRefused, RoomClient
from hosting.server import RunningRoom
from hosting.table_runner import RunnerSettings
from tests.hosting.security.helpers import small_room

QUICK = RunnerSettings(commit_seconds=0.3, reveal_seconds=0.3, pause_between_hands=0.05)


async def test_seats_of_an_idle_table_are_freed_when_their_hold_ends(rooms: Any, connect: Any) -> None:
    running: RunningRoom = await rooms(small_room(seats=2, clock={"seat_hold_seconds": 1.0}), runner_settings=QUICK)
    squatters = [await connect(running, name, fairness=False) for name in ("sq1", "sq2")]  # never commit
    for squatter in squatters:
        await squatter.request("sit", table="t1", buy_in=100)
    newcomer: RoomClient = await connect(running, "newcomer")
    with pytest.raises(RequestRefused) as full:
        await newcomer.request("sit", table="t1", buy_in=100)
    assert full.value.reply["code"] == "table_full"
    table = running.room.tables["t1"].engine
    loop = asyncio.get_running_loop()
    end = loop.time() + 20
    while table.players and loop.time() < end:
        await asyncio.sleep(0.05)
    assert not table.players  # both sat out by the missed shuffle, then freed after the 1 s hold
    assert running.room.store is not None and running.room.store.balance("sq1") == 1000  # chips went back
    assert (await newcomer.request("sit", table="t1", buy_in=100))["seat"] in (0, 1)

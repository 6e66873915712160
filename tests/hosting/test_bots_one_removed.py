"""Found trying the room as a new host: `croupier bots --count 3` at a cash table, then the host kicked one bot
(or banned one): every bot of the run left the table, and the summary said `"room_closed": "banned by the
host"` although the room was open. A bot removed by the host stopped as if the room had closed, and a closing
room tells the bots sharing its table to leave too. Only a closed room ends the others' play; a kicked bot's
own play ends, its reason in the summary's ``removed``."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from hosting import bots
from hosting.client import RoomClient
from hosting.server import RunningRoom
from hosting.table_runner import RunnerSettings
from tests.hosting.room_files import room_block, table_block
from tests.hosting.test_host_console import _host
from tests.waiting import until as _until

ROOM = room_block("home", connections_per_minute=1000, hosts=["ana"]) + table_block("t1", seats=6)
QUICK = RunnerSettings(commit_seconds=10.0, reveal_seconds=10.0, pause_between_hands=0.0)


@pytest.mark.timeout(300)
async def test_a_kicked_bot_leaves_alone_and_its_table_mates_play_on(room_with_players: Any) -> None:
    players = await room_with_players(ROOM, host="ana", runner_settings=QUICK)
    running: RunningRoom = players.running
    ana: RoomClient = await players.login("ana")
    clients = [await players.login(name) for name in ("carl", "dave", "erin")]
    done = asyncio.Event()
    reports = [bots.BotReport(client.hello.get("name", "?")) for client in clients]
    playing = [asyncio.ensure_future(bots.play(client, "t1", 10**6, random.Random(index), done=done,
                                               report=report))
               for index, (client, report) in enumerate(zip(clients, reports, strict=True))]
    try:
        runner = await _until(lambda: (driver := running.room.drivers.get("t1")) is not None
                              and driver.hands_played >= 2 and driver, "two hands at t1")
        await _host(ana, "kick", player="carl", reason="bedtime")
        await asyncio.wait_for(asyncio.shield(playing[0]), 120)  # carl's play ends, with its report
        kicked_at = runner.hands_played
        await _until(lambda: runner.hands_played >= kicked_at + 3 or done.is_set() or all(
            task.done() for task in playing[1:]), "three more hands, or the others gone", quiet=120)
        assert not done.is_set() and not any(task.done() for task in playing[1:])  # dave and erin play on
        assert runner.hands_played >= kicked_at + 3
        summary = bots.summarize([reports[0]])
        assert summary["room_closed"] is None  # the room is open
        assert summary["removed"] == {"carl": "bedtime"}
    finally:
        done.set()
        await bots.stop_all(playing)

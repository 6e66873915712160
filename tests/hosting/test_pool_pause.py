"""The host pauses a fast-fold pool (found trying the room as a new host): `croupier admin pause zoom` said
"there is no table 'zoom'", and `pause-all` answered "all 1 tables paused" while the pool went on dealing. Now a
pool pauses as a table does — its hands in play finish, no new one is dealt, its players keep their chips in the
pool and are told — and pause-all / resume-all reach the pools too."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from pathlib import Path

import asyncssh
import pytest

from hosting.admin_requests import AdminRequest
from hosting.bots import play
from hosting.client import RoomClient
from hosting.config import parse_room
from hosting.server import start_room
from hosting.table_runner import RunnerSettings

ROOM = """
[room]
name = "pool room"
connections_per_minute = 1000

[[tables]]
id = "home"
game = "texas_holdem"
structure = "no_limit"
stakes = [1, 2]

[[pools]]
id = "zoom"
name = "Zoom 1/2"
game = "texas_holdem"
structure = "no_limit"
stakes = [1, 2]
seats = 6
buy_in = [80, 200]
fill_seconds = 0
"""


async def until(condition: object, what: str, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"waited {seconds:g} s for {what}"
        await asyncio.sleep(0.05)


@pytest.mark.timeout(300)
async def test_the_host_pauses_and_resumes_a_pool(tmp_path: Path) -> None:
    settings = RunnerSettings(commit_seconds=10.0, reveal_seconds=10.0, pause_between_hands=0.0)
    running = await start_room(parse_room(ROOM), tmp_path / "data", host="127.0.0.1", port=0,
                               runner_settings=settings, served_tui=False)
    pool = running.room.pools["zoom"]
    console = running.room.console
    clients = [await RoomClient.connect("127.0.0.1", running.port, name,
                                        client_keys=[asyncssh.generate_private_key("ssh-ed25519")])
               for name in ("bob", "cleo")]
    done = asyncio.Event()
    players = [asyncio.ensure_future(play(client, "zoom", 10**6, random.Random(index), done=done))
               for index, client in enumerate(clients)]
    try:
        await until(lambda: pool.hands_dealt >= 2, "the pool to deal")
        reply = console.perform("ana", AdminRequest("pause", {"table": "zoom"}), 0.0)
        assert reply["text"] == "zoom paused (its hands in play finish)"
        await until(lambda: not any(table.engine.hand_running for table in pool.tables.values()),
                    "the hand in play to finish")
        dealt = pool.hands_dealt
        await asyncio.sleep(2.0)  # fill_seconds 0: a running pool deals again within milliseconds
        assert pool.hands_dealt == dealt and sorted(pool.pool.players) == ["bob", "cleo"]
        notices = [message["text"] for message in clients[0].received if message["type"] == "notice"]
        assert "The host paused Zoom 1/2: no new hand until he resumes it; you keep your chips in the pool." \
            in notices
        status = console.perform("ana", AdminRequest("status", {}), 0.0)
        assert status["pools"][0]["paused"] is True
        assert console.perform("ana", AdminRequest("resume", {"table": "zoom"}), 0.0)["text"] == "zoom resumed"
        await until(lambda: pool.hands_dealt > dealt, "the pool to deal again")
        reply = console.perform("ana", AdminRequest("pause_all", {}), 0.0)
        assert reply["text"] == "paused: 1 table and 1 fast-fold pool" and pool.paused
        reply = console.perform("ana", AdminRequest("resume_all", {}), 0.0)
        assert reply["text"] == "resumed: 1 table and 1 fast-fold pool" and not pool.paused
    finally:
        done.set()
        for task in players:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(task, 60)
        for client in clients:
            await client.close()
        await running.close()

"""Issue 27 item 5: pools obey the host. With ``approve_seats = true`` a pool was listed but unusable (every sit
refused) and the console could not approve it; ``croupier bots --table zoom`` said the room had no table 'zoom'."""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import replace
from typing import Any

import asyncssh

from hosting.client import RoomClient
from hosting.config import AccessConfig, parse_room
from hosting.identity import normalize_key
from hosting.server import RunningRoom
from hosting.table_runner import RunnerSettings
from tests.hosting.test_host_console import _host
from tests.waiting import until

ANA = asyncssh.generate_private_key("ssh-ed25519")
ROOM = """
[room]
name = "home"
hosts = ["ana"]
approve_seats = {approve}

[[pools]]
id = "zoom"
game = "texas_holdem"
structure = "no_limit"
stakes = [1, 2]
seats = 6
buy_in = [40, 200]
fill_seconds = 0.5
"""
QUICK = RunnerSettings(commit_seconds=5.0, reveal_seconds=5.0, pause_between_hands=0.0)


def _config(approve: bool) -> Any:
    return replace(parse_room(ROOM.replace("{approve}", str(approve).lower())), access=AccessConfig(
        connections_per_minute=1000, pinned_keys={"ana": normalize_key(ANA.export_public_key().decode())}))


async def test_the_host_approves_a_seat_in_a_pool(rooms: Any, connect: Any) -> None:
    running: RunningRoom = await rooms(_config(approve=True), runner_settings=QUICK, served_tui=False)
    pool = running.room.pools["zoom"]
    ana: RoomClient = await connect(running, "ana", ANA)
    bob: RoomClient = await connect(running, "bob")
    reply = await bob.request("sit", table="zoom", buy_in=100)
    assert reply["pending"] is True and "bob" not in pool.pool.players
    request = await ana.wait_for("seat_request")
    assert (request["table"], request["player"], request["buy_in"]) == ("zoom", "bob", 100)
    status = await _host(ana, "status")
    assert [(row["table"], row["player"]) for row in status["seat_requests"]] == [("zoom", "bob")]
    assert (await _host(ana, "approve", table="zoom", player="bob", stack=150))["text"] == \
        "bob joins pool zoom with 150 chips"
    approved = await bob.wait_for("seat_approved")
    assert (approved["table"], approved["stack"], approved["pool"]) == ("zoom", 150, True)
    assert pool.pool.player("bob").stack == 150
    assert running.room.store is not None and running.room.store.balance("bob") == 1000 - 150
    await ana.request("sit", table="zoom", buy_in=100)  # a host needs nobody's approval
    assert "ana" in pool.pool.players


async def test_croupier_bots_fill_a_pool(rooms: Any) -> None:
    running: RunningRoom = await rooms(_config(approve=False), runner_settings=QUICK, served_tui=False)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "hosting.cli", "bots", "--connect", f"127.0.0.1:{running.port}", "--count", "3",
        "--hands", "4", "--table", "zoom", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(process.communicate(), 240)
    assert process.returncode == 0, err.decode()
    summary = json.loads(out.decode())
    assert summary["players"] == 3 and summary["hands"] >= 4
    assert summary["fairness_failures"] == 0 and summary["fairness_verified"] >= 4
    assert running.room.pools["zoom"].hands_dealt >= 4
    # each bot leaves the pool once its hands were played
    await until(lambda: not running.room.pools["zoom"].pool.players, "every bot to have left the pool")
    assert running.room.pools["zoom"].pool.players == {}

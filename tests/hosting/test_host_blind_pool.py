"""A host-blind fast-fold pool (issue 29, "a table, pool or tournament option dealing = host-blind"): each hand at
each of the pool's tables is shuffled and dealt by the bots seated at it for that hand (a fresh hand id, keys and
deck each time), a folder is back in line at once while his client still answers for the hand he left, every hand
is judged by each client's own referee, chips are conserved and the export verifies with ``croupier verify``.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from engine.fairness_v2.referee import verify_transcript
from engine.fairness_v2.transcript import loads
from hosting.bots import play
from hosting.cli import main
from hosting.client import RoomClient
from hosting.config import parse_room
from hosting.ledger import audit, holdings
from hosting.server import start_room
from hosting.store import connect
from hosting.table_runner import RunnerSettings
from hosting.transcript_signing import sshsig_verifier
from tests.waiting import until

HANDS = 12
BOTS = 6

ROOM = """
[room]
name = "blind pool room"
connections_per_minute = 1000

[[pools]]
id = "zoom"
name = "Blind Zoom 1/2"
game = "texas_holdem"
structure = "no_limit"
stakes = [1, 2]
seats = 3
buy_in = [100, 200]
fill_seconds = 1
dealing = "host-blind"
clock = { action_seconds = 30, time_bank_seconds = 30 }
"""

pytestmark = [pytest.mark.timeout(900)]


async def test_bots_play_a_host_blind_pool_and_its_export_verifies(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    settings = RunnerSettings(commit_seconds=10.0, reveal_seconds=10.0, pause_between_hands=0.0)
    running = await start_room(parse_room(ROOM), data, host="127.0.0.1", port=0, runner_settings=settings,
                               served_tui=False)
    pool = running.room.pools["zoom"]
    clients: list[RoomClient] = []
    try:
        for index in range(BOTS):
            clients.append(await RoomClient.connect("127.0.0.1", running.port, f"bot{index}", host_blind=True,
                                                    client_keys=[asyncssh.generate_private_key("ssh-ed25519")]))
        done = asyncio.Event()

        async def watch() -> None:
            while sum(state.engine.hand_number for state in pool.tables.values()) < HANDS:
                await asyncio.sleep(0.05)
            done.set()

        watcher = asyncio.ensure_future(watch())
        rng = random.Random(29)
        reports = await asyncio.wait_for(asyncio.gather(*(
            play(client, "zoom", 10**6, random.Random(rng.random()), done=done, fold_rate=0.4)
            for client in clients)), 600)
        watcher.cancel()
        for client in clients:  # no commit ahead at a host-blind pool: nothing to commit or reveal
            assert not [message for message in client.received
                        if message["type"] in ("commit_request", "reveal_request")]
            assert client.host_blind is not None and client.host_blind.complaints == [], client.host_blind.complaints
        await until(lambda: not pool.pool.players, "every player to have left the pool")  # when their hands end
        assert pool.pool.players == {}
    finally:
        for client in clients:
            await client.close()
        await running.close()

    assert sum(report.failures for report in reports) == 0
    assert all(report.illegal_rejected == 0 for report in reports), [report.refused_moves for report in reports]
    assert all(report.dealt <= report.hands for report in reports)  # every hand dealt to a bot, judged by it
    assert sum(len(report.tables) > 1 for report in reports) >= 2  # players moved between the pool's tables
    judged = sum(report.verified for report in reports)

    connection = connect(data, read_only=True)
    try:
        rows = connection.execute("SELECT id, transcript, players FROM hands WHERE table_id LIKE 'zoom.%' "
                                  "AND status = 'finished'").fetchall()
        assert audit(connection) == []  # chips and every signed transcript
        held = holdings(connection)
        balances = dict(connection.execute("SELECT name, amount FROM balances").fetchall())
    finally:
        connection.close()
    assert len(rows) >= HANDS
    assert judged >= 2 * HANDS  # each hand judged by the two or three bots dealt in
    assert held["issue"] == sum(balances.values())  # no rake: every chip is back in a balance
    hand_keys: set[tuple[bytes, ...]] = set()
    for hand_id, transcript_text, _ in rows:
        transcript: dict[str, Any] = json.loads(transcript_text)
        hand = loads(json.dumps(transcript["host_blind"]))
        assert hand.header.hand == hand_id
        violations, outcome = verify_transcript(hand, sshsig_verifier(hand.header.host_key), secrets)
        assert violations == [] and outcome is not None, violations
        hand_keys.add(tuple(record.elgamal_key for record in hand.header.seats))
    assert len(hand_keys) == len(rows)  # each hand dealt under its own joint key: never one of another hand

    exported = tmp_path / "hands.phhs"
    assert main(["export", "--data", str(data), "--format", "phh", "-o", str(exported)]) == 0
    assert exported.read_text().count("_transcript = ") >= len(rows)
    capsys.readouterr()
    assert main(["verify", str(exported)]) == 0, capsys.readouterr()


async def test_a_client_that_cannot_take_part_is_refused_at_the_pool_in_one_line(tmp_path: Path) -> None:
    running = await start_room(parse_room(ROOM), tmp_path / "data", host="127.0.0.1", port=0, served_tui=False)
    clients: list[RoomClient] = []
    try:
        for name, host_blind in (("old", False), ("new", True)):
            clients.append(await RoomClient.connect("127.0.0.1", running.port, name, host_blind=host_blind,
                                                    client_keys=[asyncssh.generate_private_key("ssh-ed25519")]))
        old, new = clients
        with pytest.raises(Exception) as raised:
            await old.request("sit", table="zoom", buy_in=200)
        assert "zoom deals host-blind: your client cannot take part; update croupier and connect with " \
               "'croupier join'" in str(raised.value)
        assert "old" not in running.room.pools["zoom"].pool.players  # nothing taken from his bank
        reply = await new.request("sit", table="zoom", buy_in=200)
        assert reply["type"] == "ack" and reply["pool"] is True
    finally:
        for client in clients:
            await client.close()
        await running.close()

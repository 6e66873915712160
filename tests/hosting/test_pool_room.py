"""A fast-fold pool over real SSH (R-FAST-1, issue 16): 18 bots in a 6-max pool play until the pool has dealt
its hands (300 with ``CROUPIER_FULL=1``, a sample of 60 by default: ``CROUPIER_POOL_HANDS``).

Checked: every bot verified every hand it was dealt into (commit ahead included: no bot ever answered a commit
round after a fold), every stored hand's players are exactly the bots that verified it, no move was refused,
chips are conserved (ledger holdings, ``croupier audit`` clean, balances back to what was issued), players met
new opponents (each bot sat at several tables) and the blinds followed the players (each bot's big blinds near
one in six of its hands).
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from pathlib import Path

import asyncssh
import pytest

from hosting.bots import play
from hosting.client import RoomClient
from hosting.hand_records import iter_hands
from hosting.ledger import audit, holdings
from hosting.store import connect
from tests.hosting.pool_rooms import start_pool_room
from tests.hosting.room_files import pool_block, room_block, table_block
from tests.sweeps import sweep
from tests.waiting import until

POOL_HANDS = sweep("CROUPIER_POOL_HANDS", 60, 300)
BOTS = 18

ROOM = room_block("pool room", connections_per_minute=1000) + table_block("nl", buy_in=(80, 200)) + pool_block(
    "zoom", name="Zoom 1/2", stakes=(5, 10), buy_in=(200, 500), fill_seconds=1, rake="white-label",
    clock={"action_seconds": 20, "time_bank_seconds": 20})

pytestmark = [pytest.mark.timeout(600), pytest.mark.slow]


async def test_eighteen_bots_play_a_six_max_pool_over_ssh(tmp_path: Path) -> None:
    data = tmp_path / "data"
    running = await start_pool_room(ROOM, data)
    pool = running.room.pools["zoom"]
    clients: list[RoomClient] = []
    try:
        for index in range(BOTS):
            clients.append(await RoomClient.connect(
                "127.0.0.1", running.port, f"bot{index:02}",
                client_keys=[asyncssh.generate_private_key("ssh-ed25519")]))
        lobby = await clients[0].request("lobby")
        assert [row["id"] for row in lobby["tables"]] == ["nl"]  # the pool's tables are not listed
        assert lobby["pools"][0]["id"] == "zoom" and lobby["pools"][0]["players"] == 0
        done = asyncio.Event()

        async def watch() -> None:
            while sum(state.engine.hand_number for state in pool.tables.values()) < POOL_HANDS:
                await asyncio.sleep(0.05)
            done.set()

        watcher = asyncio.ensure_future(watch())
        rng = random.Random(16)
        reports = await asyncio.gather(*(play(client, "zoom", 10**6, random.Random(rng.random()), done=done,
                                                   fold_rate=0.3) for client in clients))
        watcher.cancel()
        for client in clients:  # commit ahead: every commitment asked was a ticket of the pool, every reveal too
            asked = [message for message in client.received if message["type"] == "commit_request"]
            reveals = [message for message in client.received if message["type"] == "reveal_request"]
            assert asked and {message["table"] for message in asked} == {"zoom"}
            assert reveals and all(message.get("pool") == "zoom" and message.get("ticket") for message in reveals)
        await until(lambda: not pool.pool.players, "every player to have left the pool")  # when their hands end
        assert pool.pool.players == {}
    finally:
        for client in clients:
            await client.close()
        await running.close()

    connection = connect(data, read_only=True)
    try:
        hands = [hand for hand in iter_hands(connection) if hand.table_id.startswith("zoom.")]
        assert audit(connection) == []
        held = holdings(connection)
        balances = dict(connection.execute("SELECT name, amount FROM balances").fetchall())
        stacks = connection.execute("SELECT COUNT(*) FROM table_stacks WHERE amount != 0").fetchone()[0]
    finally:
        connection.close()
    finished = [hand for hand in hands if hand.status == "finished"]
    assert len(finished) >= POOL_HANDS and len(finished) == len(hands)
    # chips: every chip issued is in a balance or was raked; nobody holds chips at a table or in the pool
    assert stacks == 0
    assert held["issue"] == sum(balances.values()) + held.get("rake", 0) + held.get("jackpot", 0)
    assert held.get("rake", 0) > 0
    by_name = {report.name: report for report in reports}
    verified_by: Counter[str] = Counter()
    big_blinds: Counter[str] = Counter()
    for hand in finished:
        for name in hand.players.values():
            report = by_name[name]
            assert hand.hand_id in report.hands, f"{name} did not verify {hand.hand_id}"
            verified_by[name] += 1
        assert hand.forced_bets is not None
        big_blinds[hand.players[hand.forced_bets.big_blind_seat]] += 1  # type: ignore[index]
    for report in reports:
        assert report.failures == 0 and report.violations == [] and report.illegal_rejected == 0, report
        assert report.verified == len(report.hands) == len(report.dealt) == verified_by[report.name]
        assert len(report.tables) >= 3, report.tables  # new tables, new opponents
        assert report.folds and len(report.fold_to_next_cards) >= report.folds // 2
        # one big blind per orbit (6 hands): the pool moves the blinds with the players
        assert abs(big_blinds[report.name] - verified_by[report.name] / 6) <= 3, (report.name, big_blinds)

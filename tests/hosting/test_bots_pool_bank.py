"""Pool bots top up from their bank (issue 28, one bot runner): the pool's runner (hosting/pool_bots.py, now
:func:`hosting.bots.play` for pools too) asked for a top-up on every ``pool`` message below half the maximum
and never looked at its bank, so once the bank ran short the room refused them (a night's ledger showed ~102
pool top-ups and many more asked). Now a pool bot asks only for what its :class:`hosting.bots.Bank` pays, one
at a time, and counts the ones the room ``added``: the summary's ``top_ups`` is the ledger's count."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from engine.table.pool import PoolState
from hosting.bots import play, summarize
from hosting.client import RoomClient
from hosting.ledger import audit
from hosting.store import NEW_ACCOUNT_CHIPS, connect
from tests.hosting.pool_rooms import clients_of, start_pool_room
from tests.hosting.room_files import pool_room

HANDS = 200
BOTS = 4
BUY_IN = (100, 2000)
SIT = 600  # of a new account's 1,000: 400 left in the bank, less than the top-up back to the maximum (1,400)

ROOM = pool_room(stakes=(5, 10), buy_in=BUY_IN)


@pytest.mark.timeout(600)
async def test_pool_bots_top_up_only_what_their_bank_pays_and_count_what_was_added(tmp_path: Path) -> None:
    data = tmp_path / "data"
    running = await start_pool_room(ROOM, data)
    pool = running.room.pools["zoom"]
    clients: list[RoomClient] = []
    asked: list[dict[str, Any]] = []  # every top-up a bot sent, as the room got it
    try:
        for client in await clients_of(running, [f"bot{index}" for index in range(BOTS)]):
            send = client.send

            async def counted(message_type: str, _send: Any = send, **fields: Any) -> None:
                if message_type == "top_up":
                    asked.append(fields)
                await _send(message_type, **fields)

            client.send = counted  # type: ignore[method-assign]
            clients.append(client)
        done = asyncio.Event()

        def dealt() -> int:
            return sum(state.engine.hand_number for state in pool.tables.values())

        def with_chips() -> int:
            return sum(player.stack > 0 or player.state is PoolState.PLAYING for player in pool.pool.players.values())

        async def watch() -> None:  # the pool's hands, or fewer than two bots with chips: no hand can start
            while dealt() < HANDS and (dealt() == 0 or with_chips() >= 2):
                await asyncio.sleep(0.1)
            done.set()

        watcher = asyncio.ensure_future(watch())
        rng = random.Random(28)
        reports = await asyncio.gather(*(play(client, "zoom", 10**6, random.Random(rng.random()), done=done,
                                              buy_in=SIT)
                                         for client in clients))
        watcher.cancel()
        refused = [message for client in clients for message in client.received
                   if message["type"] == "error" and message.get("in_reply_to") == "top_up"]
    finally:
        for client in clients:
            await client.close()
        await running.close()
    connection = connect(data, read_only=True)
    try:
        assert audit(connection) == []
        ledger = connection.execute("SELECT COUNT(*) FROM ledger WHERE reason = 'top-up'").fetchone()[0]
    finally:
        connection.close()
    summary = summarize(reports)
    assert refused == [], f"the room refused {len(refused)} of {len(asked)} top-ups: {refused[:3]}"
    assert summary["top_ups_refused"] == 0
    assert ledger == summary["top_ups"] == len(asked) > 0, (ledger, summary["top_ups"], len(asked))
    assert all(fields["amount"] <= NEW_ACCOUNT_CHIPS - SIT for fields in asked), asked

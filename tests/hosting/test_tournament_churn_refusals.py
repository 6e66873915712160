"""Issue 25 item 10: an honest client was closed with "too many refused requests (24); last: verification" during
tournament churn.

The cause: a client checks each hand's proof (``seeds``) and sends its verdict back, which reaches the room a
network round-trip later. A tournament breaks tables and closes them all when it ends, at once after their last
hand — so the verdict on that hand found no table: refused (``no_such_table``), and every refusal spent the
connection's error budget like a bad line. A player moved or knocked out at each break, in Sit & Go after Sit &
Go, ran out of budget and was disconnected. The room now remembers who was dealt into each recent hand after
its table has gone (hosting.verdicts.FinishedHands), and takes those verdicts as any other.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Any

from engine.tournament.director import Phase
from hosting.store import Store
from tests.hosting.tournament_play import Shover, sit_and_go, tournament_room, until

NAMES = tuple(f"p{number}" for number in range(9))
LAG_SECONDS = 0.3


def _lagging(bot: Shover, sent: list[dict[str, Any]]) -> None:
    """His verdicts reach the room as over a slow link: ``LAG_SECONDS`` after he checked the hand."""
    connection = bot.connection
    connection.reads_later = True  # as from a socket: each answer a loop turn after the room's message
    to_room = connection._to_room
    loop = asyncio.get_running_loop()

    def later(message: dict[str, Any]) -> None:
        if message.get("type") == "verification":
            sent.append(message)
            loop.call_later(LAG_SECONDS, to_room, message)
        else:
            to_room(message)

    connection._to_room = later  # type: ignore[method-assign]


async def test_honest_clients_are_refused_no_verdict_while_tournament_tables_break_and_close(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "store")
    for name in NAMES:
        store.register(name, f"ssh-ed25519 AAAA{name}")
    room = tournament_room(tmp_path / "data", store, (sit_and_go(size=9, seats=3, level_seconds=0.5),))
    room.start()
    bots = [await Shover.join(room, name) for name in NAMES]
    sent: list[dict[str, Any]] = []
    for bot in bots:
        _lagging(bot, sent)

    def answers() -> list[dict[str, Any]]:
        return [message for bot in bots for message in bot.messages
                if message.get("in_reply_to") == "verification"]

    try:
        for bot in bots:
            await bot.connection.send("tournament", action="register", tournament="sng")
        owner = room.tournaments.owners["sng"]
        await until(lambda: owner.director.phase is Phase.COMPLETE, timeout=300)
        await until(lambda: not any(table.startswith("sng.") for table in room.tables))
        await until(lambda: len(answers()) == len(sent))  # every verdict answered, the last ones too
        closed = {message["table"] for message in sent}
        assert closed and not closed & set(room.tables)  # verdicts on hands of tables closed since
        refused = Counter((message.get("in_reply_to"), message.get("code")) for bot in bots
                          for message in bot.messages if message.get("type") == "error")
        assert refused == Counter()  # before: ('verification', 'no_such_table') for most of them
        assert [message["type"] for message in answers()] == ["ack"] * len(sent)
        kept = {(report["table"], report["hand"], report["name"]) for report in room.verification_reports}
        assert {(message["table"], message["hand"]) for message in sent} <= {(table, hand) for table, hand, _ in kept}
    finally:
        for bot in bots:
            await bot.stop()
        await room.stop()
        await store.close()

"""Issue 25, after the attack pass: a fast-fold pool's late commit did not spend the late-answer allowance.

At a cash table a slow link's commit or reveal that comes after its deadline is refused but not counted as abuse,
up to a per-name allowance (hosting.late_answers). A pool asks each player's commitment ahead, for his next hand
(a ticket: table = the pool's id, hand = the ticket): when he then misses a shuffle the pool drops that ticket, and
his commit for it, arriving late, was refused as any refusal — the error budget paid for a slow link. The pool now
tells the room whom each ticket asked, so the same allowance covers it, bounded the same way; a commit for
another player's ticket still counts.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import asyncssh

from hosting import protocol
from hosting.bots import play
from hosting.client import RoomClient
from hosting.config import parse_room
from hosting.late_answers import LATE_ANSWERS
from hosting.server import start_room
from hosting.table_runner import RunnerSettings
from tests.hosting.room_files import pool_room
from tests.waiting import until
from tui.connection import LocalConnection

ROOM = pool_room(name="Zoom", seats=3, buy_in=(80, 200), fill_seconds=0.2, action_seconds=8)
SETTINGS = RunnerSettings(commit_seconds=1.0, reveal_seconds=1.0, pause_between_hands=0.0)
LAG = 3.0
"""How late the slow player's commits and reveals reach the room: past the reveal deadline of his first hand."""


class SlowLink:
    """``connection``'s commits and reveals reach the room ``LAG`` seconds after its client made them; for each
    commit to the pool, whether the pool had dropped its ticket by then (refused) and what the room's ``receive``
    said of it (True: counted against his error budget)."""

    def __init__(self, connection: LocalConnection, pool: Any) -> None:
        self.room, self.session, self.pool = connection.room, connection.session, pool
        self.ticket_commits: list[tuple[dict[str, Any], bool, bool]] = []  # (message, refused, counted)
        on_time = connection._to_room
        loop = asyncio.get_running_loop()

        def later(message: dict[str, Any]) -> None:
            if message.get("type") in ("commit", "reveal"):
                loop.call_later(LAG, self.deliver, message)
            else:
                on_time(message)

        connection._to_room = later  # type: ignore[method-assign]

    def deliver(self, message: dict[str, Any]) -> bool:
        open_ticket = self.pool._tickets.get(self.session.name)
        refused = open_ticket is None or open_ticket.id != message["hand"] or open_ticket.commitment is not None
        counted = self.room.receive(self.session, protocol.validate(message))
        if message["type"] == "commit" and message["table"] == self.pool.id:
            self.ticket_commits.append((message, refused, counted))
        return counted


async def test_a_pool_players_late_commit_spends_the_late_answer_allowance_not_the_error_budget(
        tmp_path: Path) -> None:
    running = await start_room(parse_room(ROOM), tmp_path / "data", host="127.0.0.1", port=0,
                               runner_settings=SETTINGS, served_tui=False)
    bots: list[RoomClient] = [await RoomClient.connect(
        "127.0.0.1", running.port, f"bot{index}", client_keys=[asyncssh.generate_private_key("ssh-ed25519")])
        for index in range(2)]
    done = asyncio.Event()
    playing = asyncio.ensure_future(asyncio.gather(*(
        play(bot, "zoom", 10**6, random.Random(index), done=done) for index, bot in enumerate(bots))))
    slow = await LocalConnection.attach(running.room, "slow")
    eve = await LocalConnection.attach(running.room, "eve")
    try:
        link = SlowLink(slow, running.room.pools["zoom"])
        await slow.send("sit", table="zoom", buy_in=200)
        # dealt in on his first ticket, he is asked his next one's commit; his reveal comes late, so he misses
        # the shuffle and the pool drops that ticket: his commit for it comes after, refused
        await until(lambda: any(refused for _, refused, _ in link.ticket_commits), "a late commit to a dropped ticket")
        late, _, counted = next(item for item in link.ticket_commits if item[1])
        assert counted is False  # before: True, one token of his error budget

        # the same late commit again and again: the allowance's burst, then each one counts (bounded)
        burst, _ = LATE_ANSWERS
        again = [link.deliver(dict(late)) for _ in range(int(burst) + 5)]
        assert again.count(False) <= burst - 1 and again[-5:] == [True] * 5

        # a player the ticket never asked: a refusal that counts, late or not
        assert running.room.receive(eve.session, protocol.validate(dict(late))) is True
    finally:
        done.set()
        await asyncio.wait_for(asyncio.gather(playing, return_exceptions=True), 120)
        for connection in (slow, eve):
            await connection.close()
        for bot in bots:
            await bot.close()
        await running.close()

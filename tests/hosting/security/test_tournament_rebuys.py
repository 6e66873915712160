"""Rebuys and add-ons attacked from the wire (issue 18, R-TOUR-3).

A rebuy asked during the player's hand waits for the hand's end (TDA: chips between hands). Every such request was
queued: 300 asked in one hand made 300 tries after it — one rebuy and 299 ``error`` messages, a list that grew
with every message the connection was allowed. The same request asked again while one waits is the same request:
acknowledged, queued once, and the director is not asked again (each call to it, raised or not, is journaled and
stored with the tournament's next step). Whatever was asked, the money adds up: the entry and the one rebuy in the
ledger, the audit clean.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from engine.tournament.director import Phase
from engine.tournament.settings import Rebuys
from hosting.ledger import audit
from hosting.room import Room
from hosting.store import Store
from tests.hosting.tournament_play import Shover, sit_and_go, tournament_room, until


class Holder(Shover):
    """A player who answers his turn only when :attr:`go` is set (his hand stays in play meanwhile)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.go = asyncio.Event()
        self.turns: list[dict[str, Any]] = []
        self._answers: list[asyncio.Task[None]] = []

    @classmethod
    async def join_holding(cls, room: Room, name: str) -> Holder:
        from tui.connection import LocalConnection
        bot = cls(await LocalConnection.attach(room, name))
        bot.task = asyncio.get_running_loop().create_task(bot._hold())
        return bot

    async def _hold(self) -> None:
        from tui.connection import ConnectionLost
        with contextlib.suppress(ConnectionLost):
            while True:
                message = await self.connection.receive()
                self.messages.append(message)
                if message.get("type") == "action_request":
                    self.turns.append(message)
                    self._answers.append(asyncio.get_running_loop().create_task(self._answer(message)))

    async def _answer(self, message: dict[str, Any]) -> None:
        await self.go.wait()
        legal = message["legal"]
        kind = "check" if legal.get("can_check") else "call" if legal.get("call_amount") else "fold"
        await self.connection.send("action", kind=kind, table=message["table"], hand=message["hand"])


def rebuy_answers(bot: Shover) -> list[dict[str, Any]]:
    return [ack for ack in bot.replies("ack") if ack.get("action") == "rebuy"]


async def test_a_rebuy_asked_300_times_in_one_hand_is_queued_once(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "store")
    for name in ("ana", "mallory"):
        store.register(name, f"ssh-ed25519 AAAA{name}")  # 1,000 each
    config = sit_and_go(size=2, seats=2, level_seconds=600.0, knockout=0,
                        rebuys=Rebuys(3_600.0, 100_000, 1_000, 100, 10, max_rebuys=1))  # any stack, once
    room = tournament_room(tmp_path / "data", store, (config,))
    room.start()
    ana = await Shover.join(room, "ana")
    ana.passive = True
    mallory = await Holder.join_holding(room, "mallory")
    try:
        for bot in (ana, mallory):
            await bot.connection.send("tournament", action="register", tournament="sng")
        owner = room.tournaments.owners["sng"]
        await until(lambda: owner.director.phase is not Phase.REGISTERING and bool(mallory.turns))
        (entry,) = owner.director.entries_of("mallory")
        assert owner.director.tables[entry.table].in_hand(entry.number)  # his hand waits for him
        for _ in range(300):
            await mallory.connection.send("tournament", action="rebuy", tournament="sng")
        await until(lambda: len(rebuy_answers(mallory)) >= 300)
        assert all(ack.get("after_hand") for ack in rebuy_answers(mallory))
        assert sum(len(queue) for queue in owner._after_hand.values()) == 1
        assert owner.journal is not None  # the director was asked once: 299 raised calls were journaled, kept
        assert sum(call.method == "rebuy" for call in owner.journal.calls) <= 1
        mallory.go.set()
        await until(lambda: entry.rebuys == 1)
        await asyncio.sleep(0.5)  # the queue was handled: nothing more comes of it
        assert entry.rebuys == 1 and not mallory.replies("error")
        assert len([ack for ack in rebuy_answers(mallory) if "stack" in ack]) == 1  # made once, after the hand
        assert [event["chips"] for event in mallory.events("rebought")] == [1_000]
        await store.flush()
        assert store.balance("mallory") == 1_000 - 110 - 110  # the entry and one rebuy, nothing more
        assert audit(store.connection) == []
    finally:
        for bot in (ana, mallory):
            await bot.stop()
        await room.stop()
        await store.close()

"""The practice table's bots (``croupier play``): a busted bot buys in again and plays on (issue 14 item 23: "Carla
0 sitting out" for ever)."""

from __future__ import annotations

import asyncio
import contextlib
import random
from pathlib import Path
from typing import Any

from engine.table_events import PlayerSatOut
from hosting.commands import play
from hosting.config import TableConfig
from tests.waiting import until
from tui.connection import ConnectionLost, LocalConnection


class Scripted:
    """A bot's connection that hands over ``messages`` and records what the bot sends."""

    def __init__(self, name: str, messages: list[dict[str, Any]]) -> None:
        self.name = name
        self.messages = list(messages)
        self.sent: list[dict[str, Any]] = []

    async def receive(self) -> dict[str, Any]:
        if not self.messages:
            raise ConnectionLost("done")
        return self.messages.pop(0)

    async def send(self, message_type: str, **fields: Any) -> None:
        self.sent.append({"type": message_type, **fields})


def sat_out(player: str, reason: str) -> dict[str, Any]:
    return {"v": 1, "type": "event", "table": "practice", "hand": "",
            "event": PlayerSatOut(seat=2, player=player, reason=reason, seat_freed_at=9.0)}


async def test_a_busted_bot_buys_in_again_and_sits_back_in() -> None:
    connection = Scripted("Carla", [sat_out("Ana", "no_chips"), sat_out("Carla", "asked"),
                                    sat_out("Carla", "no_chips")])
    bot = play.PracticeBot(connection, "steady", random.Random(1), (0.0, 0.0), "texas_holdem", 200)
    await bot.run()
    # only her own bust counts (not Ana's, not a sit-out she asked for): the maximum buy-in, then back in
    assert connection.sent == [{"type": "top_up", "table": "practice", "amount": 200},
                               {"type": "sit_out", "table": "practice", "on": False}]
    assert bot.rebuys == 1


async def test_at_the_practice_room_a_bot_that_went_broke_plays_again(tmp_path: Path) -> None:
    """Carla sits with 2 chips (one big blind) at a heads-up table: she is all-in at once and soon broke; she
    must be back with chips, not sitting out."""
    table = TableConfig("practice", "practice 1/2", "texas_holdem", "no_limit", 1, 2, 2, min_buy_in=2,
                        max_buy_in=200, clock={"action_seconds": 30.0, "time_bank_seconds": 0.0})
    room = play.build_room(table, tmp_path, pause_between_hands=0.02)
    room.start()
    bots: list[play.PracticeBot] = []
    try:
        for name, buy_in in (("Ana", 200), ("Carla", 2)):
            connection = await LocalConnection.attach(room, name)
            await connection.send("sit", table="practice", buy_in=buy_in)
            bot = play.PracticeBot(connection, "loose", random.Random(len(bots)), (0.0, 0.0), "texas_holdem", 200)
            bot.task = asyncio.get_running_loop().create_task(bot.run())
            bots.append(bot)
        engine = room.tables["practice"].engine
        carla = bots[1]

        async def back_with_chips() -> None:
            while True:
                seat = engine.seat_of("Carla")
                seated = engine.players[seat] if seat is not None else None
                if carla.rebuys and seated is not None and seated.stack > 0 and not seated.sitting_out:
                    return
                await asyncio.sleep(0.02)

        await asyncio.wait_for(back_with_chips(), 60)
        played = engine.hand_number
        await asyncio.wait_for(_until(lambda: engine.hand_number >= played + 2), 60)  # and the table goes on
        # chips conserved: the two buy-ins and every rebuy are on the table (no rake at practice)
        assert engine.chips_on_table() == 200 + 2 + 200 * sum(bot.rebuys for bot in bots)
    finally:
        for bot in bots:
            if bot.task is not None:
                bot.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await bot.task
        await room.stop()


async def _until(condition: Any) -> None:
    await until(condition, "the practice room")

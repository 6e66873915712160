"""A rebuy offered when a player's chips are gone holds his table (issue 18): the table deals no hand while he
decides (a person needs the seconds the window shows, not the 1–3 s pause between hands), and deals again as
soon as he answers. In process: the real room, its table runners and store."""

from __future__ import annotations

import asyncio
from pathlib import Path

from engine.tournament.settings import Rebuys
from hosting.store import Store
from tests.hosting.tournament_play import Shover, sit_and_go, tournament_room, until

NAMES = ("ana", "bob", "cy")


async def test_a_busted_players_table_waits_for_his_rebuy_answer_and_deals_right_after_it(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "store")
    for name in NAMES:
        store.register(name, f"ssh-ed25519 AAAA{name}")
    # rebuys only when the chips are gone (threshold 0), for the whole test
    config = sit_and_go(size=3, seats=3, level_seconds=600.0, knockout=0, rebuys=Rebuys(3_600.0, 0, 1_000, 100, 10))
    room = tournament_room(tmp_path / "data", store, (config,))
    room.start()
    bots = [await Shover.join(room, name) for name in NAMES]
    try:
        owner = room.tournaments.owners["sng"]
        owner.rebuy_decision_seconds = 3_600.0  # the answer ends the wait, not the clock (a loaded machine)
        for bot in bots:
            await bot.connection.send("tournament", action="register", tournament="sng")
        await until(lambda: any(bot.events("rebuy_offered") for bot in bots))
        offered = [bot for bot in bots if bot.events("rebuy_offered")]
        hands = owner.director.hands
        assert all(offer["seconds"] == 3_600.0 for bot in offered for offer in bot.events("rebuy_offered"))
        # the pause between hands is 0.02 s: two seconds are a hundred pauses, and no hand is dealt
        await asyncio.sleep(2.0)
        assert owner.director.hands == hands
        assert all(entry.pending_rebuy for bot in offered for entry in owner.director.entries_of(bot.name)
                   if entry.live)
        rebuyer = offered[0]
        await rebuyer.connection.send("tournament", action="rebuy", tournament="sng")
        for bot in offered[1:]:
            await bot.connection.send("tournament", action="decline_rebuy", tournament="sng")
        await until(lambda: owner.director.hands > hands, timeout=60.0)  # dealt after the answer
        assert [ack["stack"] for ack in rebuyer.replies("ack") if ack.get("action") == "rebuy"] == [1_000]
        assert store.balance(rebuyer.name) == 1_000 - 110 - 110
    finally:
        for bot in bots:
            await bot.stop()
        await room.stop()
        await store.close()

"""Acting at tournament tables that are not one's own (issue 18): checked, found fine — kept as a regression test.

A tournament table is a room table like any other: a move names its table and hand, and the table's runner plays
it for the sender's own seat only (there is no seat field). So a player at table 1 who sends a move, a commitment
or a reveal for table 2's hand, or table 2's hand id at his own table, is refused — and sitting, leaving or
topping up at a tournament table is refused too (the director seats players). Both tables play on.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.tournament.director import Phase
from hosting.ledger import audit
from hosting.store import Store
from tests.hosting.tournament_play import Shover, sit_and_go, tournament_room, until

NAMES = ("ana", "bob", "cy", "dee", "eve", "fay")


async def answer(bot: Shover, message_type: str, **fields: Any) -> dict[str, Any]:
    count = len(bot.messages)
    await bot.connection.send(message_type, **fields)

    def answers(message: dict[str, Any]) -> bool:  # not the acks of his own client's moves at his own table
        return message["type"] in ("ack", "error") and message.get("in_reply_to") == message_type and \
            all(message.get(key, fields[key]) == fields[key] for key in ("table", "hand") if key in fields)

    await until(lambda: any(answers(message) for message in bot.messages[count:]))
    return next(message for message in bot.messages[count:] if answers(message))


async def test_moves_for_another_tournament_table_or_its_hand_are_refused(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "store")
    for name in NAMES:
        store.register(name, f"ssh-ed25519 AAAA{name}")
    room = tournament_room(tmp_path / "data", store, (sit_and_go(level_seconds=600.0, knockout=0),))
    room.start()
    bots = [await Shover.join(room, name) for name in NAMES]
    try:
        for bot in bots:
            bot.passive = True
            await bot.connection.send("tournament", action="register", tournament="sng")
        owner = room.tournaments.owners["sng"]
        await until(lambda: owner.director.phase is Phase.RUNNING and len(owner.tables) == 2)
        mine = {bot.name: owner.table_id(entry.table) for bot in bots for entry in owner.director.entries_of(bot.name)
                if entry.table is not None}
        attacker = bots[0]
        own = mine[attacker.name]
        other = next(table for table in mine.values() if table != own)
        runner = room.drivers[other]
        await until(lambda: runner._hand_id is not None)
        hand = runner._hand_id
        assert hand is not None
        for kind in ("fold", "check", "call", "all_in"):
            refused = await answer(attacker, "action", table=other, hand=hand, kind=kind)
            assert refused["type"] == "error" and refused["code"] in ("not_your_turn", "illegal_action", "no_hand"), \
                refused
        refused = await answer(attacker, "action", table=own, hand=hand, kind="fold")  # table 2's hand at table 1
        assert refused["type"] == "error" and refused["code"] == "no_hand"
        for message_type, field in (("commit", "commitment"), ("reveal", "secret")):
            refused = await answer(attacker, message_type, table=other, hand=hand, **{field: "ab" * 32})
            assert refused["type"] == "error"
        for message_type, fields in (("sit", {"buy_in": 1}), ("leave", {}), ("top_up", {"amount": 1})):
            refused = await answer(attacker, message_type, table=other, **fields)
            assert refused["type"] == "error" and "tournament table" in refused["message"], refused
        # both tables play on, every chip where it was
        seeds = len(attacker.replies("seeds"))
        await until(lambda: len(attacker.replies("seeds")) > seeds + 1)
        assert owner.director.chips_in_play() == 6 * 1_000
        await store.flush()
        assert audit(store.connection) == []
    finally:
        for bot in bots:
            await bot.stop()
        await room.stop()
        await store.close()

"""Final-table deals attacked from the wire (issue 18, R-TOUR-5): a deal is the finalists' business only, and no
finalist can hold the table still with one.

* A player who is not part of the deal on the table (an outsider, a player already out) cannot decline it.
* A deal nobody answers is off after ``DealGuard.seconds`` (60 s; hosting.tournament_guard): silence is no
  consent, play goes on.
* A finalist proposes at most one deal per hand played: proposing again at once after a refusal (or an expiry) is
  refused, so he cannot keep the table from dealing by proposing after every decline.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from engine.tournament.director import Phase
from hosting.config import RoomConfig
from hosting.ledger import audit
from hosting.room import Room
from hosting.store import Store
from hosting.table_runner import RunnerSettings, TableRunner
from hosting.tournaments import TournamentOwner
from tests.hosting.tournament_play import Shover, sit_and_go, until
from tests.tui.roombots import make_room

NAMES = ("ana", "bob", "cy")
# a long pause between hands: the window in which a deal may be proposed (between hands) is easy to hit
SLOW_PAUSE = RunnerSettings(commit_seconds=5.0, reveal_seconds=5.0, pause_between_hands=0.6)


class FinalTable:
    def __init__(self, room: Room, store: Store, bots: list[Shover], outsider: Shover) -> None:
        self.room, self.store, self.bots, self.outsider = room, store, bots, outsider

    @property
    def owner(self) -> TournamentOwner:
        return self.room.tournaments.owners["sng"]

    async def propose(self, proposer: Shover, kind: str = "chips") -> dict[str, Any]:
        """Propose between hands (right after a hand's seeds): the first answer to a proposal made then."""
        for _ in range(40):
            await next_hand_end(proposer)
            reply = await request(proposer, "propose_deal", deal=kind)
            if reply["type"] == "ack" or "between hands" not in reply.get("message", ""):
                return reply
        raise AssertionError("never between hands")


async def next_hand_end(bot: Shover) -> None:
    """Until ``bot`` hears the seeds of one more hand (a hand ended: the table is between hands)."""
    seen = len(bot.replies("seeds"))
    await until(lambda: len(bot.replies("seeds")) > seen, timeout=30)


async def request(bot: Shover, action: str, **fields: Any) -> dict[str, Any]:
    """Send a tournament request; its answer (the ``ack`` or ``error`` after it)."""
    count = len(bot.messages)
    await bot.connection.send("tournament", action=action, tournament="sng", **fields)
    await until(lambda: any(message["type"] in ("ack", "error") for message in bot.messages[count:]))
    return next(message for message in bot.messages[count:] if message["type"] in ("ack", "error"))


@pytest.fixture
async def final_table(tmp_path: Path) -> AsyncIterator[FinalTable]:
    store = Store.open(tmp_path / "store")
    for name in (*NAMES, "mallory"):
        store.register(name, f"ssh-ed25519 AAAA{name}")
    base = make_room(tmp_path / "data", [], SLOW_PAUSE)
    config = RoomConfig(name="tournament room", tables=(),
                        tournaments=(sit_and_go(size=3, seats=3, level_seconds=600.0, knockout=0),))
    room = Room(config, base.room_id, base.gatekeeper, store=store,
                driver_factory=lambda room, state: TableRunner(room, state, SLOW_PAUSE))
    room.start()
    bots = [await Shover.join(room, name) for name in NAMES]
    outsider = await Shover.join(room, "mallory")
    for bot in bots:
        bot.passive = True  # checks and calls: hands go to showdown, nobody busts quickly
        await bot.connection.send("tournament", action="register", tournament="sng")
    try:
        await until(lambda: room.tournaments.owners["sng"].director.phase is Phase.FINAL_TABLE)
        yield FinalTable(room, store, bots, outsider)
    finally:
        for bot in (*bots, outsider):
            await bot.stop()
        await room.stop()
        await store.close()


async def test_a_player_outside_the_deal_cannot_decline_it(final_table: FinalTable) -> None:
    proposer = final_table.bots[0]
    assert (await final_table.propose(proposer))["type"] == "ack"
    director = final_table.owner.director
    assert director.deal_on_table is not None

    refused = await request(final_table.outsider, "decline_deal")
    assert refused["type"] == "error" and "not part of the deal" in refused["message"]
    assert director.deal_on_table is not None  # the finalists' deal is still theirs to answer
    assert not any(bot.events("deal_declined") for bot in final_table.bots)

    for bot in final_table.bots[1:]:
        assert (await request(bot, "accept_deal"))["type"] == "ack"
    await until(lambda: director.phase is Phase.COMPLETE)
    await final_table.store.flush()
    assert director.cashier.paid_out == 300  # three entries of 100: every chip of the pool paid once, by the deal
    assert audit(final_table.store.connection) == []


async def test_an_unanswered_deal_is_off_in_time_and_play_goes_on(final_table: FinalTable) -> None:
    owner = final_table.owner
    owner.deals.seconds = 1.0
    proposer = final_table.bots[0]
    assert (await final_table.propose(proposer))["type"] == "ack"
    await until(lambda: owner.director.deal_on_table is None, timeout=15)  # nobody answered: off
    assert [event["player"] for event in proposer.events("deal_declined")] == ["bob"]  # the first who was silent
    await next_hand_end(proposer)  # the table deals again


async def test_a_finalist_proposes_once_per_hand(final_table: FinalTable) -> None:
    proposer, other = final_table.bots[0], final_table.bots[1]
    assert (await final_table.propose(proposer))["type"] == "ack"
    assert (await request(other, "decline_deal"))["type"] == "ack"
    refused = await request(proposer, "propose_deal", deal="icm")
    assert refused["type"] == "error" and "after the next hand" in refused["message"], refused
    assert final_table.owner.director.deal_on_table is None
    # the table deals; after that hand he may propose again
    assert (await final_table.propose(proposer, "icm"))["type"] == "ack"
    assert [event["kind"] for event in other.events("deal_proposed")] == ["chips", "icm"]


async def test_accepting_again_and_again_is_refused_and_tells_nobody(final_table: FinalTable) -> None:
    """Each accept was a director step (a store transaction) and a ``deal_accepted`` to every finalist: an accept
    repeated at the message rate flooded the table and the store. A finalist accepts once."""
    proposer, other = final_table.bots[0], final_table.bots[1]
    assert (await final_table.propose(proposer))["type"] == "ack"  # the proposer accepts his own deal
    for _ in range(10):  # (each refusal spends his connection's error budget: burst 20)
        await proposer.connection.send("tournament", action="accept_deal", tournament="sng")
    refused = await request(proposer, "accept_deal")
    assert refused["type"] == "error" and "already accepted" in refused["message"], refused
    assert (await request(other, "accept_deal"))["type"] == "ack"
    assert [event["player"] for event in other.events("deal_accepted")] == ["ana", "bob"]  # once each
    assert final_table.owner.director.deal_on_table is not None  # cy has not answered

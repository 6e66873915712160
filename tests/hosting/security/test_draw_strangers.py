"""Issue 25, after the attack pass: a ``draw_commit`` from a player who is not in that draw was acknowledged.

A commit–reveal draw (a Spin's multiplier, a tournament's first seats: hosting.draw_round) silently dropped a
stranger's commit or reveal and the room answered ``ack``: the stranger was told it was taken and it cost him
nothing, so he could send them without end. It is refused now (``not_dealt_in``, like a hand's shuffle), spends
his error budget, and the draw goes on as if it never came. A late answer from a player the draw did ask is a
slow link's (hosting.late_answers), not abuse.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from engine.fair_draw import check_proof
from engine.tournament.formats import SPIN_MULTIPLIERS
from hosting import protocol
from hosting.draw_round import DrawSeconds
from tests.hosting.security.wire_room import Listener, WireRoom, wire_room

SPIN = tuple((row.multiplier, row.chances) for row in SPIN_MULTIPLIERS)
QUICK = DrawSeconds(commit_seconds=30.0, reveal_seconds=30.0)  # all three answer at once: never waited out
DRAW = "seats:friday-1"


@pytest.fixture
async def room(tmp_path: Path) -> AsyncIterator[WireRoom]:
    async for started in wire_room(tmp_path / "room"):
        yield started


def _draw_message(kind: str, **fields: Any) -> protocol.Inbound:
    return protocol.validate({"v": 1, "type": kind, **fields})


def _answers(listener: Listener, kind: str) -> list[tuple[str, str]]:
    return [(message["type"], message.get("code", "")) for message in listener.received
            if message.get("in_reply_to") == kind]  # an ack or an error


async def test_a_strangers_draw_commit_and_reveal_are_refused_and_cost_him_not_the_draw(room: WireRoom) -> None:
    players = [await room.listener(name) for name in ("ann", "bob", "cy")]
    mallory = await room.listener("mallory")
    draw = asyncio.ensure_future(room.room.run_draw(DRAW, SPIN, ["ann", "bob", "cy"], QUICK))
    await asyncio.sleep(0)
    assert DRAW in room.room.draws  # running: the stranger's messages reach it
    session = mallory.connection.session
    counted = [room.room.receive(session, _draw_message("draw_commit", draw=DRAW, commitment="ab" * 32)),
               room.room.receive(session, _draw_message("draw_reveal", draw=DRAW, secret="cd" * 32))]
    assert counted == [True, True]  # each spends his error budget (before: False, and an ack)
    await mallory.wait_for(lambda: len(mallory.of_type("error")) == 2, "both refusals")
    assert _answers(mallory, "draw_commit") == [("error", "not_dealt_in")]
    assert _answers(mallory, "draw_reveal") == [("error", "not_dealt_in")]
    assert mallory.of_type("error")[0]["message"] == f"you are not taking part in draw {DRAW}"
    assert mallory.of_type("ack") == []

    proof = await asyncio.wait_for(draw, 120)
    assert sorted(proof.commitments) == sorted(proof.secrets) == ["ann", "bob", "cy"]
    assert proof.withheld == () and check_proof(proof, outcomes=SPIN) == []
    for player in players:
        await player.wait_for(lambda player=player: player.of_type("draw_proof"), "the proof")
        assert player.connection.fairness is not None and player.connection.fairness.draws is not None
        assert player.connection.fairness.draws.results == {DRAW: []}

    # after the draw: a player it asked, late, is a slow link (not counted); the stranger's still count
    late = _draw_message("draw_commit", draw=DRAW, commitment="ab" * 32)
    assert room.room.receive(players[0].connection.session, late) is False
    assert room.room.receive(session, late) is True
    await players[0].wait_for(lambda: len(_answers(players[0], "draw_commit")) == 2, "ann's late commit answered")
    assert _answers(players[0], "draw_commit") == [("ack", ""), ("error", "no_hand")]  # her own in time, then this

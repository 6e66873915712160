"""Issue 25, the sub-point left open: a slow but honest client's commit or reveal that reaches the room after its
deadline is refused (``too_late``, or ``no_hand`` once the hand is over) — and each refusal spent the name's error
budget like a bad line, so a client on a slow link was disconnected after enough late answers. A late answer to a
shuffle that asked this player is now answered but not counted as abuse, up to a bound of its own
(``hosting.late_answers``); from a player the shuffle never asked it is a refusal like any other.

The room's ``receive`` says whether a message counts against the error budget (``hosting.room.Room.feed`` spends
it when it does): the tests read that answer for each late message.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from hosting import protocol
from hosting.late_answers import LATE_ANSWERS
from hosting.room import Room
from tests.hosting.security.wire_room import Listener, WireRoom, wire_room
from tests.tui.roombots import FAST

LAG = FAST.commit_seconds + 1.0
"""How late the slow client's answers reach the room: past the shuffle's deadline."""


@pytest.fixture
async def room(tmp_path: Path) -> AsyncIterator[WireRoom]:
    async for started in wire_room(tmp_path / "room"):
        yield started


class SlowLink:
    """``listener``'s commits (or reveals) reach the room ``LAG`` seconds after his client made them; what the
    room's ``receive`` said of each (True: counted against his error budget) is kept."""

    def __init__(self, room: Room, listener: Listener, lagging: str) -> None:
        self.room, self.lagging = room, lagging
        self.counted: list[tuple[str, str, bool]] = []  # (type, hand, counted)
        self.sent: list[dict[str, Any]] = []
        connection = listener.connection
        self.session = connection.session
        on_time = connection._to_room
        loop = asyncio.get_running_loop()

        def later(message: dict[str, Any]) -> None:
            if message.get("type") == self.lagging:
                self.sent.append(message)
                loop.call_later(LAG, self.deliver, message)
            else:
                on_time(message)

        connection._to_room = later  # type: ignore[method-assign]

    def deliver(self, message: dict[str, Any]) -> bool:
        inbound = protocol.validate(message)
        counted = self.room.receive(self.session, inbound)
        self.counted.append((message["type"], message["hand"], counted))
        return counted


def _refusals(listener: Listener, kind: str) -> list[str]:
    return [message["code"] for message in listener.received
            if message.get("type") == "error" and message.get("in_reply_to") == kind]


async def test_a_slow_clients_late_commit_and_reveal_are_answered_not_counted(room: WireRoom) -> None:
    await room.bot("b1")
    await room.bot("b2")
    slow = await room.listener("slow")
    link = SlowLink(room.room, slow, "commit")
    await slow.connection.send("sit", table="t1", buy_in=100)
    await slow.wait_for(lambda: link.counted and _refusals(slow, "commit"), "his late commit answered")
    assert _refusals(slow, "commit") in (["too_late"], ["no_hand"])  # told, as before
    assert link.counted[0][2] is False  # before: True (one token of his error budget each)

    # sat out for the miss (his first: he may sit in at once); now his reveal comes late
    link.lagging = "reveal"
    await slow.connection.send("sit_out", table="t1", on=False)
    await slow.wait_for(lambda: len(link.counted) == 2 and _refusals(slow, "reveal"), "his late reveal answered")
    assert link.counted[1][0] == "reveal"
    assert _refusals(slow, "reveal") in (["too_late"], ["no_hand"])
    assert link.counted[1][2] is False
    assert not link.session.ended and not _refusals(slow, "sit_out")


async def test_late_answers_are_bounded_and_a_stranger_s_are_refusals(room: WireRoom) -> None:
    await room.bot("b1")
    await room.bot("b2")
    slow = await room.listener("slow")
    link = SlowLink(room.room, slow, "commit")
    await slow.connection.send("sit", table="t1", buy_in=100)
    await slow.wait_for(lambda: link.counted, "his late commit reached the room")
    late = link.sent[0]

    # the same late commit again and again: a few more are forgiven, then each counts (the room stays bounded)
    again = [link.deliver(dict(late)) for _ in range(60)]
    burst, _ = LATE_ANSWERS
    assert again.count(False) == burst - 1 and again[-1] is True

    # a player this shuffle never asked gets a refusal that counts, late or not
    eve = await room.listener("eve")
    stranger = protocol.validate(dict(late))
    assert room.room.receive(eve.connection.session, stranger) is True

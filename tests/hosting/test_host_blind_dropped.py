"""A player who vanishes in a host-blind hand (issue 29, Must show): six players over the real room, one stops
answering right after his shuffle. The room times him out (folded), the escrow holders stand in for his share of
everyone else's cards and the board, the hand finishes — and his own cards stay closed, to everyone."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Any

from engine.events import HandEnded
from engine.fairness_v2.referee import Referee, verify_transcript
from engine.fairness_v2.transcript import Covers, Timeout
from hosting.client import RoomClient
from hosting.config import RoomConfig
from hosting.host_blind_runner import HostBlindRunner
from hosting.server import RunningRoom
from hosting.transcript_signing import sshsig_verifier
from tests.hosting.test_host_blind_play import BLIND, PACED

NAMES = ("ana", "bob", "cy", "dee", "eve", "fay")


def _move(legal: dict[str, Any]) -> dict[str, Any]:
    if legal.get("can_show"):
        return {"kind": "show"}
    return {"kind": "call"} if legal.get("call_amount") else {"kind": "check"}


async def _play_one_hand(client: RoomClient) -> dict[str, int]:
    while True:
        message = await client.receive(120.0)
        if message["type"] == "action_request":
            await client.send("action", table="blind", hand=message["hand"], **_move(message["legal"]))
        elif message["type"] == "event" and isinstance(message["event"], HandEnded):
            return dict(message["event"].stacks)


def _vanish_after_shuffle(client: RoomClient) -> asyncio.Event:
    """His client answers up to its shuffle, then nothing: it closes its connection at the next request."""
    gone = asyncio.Event()
    participant = client.host_blind
    assert participant is not None
    handle = participant.handle

    def handle_until_shuffled(message: dict[str, Any]) -> list[dict[str, Any]]:
        if message.get("type") == "blind_request" and message.get("step") not in ("seat", "escrow", "shuffle"):
            if not gone.is_set():
                gone.set()
                asyncio.get_running_loop().create_task(client.close())
            return []
        return handle(message)

    participant.handle = handle_until_shuffled  # type: ignore[method-assign]
    return gone


async def test_six_players_one_vanishes_after_the_shuffle(rooms: Callable[..., Any],
                                                          connect: Callable[..., Any]) -> None:
    room: RunningRoom = await rooms(RoomConfig("blind room", (BLIND,)), runner_settings=PACED,
                                    blind_step_seconds=3.0)
    clients = [await connect(room, name, host_blind=True) for name in NAMES]
    state = room.room.tables["blind"]
    for seat, name in enumerate(NAMES):  # all at once: the first hand is dealt to the six
        room.room.seat_player(name, state, 200, seat, room.room.clock())
    room.room.drivers["blind"].wake()
    runner = room.room.drivers["blind"]
    assert isinstance(runner, HostBlindRunner)
    dropper = clients[3]
    gone = _vanish_after_shuffle(dropper)
    others = [client for client in clients if client is not dropper]
    results = await asyncio.wait_for(asyncio.gather(*(_play_one_hand(client) for client in others)), 180)
    assert gone.is_set()
    assert all(stacks == results[0] for stacks in results)  # the hand finished, the same for all
    transcript = runner.transcripts[0]
    seat = next(record.seat for record in transcript.header.seats if record.name == "dee")
    timeouts = [entry.body for entry in transcript.entries if isinstance(entry.body, Timeout)]
    assert timeouts == [Timeout(seat, "deal")]
    assert sum(results[0].values()) == 6 * 200 and results[0][seat] <= 200  # folded: his blind at most is lost
    covers = [entry.body for entry in transcript.entries if isinstance(entry.body, Covers)]
    assert covers and all(cover.dealer == seat for cover in covers)
    violations, outcome = verify_transcript(transcript, sshsig_verifier(transcript.header.host_key), secrets)
    assert violations == [] and outcome is not None and seat not in outcome.shown
    assert outcome.stacks == results[0]
    # his own cards: no cover, no share of his, so nobody opens them — not the host, not the verifier
    referee = Referee(transcript.header, secrets, viewer=None)
    for entry in transcript.entries:
        referee.apply(entry)
    his = referee.positions_of(seat)
    assert len(his) == 2 and all(referee.open_position(position) is None for position in his)
    covered = {item.position for cover in covers for item in cover.items}
    assert not covered & set(his)
    for client in others:  # the others' hole cards opened to them, from the covers of his share
        assert client.host_blind is not None and client.host_blind.complaints == []
        assert len(client.host_blind.hole_cards) == 1

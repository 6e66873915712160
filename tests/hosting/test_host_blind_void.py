"""A host-blind hand that cannot be finished is void (R-CRASH-1, issue 29): six players over the real room, all
call preflop, then three of them vanish when the flop is to be opened. Four holders of each key's escrow are
needed to stand in for a missing player (threshold 4 of 5 at six players): with three gone, the third leaves
only three. The hand ends void as it stands — no flop is dealt, no card opens — every chip goes back but what the
three put in, shared by the three left; the room's log says so, the hand checks out offline, and the next hand
is dealt to the three."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.events import BoardDealt, HandEnded, HandVoided
from engine.fairness_v2.referee import Referee, verify_transcript
from engine.fairness_v2.transcript import Covers, Timeout
from hosting.client import RoomClient
from hosting.config import RoomConfig
from hosting.host_blind_runner import HostBlindRunner
from hosting.ledger import audit
from hosting.server import RunningRoom
from hosting.store import Store
from hosting.transcript_signing import sshsig_verifier
from tests.hosting.test_host_blind_play import BLIND, PACED

NAMES = ("ana", "bob", "cy", "dee", "eve", "fay")
DROPPERS = ("dee", "eve", "fay")


def _move(legal: dict[str, Any]) -> dict[str, Any]:
    if legal.get("can_show"):
        return {"kind": "show"}
    return {"kind": "call"} if legal.get("call_amount") else {"kind": "check"}


async def _play_hands(client: RoomClient, hands: int, seen: list[Any]) -> list[dict[int, int]]:
    """Plays ``hands`` hands (checking or calling), keeping every event; each hand's final stacks."""
    results = []
    while len(results) < hands:
        message = await client.receive(120.0)
        if message["type"] == "action_request":
            await client.send("action", table="blind", hand=message["hand"], **_move(message["legal"]))
        elif message["type"] == "event":
            seen.append((message.get("hand"), message["event"]))
            if isinstance(message["event"], HandEnded):
                results.append(dict(message["event"].stacks))
    return results


def _vanish_at_the_flop(droppers: list[RoomClient]) -> asyncio.Event:
    """When the room first asks one of them to open the flop, all three close their connections."""
    gone = asyncio.Event()
    for client in droppers:
        participant = client.host_blind
        assert participant is not None
        handle = participant.handle

        def answer(message: dict[str, Any], handle: Callable[..., list[dict[str, Any]]] = handle) -> list[Any]:
            if message.get("type") == "blind_request" and message.get("step") == "board":
                if not gone.is_set():
                    gone.set()
                    for each in droppers:
                        asyncio.get_running_loop().create_task(each.close())
                return []
            return handle(message)

        participant.handle = answer  # type: ignore[method-assign]
    return gone


async def _drive_droppers(client: RoomClient) -> None:
    """A dropper plays his preflop turn (a call or a check) until his connection closes."""
    try:
        while True:
            message = await client.receive(120.0)
            if message["type"] == "action_request":
                await client.send("action", table="blind", hand=message["hand"], **_move(message["legal"]))
    except Exception:
        return


async def test_three_of_six_vanish_at_the_flop_and_the_hand_is_void(
        rooms: Callable[..., Any], connect: Callable[..., Any], tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="croupier.room")
    data_dir = tmp_path / "room"
    room: RunningRoom = await rooms(RoomConfig("blind room", (BLIND,)), runner_settings=PACED,
                                    blind_step_seconds=3.0, data_dir=data_dir)
    clients = [await connect(room, name, host_blind=True) for name in NAMES]
    state = room.room.tables["blind"]
    for seat, name in enumerate(NAMES):  # all at once: the first hand is dealt to the six
        room.room.seat_player(name, state, 200, seat, room.room.clock())
    runner = room.room.drivers["blind"]
    assert isinstance(runner, HostBlindRunner)
    runner.wake()
    droppers = [client for client, name in zip(clients, NAMES, strict=True) if name in DROPPERS]
    stayers = [client for client in clients if client not in droppers]
    gone = _vanish_at_the_flop(droppers)
    dropper_tasks = [asyncio.create_task(_drive_droppers(client)) for client in droppers]
    seen: list[list[Any]] = [[] for _ in stayers]
    results = await asyncio.wait_for(asyncio.gather(*(_play_hands(client, 2, mine) for client, mine in
                                                      zip(stayers, seen, strict=True))), 300)
    await asyncio.gather(*dropper_tasks)
    assert gone.is_set()
    seats = {name: seat for seat, name in enumerate(NAMES)}
    # everyone put 2 in preflop; the three who vanished lose theirs, the 6 are shared by the three left
    voided = {seat: 198 if name in DROPPERS else 202 for name, seat in seats.items()}
    assert all(mine[0] == voided for mine in results) and sum(voided.values()) == 6 * 200
    first_hand = runner.transcripts[0].header.hand
    for mine in seen:
        events = [event for hand, event in mine if hand == first_hand]
        (void,) = [event for event in events if isinstance(event, HandVoided)]
        assert dict(void.forfeited) == {seats[name]: 2 for name in DROPPERS}
        assert dict(void.returned) == {seats[name]: 4 for name in NAMES if name not in DROPPERS}
        assert "too few players" in void.reason
        assert not [event for event in events if isinstance(event, BoardDealt)]  # no flop, not even a placeholder
    # the next hand is dealt to the three who stayed, and their stacks carry on from the void
    second = results[0][1]
    assert set(second) == {seats[name] for name in NAMES if name not in DROPPERS} and sum(second.values()) == 606
    # the transcript of the void hand checks out offline, void with the same stacks, and no card opens in it
    transcript = runner.transcripts[0]
    timeouts = [entry.body for entry in transcript.entries if isinstance(entry.body, Timeout)]
    assert sorted(timeout.seat for timeout in timeouts) == sorted(seats[name] for name in DROPPERS)
    assert all(timeout.step == "board" for timeout in timeouts)
    assert not [entry for entry in transcript.entries if isinstance(entry.body, Covers)]
    violations, outcome = verify_transcript(transcript, sshsig_verifier(transcript.header.host_key), secrets)
    assert violations == [] and outcome is not None and outcome.void and outcome.stacks == voided
    referee = Referee(transcript.header, secrets)
    for entry in transcript.entries:
        referee.apply(entry)
    assert [position for position in range(52) if referee.open_position(position) is not None] == []
    for client in stayers:  # each client judged the hand (void) and found nothing wrong
        participant = client.host_blind
        assert participant is not None and participant.complaints == []
        assert participant.results[("blind", first_hand)] == []
    assert any("is void (R-CRASH-1)" in record.getMessage() and "dee, eve, fay" in record.getMessage()
               for record in caplog.records)
    await room.close()
    store = Store.open(data_dir)
    try:  # the ledger holds: what the three lost went to the three who stayed
        assert audit(store.connection) == []
        rows = store.connection.execute(
            "SELECT player, amount FROM ledger WHERE hand_id = ? AND reason = 'hand voided' ORDER BY player",
            (first_hand,)).fetchall()
        assert rows == [("ana", 4), ("bob", 4), ("cy", 4)]
    finally:
        store.close_now()

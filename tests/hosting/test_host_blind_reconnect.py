"""A host-blind player whose connection drops mid-hand and comes back within his clock resumes the hand (issue 29):
his keys are on his machine, and his client keeps its part of the hand across connections. Bob's connection
drops when the room asks him to open the flop; he logs in again with the same key and client. The room sends
him the hand so far and the step again; he answers, nobody is timed out, his hole cards are his own, and the hand
checks out for everyone."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Any

import asyncssh

from engine.events import HandEnded, HoleCardsDealt
from engine.fairness_v2.referee import verify_transcript
from engine.fairness_v2.transcript import Timeout
from hosting.client import RoomClient
from hosting.config import RoomConfig
from hosting.host_blind_runner import HostBlindRunner
from hosting.server import RunningRoom
from hosting.transcript_signing import sshsig_verifier
from tests.hosting.test_host_blind_play import BLIND, PACED

NAMES = ("ana", "bob", "cy")


def _move(legal: dict[str, Any]) -> dict[str, Any]:
    if legal.get("can_show"):
        return {"kind": "show"}
    return {"kind": "call"} if legal.get("call_amount") else {"kind": "check"}


async def _play_hand(client: RoomClient, seen: list[Any]) -> dict[int, int]:
    while True:
        message = await client.receive(120.0)
        if message["type"] == "action_request":
            await client.send("action", table="blind", hand=message["hand"], **_move(message["legal"]))
        elif message["type"] == "event":
            seen.append(message["event"])
            if isinstance(message["event"], HandEnded):
                return dict(message["event"].stacks)


async def test_a_player_who_drops_at_the_flop_and_returns_resumes_the_hand(
        rooms: Callable[..., Any], connect: Callable[..., Any]) -> None:
    room: RunningRoom = await rooms(RoomConfig("blind room", (BLIND,)), runner_settings=PACED,
                                    blind_step_seconds=30.0)
    keys = {name: asyncssh.generate_private_key("ssh-ed25519") for name in NAMES}
    clients = [await connect(room, name, keys[name], host_blind=True) for name in NAMES]
    state = room.room.tables["blind"]
    for seat, name in enumerate(NAMES):
        room.room.seat_player(name, state, 200, seat, room.room.clock())
    runner = room.room.drivers["blind"]
    assert isinstance(runner, HostBlindRunner)
    ana, bob, cy = clients
    participant = bob.host_blind
    assert participant is not None
    handle = participant.handle
    dropped = asyncio.Event()

    def drop_at_the_flop(message: dict[str, Any]) -> list[dict[str, Any]]:
        if message.get("type") == "blind_request" and message.get("step") == "board" and not dropped.is_set():
            dropped.set()  # his connection goes before he answers
            asyncio.get_running_loop().create_task(bob.close())
            return []
        return handle(message)

    participant.handle = drop_at_the_flop  # type: ignore[method-assign]
    runner.wake()
    seen: dict[str, list[Any]] = {name: [] for name in NAMES}
    others = [asyncio.create_task(_play_hand(client, seen[name])) for client, name in ((ana, "ana"), (cy, "cy"))]

    async def bob_plays() -> dict[int, int]:
        try:
            return await _play_hand(bob, seen["bob"])
        except Exception:  # his connection dropped: he comes back
            await dropped.wait()
            again = await connect(room, "bob", keys["bob"], participant=participant)
            return await _play_hand(again, seen["bob"])

    results = await asyncio.wait_for(asyncio.gather(bob_plays(), *others), 240)
    assert dropped.is_set()
    assert results[0] == results[1] == results[2] and sum(results[0].values()) == 600
    transcript = runner.transcripts[0]
    assert [entry for entry in transcript.entries if isinstance(entry.body, Timeout)] == []  # nobody timed out
    violations, outcome = verify_transcript(transcript, sshsig_verifier(transcript.header.host_key), secrets)
    assert violations == [] and outcome is not None and outcome.stacks == results[0]
    assert len(outcome.board) == 5
    verdict = ("blind", transcript.header.hand)
    async with asyncio.timeout(60):  # the room's blind_end follows the hand's end: his client's verdict then
        while verdict not in participant.results:
            await asyncio.sleep(0.05)
    assert participant.complaints == [] and participant.results[verdict] == []
    # his own cards, decrypted on his side, before and after the drop: the same two
    mine = [event.cards for event in seen["bob"] if isinstance(event, HoleCardsDealt)]
    assert len(mine) >= 2 and len(set(mine)) == 1 and len(mine[0]) == 2
    assert participant.hole_cards[transcript.header.hand] == tuple(str(card) for card in mine[0])

"""Host-blind hands over the real room (issue 29): clients over SSH take part in the dealing (keys, escrow,
shuffles with proofs, shares to the owner only, signed actions); the room relays and never learns a hole card."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Any

from engine.events import HandEnded, HoleCardsDealt
from engine.fairness_v2.referee import verify_transcript
from hosting.client import RoomClient
from hosting.config import RoomConfig, TableConfig
from hosting.host_blind_runner import HostBlindRunner
from hosting.server import RunningRoom
from hosting.table_runner import RunnerSettings
from hosting.transcript_signing import sshsig_verifier

PACED = RunnerSettings(commit_seconds=3.0, reveal_seconds=3.0, pause_between_hands=0.05)
BLIND = TableConfig("blind", "Blind 1/2", "texas_holdem", "no_limit", 1, 2, 6, 40, 200, "none",
                    {"action_seconds": 30.0, "time_bank_seconds": 30.0}, manual_showdown=True, dealing="host-blind")


def _move(legal: dict[str, Any]) -> dict[str, Any]:
    if legal.get("can_show"):
        return {"kind": "show"}
    return {"kind": "call"} if legal.get("call_amount") else {"kind": "check"}


async def _play(client: RoomClient, hands: int, seen: dict[str, Any]) -> None:
    await client.request("sit", table="blind", buy_in=200)
    ended = 0
    while ended < hands:
        message = await client.receive(60.0)
        if message["type"] == "action_request":
            await client.send("action", table="blind", hand=message["hand"], **_move(message["legal"]))
        elif message["type"] == "event" and isinstance(message["event"], HoleCardsDealt):
            seen.setdefault("hole", []).append((message["hand"], message["event"].cards))
        elif message["type"] == "event" and isinstance(message["event"], HandEnded):
            ended += 1
            seen.setdefault("stacks", []).append(dict(message["event"].stacks))
        elif message["type"] == "error":
            seen.setdefault("errors", []).append(message)


async def test_three_join_clients_play_host_blind_hands(rooms: Callable[..., Any], connect: Callable[..., Any]) -> None:
    room: RunningRoom = await rooms(RoomConfig("blind room", (BLIND,)), runner_settings=PACED)
    clients = [await connect(room, name, host_blind=True) for name in ("ana", "bob", "cy")]
    seen: list[dict[str, Any]] = [{} for _ in clients]
    await asyncio.wait_for(asyncio.gather(*(_play(client, 3, mine) for client, mine in zip(clients, seen,
                                                                                            strict=True))), 240)
    for client, mine in zip(clients, seen, strict=True):
        assert client.host_blind is not None and client.host_blind.complaints == [], client.host_blind.complaints
        assert len(mine["hole"]) >= 3 and all(len(cards) == 2 for _, cards in mine["hole"])
        assert "errors" not in mine, mine.get("errors")
    for stacks in seen[0]["stacks"]:
        assert sum(stacks.values()) == 600
    runner = room.room.drivers["blind"]
    assert isinstance(runner, HostBlindRunner) and runner.transcripts
    results = []
    for transcript in runner.transcripts:  # every hand checks offline, and its result is the table's
        violations, outcome = verify_transcript(transcript, sshsig_verifier(transcript.header.host_key), secrets)
        assert violations == [] and outcome is not None
        results.append(outcome.stacks)
    assert results[-3:] == seen[0]["stacks"][-3:]
    by_hand: dict[str, list[Any]] = {}
    for mine in seen:
        for hand, cards in mine["hole"]:
            by_hand.setdefault(hand, []).extend(cards)
    for hand, cards in by_hand.items():
        assert len(cards) == len(set(cards)), f"{hand}: two players hold the same card"


async def test_bots_play_a_host_blind_table(rooms: Callable[..., Any]) -> None:
    from hosting import bots
    room: RunningRoom = await rooms(RoomConfig("blind room", (BLIND,)), runner_settings=PACED)
    summary = await asyncio.wait_for(bots.run_bots("127.0.0.1", room.port, 3, 6, seed=3, table="blind"), 300)
    assert summary["hands"] >= 6 and summary["chips_conserved"]
    assert summary["fairness_failures"] == 0 and summary["fairness_verified"] >= 18

"""Host-blind hands over the real room (issue 29): clients over SSH take part in the dealing (keys, escrow,
shuffles with proofs, shares to the owner only, signed actions); the room relays and never learns a hole card."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.events import HandEnded, HoleCardsDealt
from engine.fairness_v2.referee import verify_transcript
from hosting.cli import main
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


async def test_bots_play_a_host_blind_table(rooms: Callable[..., Any], tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    from hosting import bots
    data_dir = tmp_path / "room"
    room: RunningRoom = await rooms(RoomConfig("blind room", (BLIND,)), runner_settings=PACED, data_dir=data_dir)
    summary = await asyncio.wait_for(bots.run_bots("127.0.0.1", room.port, 3, 6, seed=3, table="blind"), 300)
    assert summary["hands"] >= 6 and summary["chips_conserved"]
    assert summary["fairness_failures"] == 0 and summary["fairness_verified"] >= 18
    await room.close()
    # the export holds each hand's signed transcript where trackers ignore it; unopened cards are ????
    exported = tmp_path / "hands.phhs"
    assert main(["export", "--data", str(data_dir), "--format", "phh", "-o", str(exported)]) == 0
    text = exported.read_text()
    assert text.count("_transcript = ") >= 6 and "????" in text and '\\"host_blind\\"' in text
    capsys.readouterr()
    assert main(["verify", str(exported)]) == 0, capsys.readouterr()
    assert "every shuffle checks out" in capsys.readouterr().err
    # a changed amount inside a transcript: that hand fails, with what and where
    tampered = tmp_path / "tampered.phhs"
    first = text.index('\\"action\\":\\"call\\"')
    tampered.write_text(text[:first] + text[first:].replace('\\"action\\":\\"call\\"',
                                                            '\\"action\\":\\"fold\\"', 1))
    assert main(["verify", str(tampered)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("record 1 (") and "(action from bot" in lines[0]
    assert lines[0].endswith("the signature does not verify: the entry was changed after it was signed")
    assert all(line.startswith("record 1 (") for line in lines)  # the other hands check out

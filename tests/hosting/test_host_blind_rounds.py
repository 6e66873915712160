"""A street is opened in one round (issue 29, load at human pace): the room asks every player of a host-blind hand
for his shares of the street at once, before any answer is chained, and chains the answers in seat order — so the
action that deals a street carries one client round trip, not one per player. The same for the deal shares."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Any

import msgspec

from engine.events import HandEnded
from engine.fairness_v2.referee import verify_transcript
from engine.fairness_v2.transcript import Act, Entry, Shares
from hosting.client import RoomClient
from hosting.config import RoomConfig
from hosting.host_blind_runner import HostBlindRunner
from hosting.server import RunningRoom
from hosting.transcript_signing import sshsig_verifier
from tests.hosting.test_host_blind_play import BLIND, PACED

_ENTRY = msgspec.json.Decoder(Entry)


async def _play(client: RoomClient, hands: int, seen: dict[str, list[int]]) -> None:
    """Call or check every hand down; at each request for deal or board shares, how many shares of that opening
    this client had already been relayed (another player's answer chained before he was even asked)."""
    await client.request("sit", table="blind", buy_in=200)
    ended = 0
    since: dict[str, int] = {"deal": 0, "board": 0}
    while ended < hands:
        message = await client.receive(60.0)
        kind = message["type"]
        if kind == "action_request":
            legal = message["legal"]
            move = {"kind": "show"} if legal.get("can_show") else \
                {"kind": "call"} if legal.get("call_amount") else {"kind": "check"}
            await client.send("action", table="blind", hand=message["hand"], **move)
        elif kind == "blind_entry":
            body = _ENTRY.decode(message["entry"]).body
            if isinstance(body, Shares) and body.purpose in since:
                since[body.purpose] += 1
            elif isinstance(body, Act):
                since = {"deal": 0, "board": 0}
        elif kind == "blind_request" and message["step"] in since:
            seen.setdefault(message["step"], []).append(since[message["step"]])
        elif kind == "blind_header":
            since = {"deal": 0, "board": 0}
        elif kind == "event" and isinstance(message["event"], HandEnded):
            ended += 1
        elif kind == "error":
            seen.setdefault("errors", []).append(0)


async def test_six_players_are_asked_for_a_street_at_once(rooms: Callable[..., Any],
                                                          connect: Callable[..., Any]) -> None:
    room: RunningRoom = await rooms(RoomConfig("blind room", (BLIND,)), runner_settings=PACED)
    names = ("ana", "bob", "cy", "dee", "eve", "fay")
    clients = [await connect(room, name, host_blind=True) for name in names]
    seen: list[dict[str, list[int]]] = [{} for _ in clients]
    await asyncio.wait_for(asyncio.gather(*(_play(client, 2, mine) for client, mine in zip(clients, seen,
                                                                                            strict=True))), 300)
    for client, mine in zip(clients, seen, strict=True):
        assert client.host_blind is not None and client.host_blind.complaints == [], client.host_blind.complaints
        assert "errors" not in mine
        assert len(mine["board"]) >= 3 and len(mine["deal"]) >= 2, mine  # flop, turn, river of each hand
    # nobody's answer was chained before every player had been asked: one round per opening
    assert [mine["board"] for mine in seen] == [[0] * len(mine["board"]) for mine in seen]
    assert [mine["deal"] for mine in seen] == [[0] * len(mine["deal"]) for mine in seen]
    runner = room.room.drivers["blind"]
    assert isinstance(runner, HostBlindRunner) and runner.transcripts
    for transcript in runner.transcripts:  # chained in seat order, and every hand checks offline
        violations, outcome = verify_transcript(transcript, sshsig_verifier(transcript.header.host_key), secrets)
        assert violations == [] and outcome is not None and len(outcome.board) == 5
        board = [entry for entry in transcript.entries if isinstance(entry.body, Shares)
                 and entry.body.purpose == "board"]
        assert [entry.sender for entry in board] == [0, 1, 2, 3, 4, 5] * 3

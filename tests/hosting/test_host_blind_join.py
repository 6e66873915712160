"""``croupier join`` takes part in host-blind dealing (issue 29): its connection (tui.connection.SshConnection)
offers it in its hello, so the room lets it sit; its client deals its part, the TUI gets its own hole cards (which
only it decrypted) and, after the hand, its own referee's verdict as the hand log's fairness badge."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import asyncssh

from engine.events import HandEnded, HoleCardsDealt
from hosting.config import RoomConfig
from hosting.server import RunningRoom
from tests.hosting.test_host_blind_play import BLIND, PACED
from tui.connection import SshConnection


async def _one_hand(connection: SshConnection) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    await connection.send("sit", table="blind", buy_in=200)
    while "fairness" not in seen:
        message = await connection.receive()
        kind = message["type"]
        if kind == "error":
            raise AssertionError(message)
        if kind == "action_request":
            legal = message["legal"]
            move = {"kind": "show"} if legal.get("can_show") else \
                {"kind": "call"} if legal.get("call_amount") else {"kind": "check"}
            await connection.send("action", table="blind", hand=message["hand"], **move)
        elif kind == "event" and isinstance(message["event"], HoleCardsDealt):
            seen["hole"] = message["event"].cards
        elif kind == "event" and isinstance(message["event"], HandEnded):
            seen["ended"] = message["hand"]
        elif kind == "fairness" and message["hand"] == seen.get("ended"):
            seen["fairness"] = message
    return seen


async def test_croupier_join_sits_and_plays_at_a_host_blind_table(rooms: Callable[..., Any]) -> None:
    room: RunningRoom = await rooms(RoomConfig("blind room", (BLIND,)), runner_settings=PACED)
    connections = [await SshConnection.open("127.0.0.1", room.port, name, known_hosts=None, agent_path=None,
                                            config=[], client_keys=[asyncssh.generate_private_key("ssh-ed25519")])
                   for name in ("ana", "bob")]
    try:
        seen = await asyncio.wait_for(asyncio.gather(*(_one_hand(connection) for connection in connections)), 120)
    finally:
        for connection in connections:
            await connection.close()
    for mine in seen:
        assert len(mine["hole"]) == 2
        assert mine["fairness"]["ok"] is True and mine["fairness"]["violations"] == []
    assert not set(seen[0]["hole"]) & set(seen[1]["hole"])

"""``croupier bots`` runs all night beside a home game (``--think 1-2``) or plays a tournament to its end: its
clients kept every message the room sent them (:attr:`hosting.client.RoomClient.received`, for tests), a list
that grows with every event of every hand until the process ends. The bots read the room through their queue
and their fairness participant only: they keep nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from hosting import bots
from hosting.client import RoomClient
from hosting.config import AccessConfig, RoomConfig, TableConfig
from hosting.server import RunningRoom
from hosting.table_runner import RunnerSettings

FAST = RunnerSettings(commit_seconds=5.0, reveal_seconds=5.0, pause_between_hands=0.02)


async def test_croupier_bots_keep_no_message_log(rooms: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[RoomClient] = []
    open_client = RoomClient.open.__func__  # type: ignore[attr-defined]

    async def watched(cls: type[RoomClient], *arguments: Any, **options: Any) -> RoomClient:
        client: RoomClient = await open_client(cls, *arguments, **options)
        opened.append(client)
        return client

    monkeypatch.setattr(RoomClient, "open", classmethod(watched))
    table = TableConfig("t1", "Hold'em 1/2", "texas_holdem", "no_limit", 1, 2, 6, 40, 200)
    running: RunningRoom = await rooms(RoomConfig("room", (table,), AccessConfig(connections_per_minute=1000)),
                                       runner_settings=FAST)
    summary = await asyncio.wait_for(bots.run_bots("127.0.0.1", running.port, 2, 3, seed=5, table="t1"), 240)
    assert summary["hands"] >= 3 and summary["fairness_failures"] == 0
    assert len(opened) == 2
    assert [len(client.received) for client in opened] == [0, 0]

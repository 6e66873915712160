"""A real in-process room for the TUI tests, and simple bot players on it (check or call, sometimes fold).

The room is :class:`hosting.room.Room` with its real :class:`hosting.table_runner.TableRunner` per table
(commit–reveal shuffle, engine hands); players reach it through :class:`tui.connection.LocalConnection`,
the same transport ``croupier play`` uses. No SSH listener is needed.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hosting import datadir
from hosting.config import AccessConfig, RoomConfig, TableConfig
from hosting.identity import AccountStore, Gatekeeper
from hosting.room import Room
from hosting.table_runner import RunnerSettings, TableRunner
from tui.connection import ConnectionLost, LocalConnection

FAST = RunnerSettings(commit_seconds=2.0, reveal_seconds=2.0, pause_between_hands=0.05)


def table(id: str, seats: int = 6, blinds: tuple[int, int] = (1, 2), game: str = "texas_holdem",
          structure: str = "no_limit", action_seconds: float = 30.0) -> TableConfig:
    return TableConfig(id, f"Table {id}", game, structure, blinds[0], blinds[1], seats,
                       min_buy_in=40 * blinds[1], max_buy_in=100 * blinds[1], rake="none",
                       clock={"action_seconds": action_seconds, "time_bank_seconds": 30.0})


def make_room(data_dir: Path, tables: Sequence[TableConfig], settings: RunnerSettings = FAST) -> Room:
    datadir.prepare(data_dir)
    gatekeeper = Gatekeeper(AccessConfig(connections_per_minute=1000, registrations_per_address=100_000),
                            AccountStore(data_dir / "accounts.json"))
    config = RoomConfig(name="test room", tables=tuple(tables))
    return Room(config, datadir.room_id(data_dir), gatekeeper,
                driver_factory=lambda room, state: TableRunner(room, state, settings))


class Bot:
    """A player that sits at ``tables`` and checks, else calls (folds when ``folds`` says so)."""

    def __init__(self, connection: LocalConnection, folds: bool = False, delay: float = 0.0) -> None:
        self.connection = connection
        self.folds = folds
        self.delay = delay
        self.actions = 0
        self.task: asyncio.Task[None] | None = None

    @classmethod
    async def seat(cls, room: Room, name: str, tables: Sequence[str], buy_in: int = 200, seat: int | None = None,
                   folds: bool = False, delay: float = 0.0) -> Bot:
        bot = cls(await LocalConnection.attach(room, name), folds, delay)
        for table_id in tables:
            await bot.connection.send("sit", table=table_id, buy_in=buy_in, seat=seat)
        bot.task = asyncio.get_running_loop().create_task(bot._play())
        return bot

    async def _play(self) -> None:
        with contextlib.suppress(ConnectionLost):
            while True:
                message = await self.connection.receive()
                if message.get("type") != "action_request":
                    continue
                legal: dict[str, Any] = message["legal"]
                fields = {"table": message["table"], "hand": message["hand"]}
                extra: dict[str, Any] = {}
                if legal.get("can_show"):
                    kind = "show"
                elif legal.get("max_discards"):
                    kind, extra = "draw", {"discard": []}  # stands pat
                elif legal.get("bring_in_amount") is not None and legal.get("call_amount") is None \
                        and not legal.get("can_check"):
                    kind = "bring_in"
                elif legal.get("can_check"):
                    kind = "check"
                elif self.folds and legal.get("can_fold"):
                    kind = "fold"
                elif legal.get("call_amount") is not None:
                    kind = "call"
                else:
                    kind = "fold"
                self.actions += 1
                if self.delay:
                    await asyncio.sleep(self.delay)  # a human-like pause: the other player sees "not your turn"
                await self.connection.send("action", kind=kind, **fields, **extra)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        await self.connection.close()

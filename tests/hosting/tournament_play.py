"""A room with tournaments and bot players for the tournament tests (in process, no SSH): the real room, its real
table runners (commit–reveal, clocks) and store; bots that register and shove every hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.tournament.formats import Format
from engine.tournament.levels import Level
from engine.tournament.money import EntryPrice
from engine.tournament.settings import TournamentSettings
from hosting.config import RoomConfig
from hosting.room import Room
from hosting.store import Store
from hosting.table_runner import RunnerSettings, TableRunner
from hosting.tournament_config import TournamentConfig
from tests import waiting
from tests.tui.roombots import make_room
from tui.connection import ConnectionLost, LocalConnection

FAST = RunnerSettings(commit_seconds=5.0, reveal_seconds=5.0, pause_between_hands=0.02)


def sit_and_go(tournament_id: str = "sng", size: int = 6, seats: int = 3, *, level_seconds: float = 3.0,
               knockout: int = 20, recurring: bool = False, cancel_refund: str = "chips",
               **extra: Any) -> TournamentConfig:
    """A Sit & Go of ``size`` in tables of ``seats``: 100 + 10 (+ ``knockout``), 1,000 chips, short levels."""
    levels = tuple(Level(10 * step, 20 * step, duration=level_seconds)
                   for step in (1, 2, 3, 5, 8, 12, 20, 30, 50, 80, 120, 200, 300, 500, 800, 1_200, 2_000))
    settings = TournamentSettings(tournament_id, Format.SIT_AND_GO, sit_and_go_size=size, max_players=size,
                                  seats_per_table=seats, price=EntryPrice(100, 10, knockout), starting_stack=1_000,
                                  schedule=levels, **extra)
    return TournamentConfig(settings, f"Sit & Go {tournament_id}", recurring, cancel_refund)


def tournament_room(data: Path, store: Store, tournaments: tuple[TournamentConfig, ...]) -> Room:
    base = make_room(data, [])
    config = RoomConfig(name="tournament room", tables=(), tournaments=tournaments)
    return Room(config, base.room_id, base.gatekeeper,
                driver_factory=lambda room, state: TableRunner(room, state, FAST), store=store)


class Shover:
    """A player who registers and then goes all in (or calls, checks) at every turn, keeping every message."""

    def __init__(self, connection: LocalConnection, shove_rate: float = 1.0, seed: int = 0) -> None:
        self.connection = connection
        self.shove_rate = shove_rate
        self.rng = random.Random(seed)
        self.messages: list[dict[str, Any]] = []
        self.task: asyncio.Task[None] | None = None
        self.passive = False
        self.folding = False  # checks when he may, else folds: never calls anyone down (no showdown he can force)

    @classmethod
    async def join(cls, room: Room, name: str, shove_rate: float = 1.0, public_key: str | None = None) -> Shover:
        """``shove_rate``: how often he moves all in; else he checks, calls a small bet, or folds. ``public_key``:
        his key (the same one after a restart), else a new one."""
        bot = cls(await LocalConnection.attach(room, name, public_key), shove_rate, seed=sum(map(ord, name)))
        bot.task = asyncio.get_running_loop().create_task(bot._play())
        return bot

    @property
    def name(self) -> str:
        return self.connection.name

    def events(self, kind: str) -> list[Any]:
        """The typed tournament events of ``kind`` (a wire name, e.g. ``eliminated``) this bot received."""
        return [message["event"] for message in self.messages
                if message.get("type") == "tournament_event"
                and message["event"].get("event", message["event"].get("kind")) == kind]

    def replies(self, kind: str) -> list[dict[str, Any]]:
        return [message for message in self.messages if message.get("type") == kind]

    async def _play(self) -> None:
        with contextlib.suppress(ConnectionLost):
            while True:
                message = await self.connection.receive()
                self.messages.append(message)
                if message.get("type") != "action_request":
                    continue
                legal: dict[str, Any] = message["legal"]
                if legal.get("can_show"):
                    kind = "show"
                elif legal.get("max_raise_to") is not None and not self.passive \
                        and self.rng.random() < self.shove_rate:
                    kind = "all_in"
                elif legal.get("can_check"):
                    kind = "check"
                elif legal.get("call_amount") is not None and not self.folding and (
                        self.shove_rate == 1.0 or self.passive
                        or legal["call_amount"] * 5 <= (legal.get("max_raise_to") or 0)):
                    kind = "call"
                else:
                    kind = "fold"
                await self.connection.send("action", kind=kind, table=message["table"], hand=message["hand"])

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        await self.connection.close()


async def until(condition: Callable[[], bool], timeout: float = 120.0) -> None:
    await waiting.until(condition, "the tournament", quiet=max(timeout, waiting.QUIET), step=0.05)

"""``croupier bots --think MIN-MAX`` (issue 20): bots pause like people before each move, and a bad range is one
clear line."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from typing import Any

import pytest

from hosting import bots
from hosting.cli import main
from hosting.client import RoomClient
from hosting.config import parse_room
from hosting.server import RunningRoom
from hosting.table_runner import RunnerSettings

ROOM = """
[[tables]]
id = "t"
game = "texas_holdem"
structure = "no_limit"
stakes = [1, 2]
seats = 2
buy_in = [40, 200]
"""


@pytest.mark.parametrize(("text", "bounds"), [
    ("1-4", (1.0, 4.0)), ("0", (0.0, 0.0)), ("0.05-0.1", (0.05, 0.1)), ("2", (2.0, 2.0)), (" 0-0 ", (0.0, 0.0)),
])
def test_think_ranges_read(text: str, bounds: tuple[float, float]) -> None:
    assert bots.parse_think(text) == bounds


@pytest.mark.parametrize("text", ["4-1", "fast", "-1", "1-", "-", "nan", "inf", "1-601", "1-2-3", ""])
def test_a_bad_think_range_is_one_line(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots", "--connect", "localhost:2222", "--think", text]) == 2
    assert capsys.readouterr().err == (
        "croupier bots: --think expects seconds MIN-MAX (e.g. 1-4, or 0 for no pause), 0 to 600 with MIN <= MAX, "
        f"got {text!r}\n")


class CountingRandom(random.Random):
    """A seeded ``Random`` that keeps every ``uniform`` it drew (the bots' think times)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.drawn: list[float] = []

    def uniform(self, a: float, b: float) -> float:
        value = super().uniform(a, b)
        self.drawn.append(value)
        return value


async def test_thinking_bots_pause_before_every_move(rooms: Callable[..., Any], connect: Callable[..., Any]) -> None:
    running: RunningRoom = await rooms(parse_room(ROOM, "test room"),
                                       runner_settings=RunnerSettings(pause_between_hands=0.0))
    clients: list[RoomClient] = [await connect(running, f"bot{index}") for index in range(2)]
    rngs = [CountingRandom(index) for index in range(2)]
    done = asyncio.Event()
    started = time.perf_counter()
    reports = await asyncio.wait_for(asyncio.gather(*(
        bots.play(client, "t", 2, rng, done=done, think=(0.2, 0.3)) for client, rng in zip(clients, rngs, strict=True)
    )), 120)
    elapsed = time.perf_counter() - started
    moves = sum(len(report.latencies) for report in reports)
    drawn = [value for rng in rngs for value in rng.drawn]
    assert moves >= 2  # two hands heads-up: at least the small blind's move in each
    assert len(drawn) == moves  # one pause per move, none elsewhere
    assert all(0.2 <= value <= 0.3 for value in drawn)
    assert elapsed >= sum(drawn)  # heads-up the bots take turns: their pauses add up
    assert all(report.failures == 0 and report.verified >= 2 for report in reports)

"""``croupier bots --table zoom --think 1-2`` (found trying the room as a new host): the pool's bots took no
time at all — 41 hands in 2 s, a blur for the friends who play beside them — and played the random strategy
whatever ``--style`` said: run_bots gave the pool's play neither. Now each pool bot thinks before each move and
plays its style, as at a table (hosting.bots.Mover, one place for both).

Every move is watched (issue 24: the test waited ~45 s of 2 s thinks): each one the pool's bots made went through
the Mover with the ``--think`` and ``--style`` given and took its think, and the hands took at least one think
each. A short think shows that as well as a long one."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from hosting import bots
from hosting.bots import run_bots
from tests.hosting.pool_rooms import start_pool_room
from tests.hosting.room_files import pool_room

ROOM = pool_room(buy_in=(80, 200))

THINK = 0.25
HANDS = 2


@pytest.mark.timeout(300)
async def test_pool_bots_think_before_each_move_and_play_their_style(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    moves: list[tuple[str | None, tuple[float, float], float]] = []  # (style, think, seconds taken) of each move
    move = bots.Mover.move

    async def watched(mover: bots.Mover, table: str, request: dict[str, Any], rng: Any) -> dict[str, Any]:
        started = time.monotonic()
        action = await move(mover, table, request, rng)
        moves.append((mover.style, mover.think, time.monotonic() - started))
        return action

    monkeypatch.setattr(bots.Mover, "move", watched)
    running = await start_pool_room(ROOM, tmp_path / "data")
    try:
        started = time.monotonic()
        summary = await run_bots("127.0.0.1", running.port, 2, HANDS, seed=7, table="zoom", style="tight",
                                 think=(THINK, THINK))
        elapsed = time.monotonic() - started
    finally:
        await running.close()
    assert summary["hands"] >= HANDS and summary["fairness_failures"] == 0 and summary["illegal_rejected"] == 0
    # every hand asks at least one move of a bot (heads-up, the small blind acts first): one think each
    assert elapsed >= HANDS * THINK, f"{summary['hands']} hands in {elapsed:.2f} s: the bots did not think"
    assert len(moves) >= HANDS, f"{len(moves)} moves through the Mover in {summary['hands']} hands"
    assert {(style, think) for style, think, _ in moves} == {("tight", (THINK, THINK))}
    assert min(taken for _, _, taken in moves) >= THINK, f"a move took less than its {THINK} s think: {moves}"

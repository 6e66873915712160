"""``croupier play --fast-fold`` (R-FAST-1): the practice room is a pool with bots; the player is dealt hands at
its tables, and a fold deals him the next one with no key pressed. A stud game is refused in one line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hosting.cli import build_parser
from hosting.commands import play
from hosting.table_runner import cancel_and_wait


def test_fast_fold_options_make_a_pool_of_a_blind_game(tmp_path: Path) -> None:
    arguments = build_parser().parse_args(["play", "--fast-fold", "--players", "4", "--data", str(tmp_path)])
    assert arguments.fast_fold
    table = play.check_options("texas_holdem", None, 4, "1/2", fast_fold=True)
    assert (table.id, table.seats, table.big_blind, table.max_buy_in) == ("practice", 4, 2, 200)
    with pytest.raises(play.PlayError, match="--fast-fold pools deal blind games; 7-card Stud is not one"):
        play.check_options("seven_card_stud", None, None, "1/2", fast_fold=True)


async def test_fast_fold_practice_deals_the_next_hand_after_a_fold(tmp_path: Path) -> None:
    table = play.check_options("texas_holdem", None, 3, "1/2", fast_fold=True)
    state: dict[str, Any] = {}
    app = play.practice_app(table, tmp_path, seed=7, fast=True, state=state, fast_fold=True)
    async with app.run_test(size=(120, 40)) as pilot:
        try:
            await _fold_three_hands(app, pilot, state)
        finally:  # the room and its bots live in this event loop: stop them before it closes
            for bot in state.get("bots", []):
                if bot.task is not None:
                    await cancel_and_wait(bot.task)
            if "room" in state:
                await state["room"].stop()


async def _fold_three_hands(app: Any, pilot: Any, state: dict[str, Any]) -> None:
    seen: list[tuple[str, str]] = []
    for _ in range(2000):
        shown = app.current_table
        model = app.models.get(shown or "")
        if model is not None and model.needs_action and model.hand_id:
            if (shown, model.hand_id) not in seen:
                seen.append((str(shown), model.hand_id))
            await pilot.press("f")
        if len(seen) >= 3:
            break
        await pilot.pause(0.02)
    assert len(seen) >= 3, seen
    assert all(table_id.startswith("practice.") for table_id, _ in seen)
    assert len({hand for _, hand in seen}) == len(seen)
    assert len(state["bots"]) == 3 * 3 - 1
    assert "practice" in state["room"].pools
    assert app.internal_errors == []

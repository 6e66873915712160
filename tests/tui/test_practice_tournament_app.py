"""``croupier play --tournament sng`` as the app opens it (hosting.commands.play.practice_tournament_app): the
room with the practice Sit & Go starts on the first connect, the bots register, you register last and the Sit &
Go starts with you seated; your table reaches the app."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.tournament.director import Phase
from hosting.commands import play
from hosting.practice_tournament import practice_config, with_level_seconds
from tests.tui.helpers import wait_until


async def test_practice_sit_and_go_starts_with_you_seated_and_your_table_reaches_the_app(tmp_path: Path) -> None:
    config = with_level_seconds(practice_config("sng", 6), 30.0)
    state: dict[str, Any] = {}
    app = play.practice_tournament_app(config, tmp_path, seed=3, fast=True, state=state)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: "room" in state and "registered" in state, what="the room")
        owner = state["room"].tournaments.owners[config.id]
        await wait_until(pilot, lambda: owner.director.phase is not Phase.REGISTERING, what="the start")
        assert sorted(entry.player for entry in owner.director.entries.values()) == \
            ["bot1", "bot2", "bot3", "bot4", "bot5", "you"]
        (table,) = owner.tables.values()
        assert "you" in {seated.player for seated in table.engine.players.values()}
        await wait_until(pilot, lambda: table.id in app.models, what="your table in the app")
        assert app.internal_errors == []
        for bot in state["bots"]:
            assert bot.task is not None
            bot.task.cancel()
        await state["room"].stop()

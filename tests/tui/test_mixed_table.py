"""A mixed table on screen (R-MIX-1..2): `croupier play --mixed horse` changes game with its bots, the header
shows the mix, its game and the next, the log says each change, and the client verifies every hand across the
changes; dealer's choice: the player on the button picks with G (his pick sent as the game's number)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Static

from hosting.commands import play
from tests.tui.helpers import wait_until
from tests.tui.recorded import ReplayConnection, hello, msg
from tests.tui.test_practice_table import play_until
from tui.app import CroupierApp
from tui.screens import GameScreen
from tui.widgets.table_view import TableView


def _title(app: Any) -> str:
    view = app.query_one(f"#view-{play.TABLE_ID}", TableView)
    return str(view.query_one("#title", Static).render())


async def test_practice_horse_shows_the_game_and_the_next_and_verifies_hands_across_changes(tmp_path: Path) -> None:
    table = play.check_mixed("horse", 1, 3, "2/4")  # one hand a game: hold'em, Omaha hi/lo, razz, …
    state: dict[str, Any] = {}
    app = play.practice_app(table, tmp_path, seed=5, fast=True, state=state)
    app.strict = True  # type: ignore[attr-defined]
    async with app.run_test(size=(140, 42)) as pilot:
        await play_until(pilot, app, lambda: play.TABLE_ID in app.models and app.models[play.TABLE_ID].game == "razz"
                         and app.models[play.TABLE_ID].mixed.get("game") == "Razz")
        app.show_table(play.TABLE_ID)
        await pilot.pause(0.2)
        model = app.models[play.TABLE_ID]
        assert "From hand 2: Omaha Hi/Lo 8-or-better (fixed limit), blinds 2/4" in model.log
        assert "From hand 3: Razz (fixed limit), bring-in 1" in model.log
        assert "HORSE: Razz · next 7-card Stud" in _title(app)
        await play_until(pilot, app, lambda: sum(1 for summary in model.hands if summary.fairness) >= 3)
        assert [summary.fairness for summary in model.hands[:3]] == [True] * 3  # hold'em, Omaha hi/lo, razz
        assert not [summary for summary in model.hands if summary.fairness is False]
        assert app.internal_errors == []


def _mixed(chooser: str) -> dict[str, Any]:
    return {"name": "HORSE", "game": "Razz", "number": 3, "choice": "button", "next": None, "hands_left": 0,
            "games": ["Limit Hold'em", "Limit Omaha Hi/Lo", "Razz", "7-card Stud", "7-card Stud Hi/Lo"],
            "chooser": chooser, "deadline_seconds": 20}


async def test_dealers_choice_the_button_picks_with_g_and_others_see_who_picks() -> None:
    seats = [{"seat": 0, "name": "me", "stack": 200, "sitting_out": False, "away": False, "wait_for_big_blind": False},
             {"seat": 1, "name": "bob", "stack": 200, "sitting_out": False, "away": False,
              "wait_for_big_blind": False}]
    table = msg("table", table="t1", game="razz", structure="fixed_limit", stakes=[0, 4], seats=seats,
                max_seats=6, waiting=[], hand_running=False, mixed=_mixed("me"))
    connection = ReplayConnection([hello(), msg("lobby", tables=[]), table])

    async def connect() -> ReplayConnection:
        return connection

    app = CroupierApp(connect, clock=lambda: 100.0)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: "t1" in app.models, what="the table")
        app.show_table("t1")
        await pilot.pause(0.2)
        assert "HORSE: Razz · your pick of the next game (G)" in str(
            app.query_one("#view-t1", TableView).query_one("#title", Static).render())
        assert any("press G" in notice for notice in app.notices)
        await pilot.press("g")
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen), what="the pick window")
        await pilot.press("4")
        await wait_until(pilot, lambda: any(sent["type"] == "choose_game" for sent in connection.sent),
                         what="the pick sent")
        assert [sent for sent in connection.sent if sent["type"] == "choose_game"] == [
            {"type": "choose_game", "table": "t1", "game": "4"}]
        model = app.models["t1"]
        model.apply(msg("table", table="t1", seats=seats, max_seats=6, waiting=[], hand_running=False,
                        mixed=_mixed("bob")))
        assert model.mixed_words == "HORSE: Razz · bob picks the next game"

"""The hand-history viewer (issue 14, player features; DESIGN's viewer): V opens it for the table the keys act
on, the last hand first; ↑/↓ pick an earlier hand, ←/→ step street by street; every shown card, each street's
lines and the fairness badge are on screen."""

from __future__ import annotations

from typing import Any

from tests.tui.recorded import engine_showdown, finished_hand, hello, msg, showdown_rows
from tests.tui.test_showdown import HOLDEM_KICKER
from tests.tui.test_snapshots import replay_app, settle
from tui.history_viewer import HandHistoryScreen
from tui.widgets.felt import BoardView
from tui.widgets.seat import SeatView


def plain(screen: Any, selector: str) -> str:
    return str(screen.query_one(selector).render())


def seat_lines(screen: Any) -> dict[str, str]:
    return {view.info.name: view.render().plain for view in screen.query(SeatView) if view.info is not None}


async def test_step_through_the_last_hand_then_pick_an_earlier_one() -> None:
    table = "holdem-1-2"
    snapshot, *showdown = engine_showdown(table, "texas_holdem", HOLDEM_KICKER)
    messages = [hello(), msg("lobby", tables=showdown_rows()), snapshot, *finished_hand(table, f"{table}-e2e0f1-11"),
                *showdown]
    app = replay_app(messages)
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(pilot)
        app.show_table(table)
        await settle(pilot)
        await pilot.press("v")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, HandHistoryScreen)
        assert plain(screen, "#step-title").startswith("Hand #12  pre-flop (1/5)  ✔ verified")
        seats = seat_lines(screen)
        assert "J♦ A♠" in seats["me"] and "▒▒ ▒▒" in seats["ana"]  # before the showdown: ana's cards unseen
        assert "You post the big blind 2" in plain(screen, "#street-lines")
        await pilot.press("right")
        await settle(pilot)
        assert "flop (2/5)" in plain(screen, "#step-title")
        assert "J♣ 9♣ 4♦" in plain(screen, "#street-lines") and "J♣ 9♣ 4♦" in plain(screen, "BoardView")
        for _ in range(5):  # past the end stays on the result
            await pilot.press("right")
        await settle(pilot)
        assert "showdown (5/5)" in plain(screen, "#step-title")
        seats = seat_lines(screen)
        assert "J♥ K♦" in seats["ana"] and "8♣ 8♦" in seats["bruno"] and "Q♠ 2♥" in seats["carla"]
        board = next(iter(screen.query(BoardView).results()))
        assert "You win 8 with pair of jacks, ace kicker" in board.render().plain
        assert "ana shows J♥ K♦ (pair of jacks)" in plain(screen, "#street-lines")
        await pilot.press("down")  # the hand before
        await settle(pilot)
        assert plain(screen, "#step-title").startswith("Hand #11  result (1/1)  ✔ verified")
        assert "ana folds" in plain(screen, "#street-lines")
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, HandHistoryScreen)


async def test_the_viewer_is_in_the_palette_and_the_help() -> None:
    from tui.screens import HELP

    assert "V hand history" in HELP
    app = replay_app([hello(), msg("lobby", tables=showdown_rows())])
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(pilot)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Hand history" in titles
        await pilot.press("v")  # no table open: a word, no screen
        await settle(pilot)
        assert not isinstance(app.screen, HandHistoryScreen)
